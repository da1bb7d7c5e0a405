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
    /// is discarded; a failing run is an error.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Double {
        try Clock.milliseconds { try Child.spawn(executable, arguments).finish() }
    }

    /// The wall time and, where GNU time is installed, the peak memory of one run. GNU time
    /// forks the process from its own small one: a process started from this benchmark
    /// would report this benchmark's memory at the start as its own (Linux carries the
    /// high-water mark of the memory a child began with across `exec`).
    static func measure(_ executable: URL, _ arguments: [String]) throws -> (milliseconds: Double, peakMB: Double?) {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else { return (try run(executable, arguments), nil) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-bench-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let milliseconds = try run(time, ["-f", "%M", "-o", output.path, executable.path] + arguments)
        let text = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (milliseconds, Double(text.split(separator: "\n").last ?? "").map { $0 / 1024 })
    }

    /// A process started in the background, its output discarded (its standard error kept
    /// in a file when asked). (Not `Process`, whose wait polls every 50 ms on Linux.)
    struct Child {
        let pid: pid_t
        let description: String

        /// Starts `executable ARGUMENTS`.
        static func spawn(_ executable: URL, _ arguments: [String], standardError: URL? = nil) throws -> Child {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, standardError?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
            guard spawned == 0 else { throw BenchFailure("cannot start \(executable.path): error \(spawned)") }
            return Child(pid: pid, description: ([executable.lastPathComponent] + arguments).joined(separator: " "))
        }

        /// The most memory the running process has held so far, in MB: the high-water mark
        /// of its own address space (`VmHWM`), which starts afresh at `exec`.
        func peakMemoryMB() throws -> Double {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kilobytes = line.split(separator: " ").compactMap({ Double($0) }).first
            else { throw BenchFailure("no memory figure for \(description)") }
            return kilobytes / 1024
        }

        /// Asks the process to stop, as Ctrl-C would.
        func interrupt() {
            kill(pid, SIGINT)
        }

        /// Waits for the process to end. A failure (or, unless `interrupted`, any end but a
        /// clean exit) is an error.
        func finish(interrupted: Bool = false) throws {
            var status: Int32 = 0
            guard waitpid(pid, &status, 0) == pid else { throw BenchFailure("lost \(description)") }
            let exited = status & 0x7F == 0
            guard (exited && status >> 8 == 0) || (interrupted && !exited && status & 0x7F == SIGINT) else {
                throw BenchFailure("\(description) failed (wait status \(status))")
            }
        }
    }

    /// The `notetaker` executable built beside this benchmark, built now in release mode if
    /// it is not there yet or older than the benchmark.
    static func notetakerExecutable() throws -> URL {
        try executable(named: "notetaker")
    }

    /// The product `name` built beside this benchmark, built now in release mode if it is
    /// not there yet or older than the benchmark (built from older code: its figures would
    /// be that code's).
    static func executable(named name: String) throws -> URL {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let beside = bench.deletingLastPathComponent().appendingPathComponent(name)
        func modified(_ url: URL) -> Date? { try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate }
        if FileManager.default.isExecutableFile(atPath: beside.path), let built = modified(beside), let ours = modified(bench), built >= ours {
            return beside
        }
        FileHandle.standardError.write(Data("Building \(name) (release) for the whole-process measures...\n".utf8))
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "-c", "release", "--product", name, "--package-path", packageRoot.path]
        build.standardOutput = FileHandle.standardError
        try build.run()
        build.waitUntilExit()
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            throw BenchFailure("Could not build \(name) beside the benchmark (\(beside.path)).")
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
