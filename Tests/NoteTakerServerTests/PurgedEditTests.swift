import Foundation
import HummingbirdTesting
import NoteTakerServerTestSupport
@testable import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// A person's edit of a version from before a deletion whose tombstone the server purged
/// (a device away through the purge): answered with the deletion as it was, its sealed
/// envelope kept, so the device learns the deletion's revision before it brings the record
/// back above it (docs/encryption.md §3.3); sent again against the deletion, it is applied.
@Suite("Edits of records whose deletion was purged")
struct PurgedEditTests {
    /// A sealed deletion's envelope, as a device sends it (the server stores it as it comes).
    private static let envelope: RecordFields = [
        "$enc": .number(1), "$zone": .string("private"), "$key": .number(1), "$salt": .string("c2FsdA"), "$sealed": .string("c2VhbGVk"),
    ]

    /// Note X saved by a device (change 1) and deleted, its deletion carrying `fields` (change
    /// 2), and the tombstone purged.
    private func purgedDeletion(_ server: TestServer, _ client: some TestClientProtocol, _ session: String, fields: RecordFields?) async throws -> UUID {
        let x = UUID()
        _ = try await client.modify(session, [noteSave(x, title: "X")])
        let deletion = RecordChange(recordType: "note", recordId: x, operation: .delete, baseChangeTag: "1", fields: fields)
        #expect(try await client.modify(session, [deletion]).results[0].outcome == .saved)
        _ = try await client.changes(session)
        #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
        return x
    }

    @Test("an edit from before a purged deletion is answered with the deletion and its envelope; sent again against it, it is applied",
          arguments: [nil, envelope])
    func answeredThenApplied(_ fields: RecordFields?) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let session = try await client.register("ada")
            let x = try await purgedDeletion(server, client, session, fields: fields)
            let edit = noteSave(x, title: "X, edited while away", base: "1")
            let answer = try await client.modify(session, [edit]).results[0]
            #expect(answer.outcome == .serverRecordChanged, "\(answer)")
            #expect(answer.serverRecord?.deleted == true && answer.serverRecord?.changeTag == "2")
            #expect(answer.serverRecord?.fields == fields ?? [:], "the deletion as it was, its sealed revision with it")
            #expect(try await client.changes(session).records.isEmpty, "nothing written")

            let again = noteSave(x, title: "X, edited while away", base: "2")
            #expect(try await client.modify(session, [again]).results[0].outcome == .saved)
            #expect(try await client.changes(session).records.map(\.recordId) == [x])
        }
    }

    @Test("a save against no version of a record whose deletion was purged makes it again: only an edit from before the deletion is answered with it")
    func onlyAnEditFromBefore() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let session = try await client.register("ada")
            let x = try await purgedDeletion(server, client, session, fields: nil)
            // A save against no version makes the record (a tag made again, a note a device made).
            #expect(try await client.modify(session, [noteSave(x, title: "X, made again")]).results[0].outcome == .saved)
        }
    }

    @Test("moving a server from SQLite to PostgreSQL (migrate-data) keeps a purged deletion's envelope", .enabled(if: TestStorage.usesPostgres))
    func envelopeMoved() async throws {
        try await TestServer.movedToPostgres { sqlite, client in
            let session = try await client.register("ada")
            return (session, try await purgedDeletion(sqlite, client, session, fields: Self.envelope))
        } after: { client, made in
            let answer = try await client.modify(made.0, [noteSave(made.1, title: "X, edited while away", base: "1")]).results[0]
            #expect(answer.serverRecord?.fields == Self.envelope, "\(answer)")
        }
    }
}
