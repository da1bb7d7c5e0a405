import Foundation
import GRDB
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerKit

/// The answer to a batch the server saved whole is applied a batch at a time; what changed
/// here while the batch was in flight keeps the record-by-record outcome.
@Suite("Answers applied a batch at a time")
struct SavedBatchTests {
    @Test("unchanged rows are synced, an edited one stays pending with the sent base, a deleted one sends its deletion")
    func changesMadeInFlight() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Work")
            let kept = try a.store.createNote(NoteDraft(title: "Kept", body: "as sent", folderId: folder.id, tags: ["plan"]))
            let edited = try a.store.createNote(NoteDraft(title: "Edited", body: "sent"))
            let deleted = try a.store.createNote(NoteDraft(title: "Deleted", body: "sent"))

            let batch = try #require(try a.store.nextPushBatch(after: 0, limit: 100).0)
            #expect(batch.request.changes.count == 5)
            let begun = try a.store.beginPush(batch)
            let answer = try await a.transport.modify(begun.request)
            _ = try a.store.updateNote(id: edited.id, body: "edited in flight")
            _ = try a.store.trashNotes(ids: [deleted.id])
            _ = try a.store.purgeNotes(ids: [deleted.id])
            let applied = try a.store.finishPush(begun, response: answer, policy: .localWins)
            #expect(applied.pushed == 5)

            let rows = try a.store.read { db in
                try Row.fetchAll(db, sql: "SELECT id, syncStatus, syncBase, changeTag FROM note ORDER BY title")
            }
            let byId = Dictionary(uniqueKeysWithValues: rows.map { (($0["id"] as String), $0) })
            #expect(byId[kept.id.key]?["syncStatus"] == "synced")
            #expect(byId[kept.id.key]?["syncBase"] == SyncBase.asStored)
            #expect(byId[edited.id.key]?["syncStatus"] == "pending")
            let editedBase = try #require(byId[edited.id.key]?["syncBase"] as String?)
            #expect(try RecordFields(wireJSON: editedBase.utf8)["body"] == .string("sent"))
            #expect(try a.store.read { db in
                try String.fetchOne(db, sql: "SELECT changeTag FROM sync_deleted WHERE recordId = ?", arguments: [deleted.id.key])
            } == answer.results[batch.request.changes.firstIndex { $0.recordId == deleted.id }!].changeTag)
            #expect(Set(try a.store.pendingChanges().map(\.recordId)) == [edited.id, deleted.id])
            #expect(try a.store.folder(id: folder.id).sync.status == .synced)

            try await a.sync()
            try await b.sync()
            #expect(try b.titles() == ["Edited", "Kept"])
            #expect(try b.note(titled: "Edited").body == "edited in flight")
            #expect(try b.note(titled: "Kept").tags == ["plan"])
            #expect(try a.store.pendingChanges().isEmpty)
        }
    }
}
