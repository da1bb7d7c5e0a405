import Foundation
@testable import NoteTakerKit
@testable import NoteTakerSync
import NoteTakerSyncProtocol
import Testing

/// The engine's own logic — the order of a pull, its restarts, its safety rail — against the
/// store's side of sync in memory (``SyncStoreDouble``) and a scripted server: no SQLite, no
/// network. What the store does with each call is tested against the real store elsewhere.
@Suite("The sync engine's cycle, over a store double")
struct EngineCycleTests {
    static func note(_ number: Int, deleted: Bool = false) -> SyncRecord {
        SyncRecord(recordType: "note", recordId: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number)) ?? UUID(),
                   changeTag: "\(number)", deleted: deleted, fields: deleted ? [:] : ["title": .string("Note \(number)")])
    }

    static func page(_ records: [SyncRecord], token: String, more: Bool = false) -> Result<ChangesResponse, SyncError> {
        .success(ChangesResponse(records: records, token: token, moreComing: more))
    }

    @Test("a pull that would delete 60 of 100 notes stops before applying anything")
    func massDeletionStops() async throws {
        let held = Set((1...100).map { Self.note($0).recordId })
        let store = SyncStoreDouble(notes: held, token: "t0")
        let transport = ScriptedTransport([Self.page((1...60).map { Self.note($0, deleted: true) }, token: "t1")])
        let engine = SyncEngine(syncStore: store, transport: transport)
        await #expect(throws: SyncError.massDeletion(count: 60)) { try await engine.sync() }
        #expect(store.calls.contains("stage") && !store.calls.contains("applyStaged"))
        #expect(store.state.withLock { $0.notes.count } == 100)
    }

    @Test("allowed, the same pull applies the deletions")
    func massDeletionAllowed() async throws {
        let held = Set((1...100).map { Self.note($0).recordId })
        let store = SyncStoreDouble(notes: held, token: "t0")
        let transport = ScriptedTransport([Self.page((1...60).map { Self.note($0, deleted: true) }, token: "t1")])
        let engine = SyncEngine(syncStore: store, transport: transport, options: .init(allowMassDeletion: true))
        let report = try await engine.sync()
        #expect(report.pulled == 60 && store.state.withLock { $0.notes.count } == 40)
    }

    @Test("a first sync applies pages as they arrive, and stages from the first that deletes a note here")
    func firstSyncStagesFromADeletion() async throws {
        let store = SyncStoreDouble()
        let transport = ScriptedTransport([
            Self.page([Self.note(1), Self.note(2)], token: "p1", more: true),
            Self.page([Self.note(1, deleted: true), Self.note(3)], token: "p2", more: true),
            Self.page([Self.note(4)], token: "p3"),
        ])
        let report = try await SyncEngine(syncStore: store, transport: transport).sync()
        #expect(store.calls.filter { ["applyPage", "stage", "applyStaged"].contains($0) } == ["applyPage", "stage", "stage", "applyStaged"])
        #expect(report.pulled == 5)
        #expect(store.state.withLock { $0.notes } == Set([2, 3, 4].map { Self.note($0).recordId }))
        // A first pull says it relies on no deletion the server may have purged.
        #expect(transport.queries.first?.listing == true)
    }

    @Test("a token the server no longer honours: the pull starts over once, from nothing, listing")
    func resyncStartsOver() async throws {
        let store = SyncStoreDouble(notes: [Self.note(1).recordId], token: "stale")
        let transport = ScriptedTransport([.failure(.resyncRequired), Self.page([Self.note(2)], token: "t1")])
        _ = try await SyncEngine(syncStore: store, transport: transport).sync()
        #expect(store.calls.filter { $0 == "resetChangeToken" }.count == 1)
        #expect(transport.queries.map(\.since) == ["stale", nil])
        #expect(transport.queries[1].listing)
    }

    @Test("a second refusal of the token in one pull stops it instead of looping")
    func resyncOnce() async throws {
        let store = SyncStoreDouble(token: "stale")
        let transport = ScriptedTransport([.failure(.resyncRequired), .failure(.resyncRequired)])
        await #expect(throws: SyncError.resyncRequired) { try await SyncEngine(syncStore: store, transport: transport).sync() }
        #expect(store.calls.filter { $0 == "resetChangeToken" }.count == 1)
    }

    @Test("a restored server: everything here goes up again, the pull heals with this device winning, the report says so")
    func restoredServerHeals() async throws {
        let store = SyncStoreDouble(notes: [Self.note(1).recordId], token: "t9")
        // The change token is refused too: the catch-up before the heal is refused in turn.
        let transport = ScriptedTransport([.failure(.serverRestored), .failure(.serverRestored), Self.page([Self.note(1)], token: "t1")])
        let engine = SyncEngine(syncStore: store, transport: transport, options: .init(policy: .serverWins))
        let report = try await engine.sync()
        #expect(report.serverRestored)
        #expect(store.calls.contains("adoptRestoredServer") && store.calls.contains("finishRestoredServerHeal"))
        // Every merge of the heal takes this device's side, whatever the options say.
        let policies = store.state.withLock { $0.policies }
        guard case .localWins? = policies.first else {
            Issue.record("the heal merged with \(String(describing: policies.first)), not this device's side")
            return
        }
        #expect(!store.healsRestoredServer())
    }

    @Test("a restored server that holds this device's change token: the pull catches up from it as usual, then heals")
    func restoredServerCatchesUpFirst() async throws {
        let store = SyncStoreDouble(notes: [Self.note(1).recordId], token: "t9")
        let transport = ScriptedTransport([
            .failure(.serverRestored), Self.page([Self.note(2)], token: "t10"), Self.page([Self.note(1), Self.note(2)], token: "t11"),
        ])
        let engine = SyncEngine(syncStore: store, transport: transport, options: .init(policy: .serverWins))
        let report = try await engine.sync()
        #expect(report.serverRestored)
        #expect(store.calls.filter { ["catchUpBeforeHeal", "adoptRestoredServer", "finishRestoredServerHeal"].contains($0) }
            == ["catchUpBeforeHeal", "adoptRestoredServer", "finishRestoredServerHeal"])
        // The catch-up merged as any pull does; the heal with this device's side winning.
        let policies = store.state.withLock { $0.policies.map { "\($0)" } }
        #expect(policies.first == "\(MergePolicy.serverWins)" && policies.last == "\(MergePolicy.localWins)")
        #expect(!store.catchesUpBeforeHeal() && !store.healsRestoredServer())
    }
}
