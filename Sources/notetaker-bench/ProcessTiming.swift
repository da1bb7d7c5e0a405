import Foundation

/// Times whole processes: what a user waits for when they type a command.
enum ProcessTiming {
    /// Runs `executable ARGUMENTS` to its end and returns its exit status and standard
    /// output; its standard error goes to `errors` (discarded when `nil`).
    static func output(_ executable: URL, _ arguments: [String], errors: FileHandle?) throws -> (status: Int32, data: Data) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// The wall time of `executable ARGUMENTS`, in milliseconds, from spawn to exit. Output
    /// is discarded; a failing run is an error. (posix_spawn and waitpid, not `Process`,
    /// whose wait polls every 50 ms on Linux.)
    static func run(_ executable: URL, _ arguments: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        let elapsed = try Clock.milliseconds {
            let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
            guard spawned == 0 else { throw BenchFailure("cannot start \(executable.path): error \(spawned)") }
            waitpid(pid, &status, 0)
        }
        guard status == 0 else {
            throw BenchFailure("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed (wait status \(status))")
        }
        return elapsed
    }

    /// The peak resident memory of `executable ARGUMENTS`, in MB, measured by GNU time
    /// (which forks, so the figure is the child's own); `nil` where GNU time is missing.
    static func peakMemoryMB(_ executable: URL, _ arguments: [String]) throws -> Double? {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else { return nil }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-bench-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try run(time, ["-f", "%M", "-o", output.path, executable.path] + arguments)
        let text = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return Double(text.split(separator: "\n").last ?? "").map { $0 / 1024 }
    }

    /// The wall time and (where GNU time is installed) peak memory of one run.
    static func measure(_ executable: URL, _ arguments: [String]) throws -> (milliseconds: Double, peakMB: Double?) {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else { return (try run(executable, arguments), nil) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-bench-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let milliseconds = try run(time, ["-f", "%M", "-o", output.path, executable.path] + arguments)
        let text = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (milliseconds, Double(text.split(separator: "\n").last ?? "").map { $0 / 1024 })
    }

    /// The `notetaker` executable built beside this benchmark, built now in release mode if
    /// it is not there yet.
    static func notetakerExecutable() throws -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notetaker")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        FileHandle.standardError.write(Data("Building notetaker (release) for the whole-process measures...\n".utf8))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "-c", "release", "--product", "notetaker", "--package-path", packageRoot.path]
        build.standardOutput = FileHandle.standardError
        try build.run()
        build.waitUntilExit()
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            throw BenchFailure("Could not build notetaker beside the benchmark (\(beside.path)).")
        }
        return beside
    }

    /// The `sqlite3` shell, for the plain-SQL side of the whole-process measures.
    static func sqliteShell() -> URL? {
        ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// A benchmark that could not run, with the reason.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
