import Foundation
import Testing

/// Runs the real `notetaker` executable, as a user or a script would, on a store of its own.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output parsed as JSON.
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        }

        /// The lines of standard output.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    let directory: URL
    var storePath: String { directory.appendingPathComponent("NoteTaker.sqlite").path }

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("NoteTakerCLITests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The `notetaker` built beside this test bundle.
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        return candidates.map { $0.appendingPathComponent("notetaker") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0].appendingPathComponent("notetaker")
    }()

    /// Runs `notetaker ARGUMENTS --store <this runner's store>` unless `store` is false
    /// (or another `executable` with these arguments).
    @discardableResult
    func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], store: Bool = true, executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? Self.executable
        process.arguments = arguments + (store ? ["--store", storePath] : [])
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTETAKER_STORE")
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("xdg").path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs a command that must succeed, and returns its trimmed standard output.
    @discardableResult
    func ok(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
            sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments, stdin: stdin, environment: environment)
        #expect(result.status == 0, "notetaker \(arguments) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
