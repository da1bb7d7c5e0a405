import Foundation

/// A real `notetaker-server` process on a free loopback port, for the sync measures: its
/// peak memory is its own, as a deployed node's would be.
struct ServerNode {
    /// Where it answers.
    let url: URL
    private let child: ProcessTiming.Child

    /// Starts a node on `storage` (`--data FOLDER` or `--database URL`) and waits for it to
    /// listen.
    static func start(storage: [String], log: URL) throws -> ServerNode {
        let server = try ProcessTiming.executable(named: "notetaker-server")
        let child = try ProcessTiming.Child.spawn(server, ["serve"] + storage + ["--port", "0"], standardError: log)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains("notetaker-server listening on ") }),
               let address = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }), let url = URL(string: String(address)) {
                return ServerNode(url: url, child: child)
            }
            if kill(child.pid, 0) != 0 { break }
            usleep(20_000)
        }
        child.interrupt()
        try? child.finish(interrupted: true)
        throw BenchFailure("notetaker-server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// Stops the node as Ctrl-C would; returns its peak memory in MB.
    func stop() throws -> Double {
        let peak = try child.peakMemoryMB()
        child.interrupt()
        try child.finish(interrupted: true)
        return peak
    }
}
