import Foundation
import Hummingbird
import Logging
import NoteTakerKit
import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import ServiceLifecycle
import Testing
@testable import NoteTakerSync

/// A real sync server on a loopback port, over fresh storage (see ``TestStorage``).
final class LiveServer: Sendable {
    let url: URL
    let service: SyncService
    /// Where the server keeps everything: start another server on it to restart.
    let database: ServerDatabase
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(url: URL, service: SyncService, database: ServerDatabase, group: ServiceGroup, task: Task<Void, any Error>) {
        self.url = url
        self.service = service
        self.database = database
        self.group = group
        self.task = task
    }

    /// Starts a server over fresh storage, or over `database` (a stopped server's), on a free
    /// port or on `port` (a stopped server's, so that its devices find it where it was).
    static func start(
        database: ServerDatabase? = nil, port: Int = 0, quotaBytes: Int64 = ServerConfiguration.defaultQuota, idleTimeoutSeconds: Int64 = 60,
        headerTimeoutSeconds: Int64 = 30
    ) async throws -> LiveServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-sync-\(UUID().uuidString)")
        var configuration = try await TestStorage.configuration(directory: directory, port: port, quotaBytes: quotaBytes)
        if let database { configuration.database = database }
        configuration.idleTimeoutSeconds = idleTimeoutSeconds
        configuration.headerTimeoutSeconds = headerTimeoutSeconds
        let backend = try await configuration.openBackend()
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = try await buildApplication(configuration, backend: backend, logger: .testServer) { port in continuation.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        return LiveServer(
            url: URL(string: "http://127.0.0.1:\(port)")!, service: backend.service, database: configuration.database, group: group, task: task)
    }

    /// Shuts the server down gracefully (open connections are closed, not dropped mid-way)
    /// and waits for it; cancels it if that takes over ten seconds.
    func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
    }

    /// Registers an account and returns its token.
    func register(_ username: String = "ada", password: String = "correct horse") async throws -> String {
        try await HTTPSyncTransport(server: url, token: nil).register(username: username, password: password).token
    }
}

/// One device: its own store and an engine syncing it with the server.
struct Device {
    let name: String
    let store: NoteStore
    let transport: HTTPSyncTransport
    let engine: SyncEngine

    init(_ name: String, server: LiveServer, token: String, policy: MergePolicy = .localWins, sealing: RecordSealing? = nil) throws {
        self.name = name
        store = try NoteStore.inMemory()
        transport = try HTTPSyncTransport(server: server.url, token: token)
        engine = SyncEngine(store: store, transport: transport, options: .init(policy: policy, sealing: sealing))
    }

    /// A device of parts made elsewhere (an engine over a transport a test put faults in).
    init(name: String, store: NoteStore, transport: HTTPSyncTransport, engine: SyncEngine) {
        self.name = name
        self.store = store
        self.transport = transport
        self.engine = engine
    }

    @discardableResult
    func sync() async throws -> SyncReport {
        try await engine.sync()
    }

    /// Every note, in the trash or not.
    func allNotes() throws -> [Note] {
        try store.notes(NoteQuery(limit: 1000)) + store.trashedNotes(limit: 1000)
    }

    /// The note with this title (exactly one expected).
    func note(titled title: String) throws -> Note {
        let matches = try allNotes().filter { $0.title == title }
        try #require(matches.count == 1, "\(name) has \(matches.count) notes titled '\(title)'")
        return matches[0]
    }

    /// Every note, by title.
    func titles() throws -> [String] {
        try allNotes().map(\.title).sorted()
    }
}

/// A fresh live server with one account (its token given), stopped when `body` ends.
func withLiveServer(quotaBytes: Int64 = ServerConfiguration.defaultQuota, _ body: (LiveServer, String) async throws -> Void) async throws {
    let server = try await LiveServer.start(quotaBytes: quotaBytes)
    do {
        try await body(server, try await server.register())
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// Several devices on one account of a fresh live server.
func withDevices(
    _ count: Int, policy: MergePolicy = .localWins, sealing: RecordSealing? = nil,
    _ body: ([Device], LiveServer) async throws -> Void
) async throws {
    try await withLiveServer { server, token in
        let devices = try (0..<count).map { try Device("device \($0 + 1)", server: server, token: token, policy: policy, sealing: sealing) }
        try await body(devices, server)
    }
}

/// The first value of a live query that satisfies `condition`, or `nil` if none comes
/// within a generous limit (so a broken feature fails the test instead of hanging it).
func firstValue<Value: Sendable>(
    of stream: AsyncThrowingStream<Value, any Error>, limit: Duration = .seconds(30),
    where condition: @escaping @Sendable (Value) -> Bool
) async throws -> Value? {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask {
            for try await value in stream where condition(value) { return value }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Syncs `store` and checks that every change went up once (no merge, no conflict, nothing
/// left in flight or in the outbox), and that another device then holds notes titled `titles`.
func expectEverythingGoesUp(
    _ store: NoteStore, with engine: SyncEngine, _ server: LiveServer, _ token: String, titles: [String]
) async throws {
    let report = try await engine.sync()
    #expect(report.merged == 0)
    #expect(try store.conflicts().isEmpty)
    #expect(try store.inflightBatches().isEmpty)
    #expect(try !store.hasPushableChanges())
    let other = try Device("other", server: server, token: token)
    try await other.sync()
    #expect(try other.titles() == titles)
}
