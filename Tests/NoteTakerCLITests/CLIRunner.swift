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
        try start(arguments, stdin: stdin, environment: environment, store: store, executable: executable).finish()
    }

    /// A `notetaker` started and not yet waited for; what it prints goes to files, so it
    /// never waits on a full pipe.
    struct Running {
        let process: Process
        let output: URL
        let errors: URL

        /// Waits for the process to end (failing the test if it takes longer than `timeout`
        /// seconds, and stopping it) and returns what it printed.
        func finish(timeout: TimeInterval = 600) throws -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(2_000) }
            if process.isRunning {
                Issue.record("notetaker \(process.arguments ?? []) did not finish within \(Int(timeout)) s; stopped it")
                process.terminate()
            }
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(at: output)
                try? FileManager.default.removeItem(at: errors)
            }
            return Result(status: process.terminationStatus, stdout: try String(contentsOf: output, encoding: .utf8),
                          stderr: try String(contentsOf: errors, encoding: .utf8))
        }
    }

    /// Starts `notetaker` as ``run(_:stdin:environment:store:executable:)`` does, without
    /// waiting for it.
    func start(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], store: Bool = true, executable: URL? = nil
    ) throws -> Running {
        let process = Process()
        process.executableURL = executable ?? Self.executable
        process.arguments = arguments + (store ? ["--store", storePath] : [])
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTETAKER_STORE")
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("xdg").path
        // English whatever the machine's locale, unless a test asks for a language.
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { env.removeValue(forKey: name) }
        env["LANG"] = "C.UTF-8"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = directory.appendingPathComponent("out-\(UUID()).txt")
        let errors = directory.appendingPathComponent("err-\(UUID()).txt")
        try Data().write(to: output)
        try Data().write(to: errors)
        let input = Pipe()
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorsHandle = try FileHandle(forWritingTo: errors)
        process.standardOutput = outputHandle
        process.standardError = errorsHandle
        process.standardInput = input
        try process.run()
        try outputHandle.close()
        try errorsHandle.close()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        return Running(process: process, output: output, errors: errors)
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
