import Foundation
import Testing

/// The real `notetaker-server` executable on a free loopback port.
final class ServerProcess {
    let process = Process()
    let dataDirectory: URL
    private(set) var url: URL

    /// Starts the server (on a new data folder, or the PostgreSQL `database`, and a free
    /// port unless given) and waits for its "listening on" line. Its log goes nowhere after
    /// that line unless a `logFile` is given (then all of it, at `logLevel`, goes there).
    init(
        arguments: [String] = [], scheme: String = "http", dataDirectory: URL? = nil, database: String? = nil, port: Int = 0,
        logFile: URL? = nil, logLevel: String = "warning"
    ) throws {
        self.dataDirectory = dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-server-\(UUID().uuidString)")
        process.executableURL = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        let storage = database.map { ["--database", $0] } ?? ["--data", self.dataDirectory.path]
        // Requests and failed log-ins are not logged (a line each) unless the log is kept: nothing
        // reads the pipe after the start line.
        process.arguments = storage + ["--port", String(port), "--log-level", logLevel] + arguments
        let read: () -> Data
        if let logFile {
            FileManager.default.createFile(atPath: logFile.path, contents: nil)
            let log = try FileHandle(forWritingTo: logFile)
            process.standardError = log
            process.standardOutput = log
            let reader = try FileHandle(forReadingFrom: logFile)
            read = {
                let data = reader.availableData
                if data.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
                return data
            }
        } else {
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            read = { errors.fileHandleForReading.availableData }
        }
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("notetaker-server listening on"), Date() < deadline {
            let data = read()
            if data.isEmpty, logFile == nil || !process.isRunning { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let address = text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("\(scheme)://") }.map(String.init) ?? ""
        url = try #require(URL(string: address), "the server did not start: \(text)")
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// What an end-to-end run does to its server and expects of a device's sync meanwhile.
extension ServerProcess {
    /// Kills the server with SIGKILL `delay` microseconds into `runner`'s sync; how that sync ended.
    func kill(duringSyncOf runner: CLIRunner, after delay: UInt32) throws -> CLIRunner.Result {
        let sync = try runner.start(["sync"])
        usleep(delay)
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return try sync.finish(timeout: 60)
    }
}

extension CLIRunner {
    /// A `sync` in an end-to-end run: it must succeed when the server is up, and fail saying
    /// it was not reached when it is down (the changes wait). `context` names the seed and step.
    func checkedSync(serverUp: Bool, context: String) throws -> Result {
        let result = try run(["sync"])
        if serverUp {
            #expect(result.status == 0, "\(context): sync failed with the server up: \(result.stderr)")
        } else {
            #expect(result.status == 1 && result.stderr.contains("reached"), "\(context): \(result.stderr)")
        }
        return result
    }
}
