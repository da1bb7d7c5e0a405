import Foundation
import GRDB
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// The engine reads the next batch of the outbox while the server answers one.
@Suite("Batches read while one is in flight")
struct PipelinedPushTests {
    @Test func aNoteEditedWhileItsBatchIsInFlightGoesUpAgainWithoutAMerge() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            let edited = try store.createNote(NoteDraft(title: "Edited in flight", body: "first words"))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("pipelined-\(UUID().uuidString).txt")
            try Data("a file, so that the first batch checks the server for it".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try store.attachFile(at: file, toNote: edited.id)
            _ = try store.importNotes((0..<SyncLimits.maxBatchSize + 50).map { NoteDraft(title: "note \($0)") })

            // The first batch is read with the first words; the edit lands before it is sent,
            // so the batch read while it is in flight holds the note again.
            let transport = EditingTransport(inner: try HTTPSyncTransport(server: server.url, token: token)) {
                _ = try? store.updateNote(id: edited.id, body: "second words")
            }
            let report = try await SyncEngine(store: store, transport: transport).sync()
            #expect(report.merged == 0)
            #expect(try store.conflicts().isEmpty)
            #expect(try !store.hasPushableChanges())
            // Nothing is left in flight, in either slot, and no answer is kept.
            #expect(try store.read { db in
                try String.fetchAll(db, sql: "SELECT key FROM sync_state WHERE key IN ('inflight', 'inflight2', 'answered')")
            }.isEmpty)

            let other = try Device("other", server: server, token: token)
            try await other.sync()
            #expect(try other.note(titled: "Edited in flight").body == "second words")
            #expect(try other.store.statistics().notes == SyncLimits.maxBatchSize + 51)
        }
    }
}

extension PipelinedPushTests {
    @Test func batchesLeftInFlightByAStopAreSentAgainOldestFirstAndAppliedOnce() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0..<3).map { NoteDraft(title: "note \($0)") })
            let transport = try HTTPSyncTransport(server: server.url, token: token)
            _ = try store.adoptServer(try await transport.health().serverId)
            // The first batch was sent and answered; the next was kept to follow it; then the
            // process stopped before applying the answer or sending the next.
            let first = try #require(try store.nextPushBatch(after: 0, limit: 1).0)
            try store.beginPush(first)
            _ = try await transport.modify(first.request)
            let second = try #require(try store.nextPushBatch(after: first.sequences[0], limit: 1).0)
            try store.beginPush(second)
            #expect(try store.inflightBatches().map(\.request.requestId) == [first.request.requestId, second.request.requestId])

            try await expectEverythingGoesUp(store, with: SyncEngine(store: store, transport: transport), server, token,
                                             titles: ["note 0", "note 1", "note 2"])
        }
    }
}

extension PipelinedPushTests {
    @Test func theBatchAfterOneWhoseAnswerMergedIsReadAgain() async throws {
        try await withLiveServer { server, token in
            let ours = try NoteStore.inMemory()
            let theirs = try Device("theirs", server: server, token: token)
            let shared = try theirs.store.createNote(NoteDraft(title: "Shared", body: "one\ntwo\nthree"))
            try await theirs.sync()
            let transport = try HTTPSyncTransport(server: server.url, token: token)
            let engine = SyncEngine(store: ours, transport: transport, options: .init(policy: .localWins, batchSize: 1))
            try await engine.sync()
            // Both edit the shared note; ours also has new notes, in batches of one behind it.
            _ = try theirs.store.updateNote(id: shared.id, body: "one\ntwo\nthree, theirs")
            try await theirs.sync()
            _ = try ours.updateNote(id: shared.id, body: "one, ours\ntwo\nthree")
            _ = try ours.importNotes((0..<3).map { NoteDraft(title: "new \($0)") })

            let report = try await engine.sync()
            #expect(report.merged == 1)
            #expect(try ours.inflightBatches().isEmpty)
            #expect(try !ours.hasPushableChanges())
            try await theirs.sync()
            #expect(try theirs.note(titled: "Shared").body == "one, ours\ntwo\nthree, theirs")
            #expect(try theirs.titles() == ["Shared", "new 0", "new 1", "new 2"])
        }
    }
}

extension PipelinedPushTests {
    @Test func aBatchKeptWithAnAnswerAppliedIsSentAfterAStop() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0..<6).map { NoteDraft(title: "note \($0)") })
            let transport = try HTTPSyncTransport(server: server.url, token: token)
            _ = try store.adoptServer(try await transport.health().serverId)
            // The first batch is answered and the second sent; the first answer is applied
            // and the third kept in one transaction; then the process stops.
            let first = try #require(try store.nextPushBatch(after: 0, limit: 2).0)
            try store.beginPush(first)
            let answer = try await transport.modify(first.request)
            let second = try #require(try store.nextPushBatch(after: first.sequences[1], limit: 2).0)
            try store.beginPush(second)
            _ = try await transport.modify(second.request)
            let third = try #require(try store.nextPushBatch(after: second.sequences[1], limit: 2).0)
            _ = try store.finishPush(first, response: answer, policy: .localWins, keeping: third)
            #expect(try store.inflightBatches().map(\.request.requestId) == [second.request.requestId, third.request.requestId])

            try await expectEverythingGoesUp(store, with: SyncEngine(store: store, transport: transport), server, token,
                                             titles: (0..<6).map { "note \($0)" })
        }
    }

    @Test func aLostAnswerLeavesTheBatchesInFlightToBeSentAgainAndAppliedOnce() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            _ = try store.importNotes((0..<10).map { NoteDraft(title: "note \($0)") })
            let transport = LosingTransport(inner: try HTTPSyncTransport(server: server.url, token: token), losing: 3)
            let engine = SyncEngine(store: store, transport: transport, options: .init(batchSize: 2))
            await #expect(throws: SyncError.self) { try await engine.sync() }
            // The batch whose answer was lost stays in flight, and so does the one sent while
            // the server answered it.
            #expect(try store.inflightBatches().map(\.request.changes.count) == [2, 2])

            try await expectEverythingGoesUp(store, with: engine, server, token, titles: (0..<10).map { "note \($0)" })
        }
    }
}

extension PipelinedPushTests {
    @Test func aThirdBatchIsRefusedRatherThanReplaceOneInFlight() throws {
        let store = try NoteStore.inMemory()
        _ = try store.importNotes((0..<3).map { NoteDraft(title: "note \($0)") })
        let first = try #require(try store.nextPushBatch(after: 0, limit: 1).0)
        let second = try #require(try store.nextPushBatch(after: first.sequences[0], limit: 1).0)
        let third = try #require(try store.nextPushBatch(after: second.sequences[0], limit: 1).0)
        try store.beginPush(first)
        try store.beginPush(second)
        let error = #expect(throws: NoteTakerError.self) { try store.beginPush(third) }
        #expect(error?.description.contains("two batches are in flight already") == true)
        #expect(try store.inflightBatches().map(\.request.requestId) == [first.request.requestId, second.request.requestId])
    }
}


/// The real transport, losing the answer to one request (the server applied it).
private struct LosingTransport: SyncTransport {
    let inner: HTTPSyncTransport
    let losing: Int
    let count = Counter()

    func health() async throws(SyncError) -> HealthResponse { try await inner.health() }
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse { try await inner.fetchChanges(query) }
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        let response = try await inner.modify(request, fieldsJSON: fieldsJSON)
        if count.next() == losing { throw .unreachable("the answer was lost") }
        return response
    }
    func assetExists(hash: String) async throws(SyncError) -> Bool { try await inner.assetExists(hash: hash) }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await inner.uploadAsset(hash: hash, from: file) }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try await inner.downloadAsset(hash: hash, to: file) }
}

/// Counts calls, from any task.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int { lock.withLock { value += 1; return value } }
}

/// The real transport, with an edit made by the engine's first question about a file:
/// between reading a batch and sending it.
private struct EditingTransport: SyncTransport {
    let inner: HTTPSyncTransport
    let edit: OnlyOnce

    init(inner: HTTPSyncTransport, edit: @escaping @Sendable () -> Void) {
        self.inner = inner
        self.edit = OnlyOnce(edit)
    }

    func health() async throws(SyncError) -> HealthResponse { try await inner.health() }
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse { try await inner.fetchChanges(query) }
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        try await inner.modify(request, fieldsJSON: fieldsJSON)
    }
    func assetExists(hash: String) async throws(SyncError) -> Bool {
        edit.run()
        return try await inner.assetExists(hash: hash)
    }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await inner.uploadAsset(hash: hash, from: file) }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try await inner.downloadAsset(hash: hash, to: file) }
}

/// Runs an action the first time it is asked to.
private final class OnlyOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func run() {
        let pending = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        pending?()
    }
}
