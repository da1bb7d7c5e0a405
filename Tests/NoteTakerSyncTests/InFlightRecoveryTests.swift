import Foundation
import GRDB
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// A batch kept in flight is sent again after a stop exactly as it was first sent, whatever
/// happened to its records since: the server may have applied it already, and the fields it
/// holds are the base of those records.
@Suite("Batches kept in flight, after a stop")
struct InFlightRecoveryTests {
    @Test(arguments: [false, true])
    func aNoteEditedAfterItsBatchWasKeptGoesUpAgainAgainstWhatWasSent(sentBeforeTheStop: Bool) async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            let edited = try store.createNote(NoteDraft(title: "Edited", body: "first words"))
            _ = try store.createNote(NoteDraft(title: "Untouched", body: "still the same"))
            let (transport, batch) = try await keepBatch(of: store, server, token, sent: sentBeforeTheStop)
            _ = try store.updateNote(id: edited.id, body: "second words")

            let loaded = try #require(try store.inflightBatches().first)
            #expect(loaded.request == batch.request)
            let answer = try await transport.modify(loaded.request, fieldsJSON: loaded.fieldsJSON)
            _ = try store.finishPush(loaded, response: answer, policy: .localWins)
            // The edited note's base is what was sent, and it goes up again; the untouched one
            // is in sync as stored.
            let rows = try store.read { db in try Row.fetchAll(db, sql: "SELECT syncBase, syncStatus FROM note ORDER BY title") }
            let base = try RecordFields(wireJSON: try #require(rows[0]["syncBase"] as String?).utf8)
            #expect(base["body"] == .string("first words"))
            #expect(rows.map { $0["syncStatus"] as String } == ["pending", "synced"])
            #expect(rows[1]["syncBase"] == SyncBase.asStored)

            try await expectEverythingGoesUp(store, with: SyncEngine(store: store, transport: transport), server, token, titles: ["Edited", "Untouched"])
            let other = try Device("reader", server: server, token: token)
            try await other.sync()
            #expect(try other.note(titled: "Edited").body == "second words")
        }
    }

    /// The server applied the first words before the stop; the second were written after.
    /// Were the second words taken as the base, a later edit elsewhere would replace them
    /// without a trace; against the first words, the two edits merge.
    @Test func anEditMadeAfterTheBatchWasKeptSurvivesALaterEditElsewhere() async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            let edited = try store.createNote(NoteDraft(title: "Edited", body: "first words\nthe middle\nthe last line"))
            let (transport, _) = try await keepBatch(of: store, server, token, sent: true)
            _ = try store.updateNote(id: edited.id, body: "ours first\nthe middle\nthe last line")
            let loaded = try #require(try store.inflightBatches().first)
            _ = try store.finishPush(loaded, response: try await transport.modify(loaded.request, fieldsJSON: loaded.fieldsJSON),
                                     policy: .localWins)

            let other = try Device("other", server: server, token: token)
            try await other.sync()
            _ = try other.store.updateNote(id: edited.id, body: "first words\nthe middle\nthe last line, theirs")
            try await other.sync()
            try await SyncEngine(store: store, transport: transport).sync()
            try await other.sync()
            for device in [store, other.store] {
                let bodies = try device.notes(NoteQuery(limit: 10)).map(\.body)
                #expect(bodies == ["ours first\nthe middle\nthe last line, theirs"])
            }
        }
    }

    @Test(arguments: [false, true])
    func aNoteDeletedAfterItsBatchWasKeptIsDeletedEverywhere(sentBeforeTheStop: Bool) async throws {
        try await withLiveServer { server, token in
            let store = try NoteStore.inMemory()
            let deleted = try store.createNote(NoteDraft(title: "Deleted", body: "gone soon"))
            _ = try store.createNote(NoteDraft(title: "Kept", body: "stays"))
            let (transport, batch) = try await keepBatch(of: store, server, token, sent: sentBeforeTheStop)
            _ = try store.trashNotes(ids: [deleted.id])
            _ = try store.purgeNotes(ids: [deleted.id])

            let loaded = try #require(try store.inflightBatches().first)
            #expect(loaded.request == batch.request)
            let answer = try await transport.modify(loaded.request, fieldsJSON: loaded.fieldsJSON)
            _ = try store.finishPush(loaded, response: answer, policy: .localWins)
            // The deletion waits to go up against the version the save made.
            let index = try #require(loaded.request.changes.firstIndex { $0.recordId == deleted.id })
            let tag = try store.read { db in
                try String.fetchOne(db, sql: "SELECT changeTag FROM sync_deleted WHERE recordId = ?", arguments: [deleted.id.key])
            }
            #expect(tag != nil && tag == answer.results[index].changeTag)

            try await expectEverythingGoesUp(store, with: SyncEngine(store: store, transport: transport), server, token, titles: ["Kept"])
        }
    }
}

/// Reads the first batch of `store`'s outbox and keeps it in flight, as a push does; `sent`:
/// the server received it too (and its answer was lost with the process that sent it).
private func keepBatch(
    of store: NoteStore, _ server: LiveServer, _ token: String, sent: Bool
) async throws -> (HTTPSyncTransport, PushBatch) {
    let transport = try HTTPSyncTransport(server: server.url, token: token)
    _ = try store.adoptServer(try await transport.health().serverId)
    let batch = try #require(try store.nextPushBatch(after: 0, limit: 10).0)
    try store.beginPush(batch)
    if sent { _ = try await transport.modify(batch.request, fieldsJSON: batch.fieldsJSON) }
    return (transport, batch)
}
