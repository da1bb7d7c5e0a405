import Foundation
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// A device sends as many changes in one batch as the server's health answer says it takes.
@Suite("Batches as large as the server takes")
struct BatchLimitTests {
    @Test func aServerThatSaysItsLimitGetsBatchesThatLarge() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0...SyncLimits.maxBatchSize).map { NoteDraft(title: "note \($0)") })
            let transport = OlderServerTransport(inner: try HTTPSyncTransport(server: server.url, token: token), older: false)
            let report = try await SyncEngine(store: store, transport: transport).sync()
            #expect(report.errors == 0)
            #expect(transport.batchSizes == [SyncLimits.maxBatchSize, 1])
        }
    }

    /// Servers before 2026-11-25 took 500 changes a batch, and said so.
    @Test func aServerThatSaysItTakesFewerGetsBatchesThatLarge() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0..<600).map { NoteDraft(title: "note \($0)") })
            let transport = OlderServerTransport(inner: try HTTPSyncTransport(server: server.url, token: token), older: false, announcing: 500)
            let report = try await SyncEngine(store: store, transport: transport).sync()
            #expect(report.errors == 0)
            #expect(transport.batchSizes == [500, 100])
        }
    }

    @Test func aServerThatDoesNotSayItsLimitGetsBatchesOf200() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0..<450).map { NoteDraft(title: "note \($0)") })
            let transport = OlderServerTransport(inner: try HTTPSyncTransport(server: server.url, token: token), older: true)
            let report = try await SyncEngine(store: store, transport: transport).sync()
            #expect(report.errors == 0)
            #expect(transport.batchSizes == [200, 200, 50])
        }
    }

    /// A batch saved in flight for a server that took more, which was then replaced by an
    /// older one (on the same database) that takes 200.
    @Test func aBatchLeftInFlightLargerThanTheServerTakesGoesUpInSmallerBatches() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0..<300).map { NoteDraft(title: "note \($0)") })
            let transport = OlderServerTransport(inner: try HTTPSyncTransport(server: server.url, token: token), older: true)
            _ = try store.adoptServer(try await transport.health().serverId)
            try store.beginPush(try #require(try store.nextPushBatch(after: 0, limit: 300).0))

            let report = try await SyncEngine(store: store, transport: transport).sync()
            #expect(report.errors == 0)
            #expect(transport.batchSizes == [200, 100])
            #expect(try store.inflightBatches().isEmpty)
            #expect(try !store.hasPushableChanges())
            let other = try Device("other", server: server, token: token)
            try await other.sync()
            #expect(try other.store.statistics().notes == 300)
        }
    }
}

/// The real transport, counting the changes of each batch sent. As an `older` server, it
/// does not say its batch limit and refuses a batch over 200 changes, as servers before
/// the health answer said it did; `announcing` a limit, it says that one and refuses more.
private final class OlderServerTransport: SyncTransport, @unchecked Sendable {
    let inner: HTTPSyncTransport
    let older: Bool
    let announcing: Int?
    private let lock = NSLock()
    private var sizes: [Int] = []

    init(inner: HTTPSyncTransport, older: Bool, announcing: Int? = nil) {
        self.inner = inner
        self.older = older
        self.announcing = announcing
    }

    /// The number of changes in each batch sent, in order.
    var batchSizes: [Int] { lock.withLock { sizes } }

    func health() async throws(SyncError) -> HealthResponse {
        var health = try await inner.health()
        health.maxBatchSize = older ? nil : announcing ?? health.maxBatchSize
        return health
    }

    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        lock.withLock { sizes.append(request.changes.count) }
        if let most = older ? 200 : announcing, request.changes.count > most {
            throw .server(code: "tooLarge", message: "A batch holds at most \(most) changes; this one has \(request.changes.count).")
        }
        return try await inner.modify(request, fieldsJSON: fieldsJSON)
    }

    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse { try await inner.fetchChanges(query) }
    func assetExists(hash: String) async throws(SyncError) -> Bool { try await inner.assetExists(hash: hash) }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await inner.uploadAsset(hash: hash, from: file) }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try await inner.downloadAsset(hash: hash, to: file) }
}
