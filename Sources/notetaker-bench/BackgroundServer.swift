import Foundation
import Hummingbird
import ServiceLifecycle

/// An application serving on a loopback port in the background while a benchmark runs,
/// stopped gracefully (as Ctrl-C would) rather than cancelled.
struct BackgroundServer {
    /// Where it answers.
    let url: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `app`, which reports the port it bound on `ports`.
    static func start(_ app: some ApplicationProtocol, ports: AsyncStream<Int>) async throws -> BackgroundServer {
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw BenchFailure("the server did not start")
        }
        return BackgroundServer(url: url, group: group, task: task)
    }

    /// Runs `body` with the servers running, then shuts them down and waits for them.
    static func stopping<T>(_ servers: [BackgroundServer], after body: () async throws -> T) async throws -> T {
        do {
            let result = try await body()
            for server in servers { await server.stop() }
            return result
        } catch {
            for server in servers { await server.stop() }
            throw error
        }
    }

    /// Shuts the server down gracefully and waits for it.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
