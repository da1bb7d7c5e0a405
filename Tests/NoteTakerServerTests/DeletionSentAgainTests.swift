import Foundation
import HummingbirdTesting
import NoteTakerServerTestSupport
@testable import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// A deletion a device sends again to heal a server restored from an older copy names the
/// change it had before the restore (``RecordChange/sentAgainFrom``); the tombstone keeps it
/// (``SyncRecord/sentAgainFrom``) for the devices that send the record again from a version of
/// that same history, which compare with it.
@Suite("Deletions sent again to a restored server")
struct DeletionSentAgainTests {
    /// Note X saved by a device (change 1), and that device's deletion of it sent again from
    /// change `from`, against no version (it made the record's last edit, so it applies).
    private func deletedAgain(_ client: some TestClientProtocol, _ session: String, from: String?) async throws -> (x: UUID, result: RecordResult) {
        let (x, device) = (UUID(), UUID())
        _ = try await client.modify(session, [noteSave(x, title: "X")], deviceId: device)
        var deletion = RecordChange(recordType: "note", recordId: x, operation: .delete, baseChangeTag: nil, fields: nil)
        deletion.sentAgainFrom = from
        return (x, try await client.modify(session, [deletion], deviceId: device).results[0])
    }

    @Test("the tombstone of a deletion sent again keeps the change it had before the restore, in changes and in the answer to a save against it")
    func tombstoneKeepsItsChange() async throws {
        try await TestServer().test { client in
            let session = try await client.register("ada")
            let (x, deleted) = try await deletedAgain(client, session, from: "7")
            #expect(deleted.outcome == .saved && deleted.changeTag == "2", "\(deleted)")
            let tombstone = try await client.changes(session).records.first { $0.recordId == x }
            #expect(tombstone?.deleted == true && tombstone?.changeTag == "2" && tombstone?.sentAgainFrom == "7", "\(String(describing: tombstone))")

            var healed = noteSave(x, title: "X, edited after the deletion")
            healed.sentAgainFrom = "9"
            let answer = try await client.modify(session, [healed]).results[0]
            #expect(answer.outcome == .serverRecordChanged, "the device decides, comparing 9 with 7")
            #expect(answer.serverRecord?.deleted == true && answer.serverRecord?.sentAgainFrom == "7", "\(answer)")

            // Saved again over the tombstone, the record keeps nothing of it.
            let revived = try await client.modify(session, [noteSave(x, title: "X, back", base: "2")]).results[0]
            #expect(revived.outcome == .saved)
            #expect(try await client.changes(session).records.first { $0.recordId == x }?.sentAgainFrom == nil)
        }
    }

    @Test("a deletion not sent again, or naming no change tag, keeps no change", arguments: [nil, "not a change tag", "0", "-3"])
    func ordinaryDeletionKeepsNone(_ from: String?) async throws {
        try await TestServer().test { client in
            let session = try await client.register("ada")
            let (x, deleted) = try await deletedAgain(client, session, from: from)
            #expect(deleted.outcome == .saved)
            let tombstone = try await client.changes(session).records.first { $0.recordId == x }
            #expect(tombstone?.deleted == true && tombstone?.sentAgainFrom == nil)
        }
    }

    @Test("moving a server from SQLite to PostgreSQL (migrate-data) keeps the change a deletion sent again had", .enabled(if: TestStorage.usesPostgres))
    func keptByTheMove() async throws {
        try await TestServer.movedToPostgres { _, client in
            let session = try await client.register("ada")
            return (session, try await deletedAgain(client, session, from: "7").x)
        } after: { client, made in
            let tombstone = try await client.changes(made.0).records.first { $0.recordId == made.1 }
            #expect(tombstone?.sentAgainFrom == "7")
        }
    }
}
