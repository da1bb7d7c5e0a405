import Foundation
import Testing

/// The real `notetaker-server` executable on a free loopback port.
final class ServerProcess {
    let process = Process()
    let dataDirectory: URL
    private(set) var url: URL

    /// Starts the server (on a new data folder, or the PostgreSQL `database`, and a free
    /// port unless given) and waits for its "listening on" line.
    init(arguments: [String] = [], scheme: String = "http", dataDirectory: URL? = nil, database: String? = nil, port: Int = 0) throws {
        self.dataDirectory = dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-server-\(UUID().uuidString)")
        process.executableURL = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        let storage = database.map { ["--database", $0] } ?? ["--data", self.dataDirectory.path]
        // Requests and failed log-ins are not logged (a line each): nothing reads the pipe after the start line.
        process.arguments = storage + ["--port", String(port), "--log-level", "warning"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("notetaker-server listening on") {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let address = text.split(separator: " ").first { $0.hasPrefix("\(scheme)://") }.map(String.init) ?? ""
        url = try #require(URL(string: address), "the server did not start: \(text)")
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
