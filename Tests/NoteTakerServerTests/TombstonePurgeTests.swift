import Foundation
import HummingbirdTesting
import NoteTakerServerTestSupport
@testable import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// Tombstones are purged once older than the retention and fetched past by every live
/// session; a fetch from before a purge is refused, so no device misses a deletion.
@Suite("Tombstones purged once every device has them")
struct TombstonePurgeTests {
    /// A moment just after now: with a retention of 0, every tombstone made so far is old enough.
    private var moment: Date { Date().addingTimeInterval(1) }

    /// Notes X and Y saved (changes 1, 2), then X deleted (change 3): the tokens after each
    /// batch, X's id, and the account.
    private func deletedNote(
        _ server: TestServer, _ client: some TestClientProtocol, _ session: String
    ) async throws -> (beforeDeletion: String, afterDeletion: String, x: UUID, account: StoredAccount) {
        let x = UUID()
        let saved = try await client.modify(session, [noteSave(x, title: "X"), noteSave(title: "Y")])
        let beforeDeletion = try await client.changes(session).token
        let deletion = RecordChange(recordType: "note", recordId: x, operation: .delete, baseChangeTag: saved.results[0].changeTag, fields: nil)
        _ = try await client.modify(session, [deletion])
        let afterDeletion = try await client.changes(session, since: beforeDeletion).token
        return (beforeDeletion, afterDeletion, x, try await server.service.authenticate(token: session))
    }

    /// A server that keeps tombstones no time, an account with `count` sessions and X deleted
    /// (see `deletedNote`), the first session having fetched past the deletion.
    private func withDeletion(
        sessions count: Int = 1,
        _ body: @Sendable (TestServer, any TestClientProtocol, [String], (beforeDeletion: String, afterDeletion: String, x: UUID, account: StoredAccount)) async throws -> Void
    ) async throws {
        let server = try await TestServer(tombstoneRetention: TombstoneRetention(seconds: 0))
        try await server.test { client in
            var sessions = [try await client.register("ada")]
            for _ in 1..<count { sessions.append(try await login(client)) }
            let made = try await deletedNote(server, client, sessions[0])
            _ = try await client.changes(sessions[0], since: made.afterDeletion)
            try await body(server, client, sessions, made)
        }
    }

    private func login(_ client: some TestClientProtocol, _ username: String = "ada") async throws -> String {
        let response = try await client.send(.post, "/v1/sessions", json: Credentials(username: username, password: "correct horse"))
        return try response.decode(SessionResponse.self).token
    }

    @Test("a tombstone stays until every live session has fetched past it, then goes with the bytes it counted")
    func waitsForEverySession() async throws {
        try await withDeletion(sessions: 2) { server, client, sessions, made in
            // The first device has fetched from after the deletion; the second only from scratch.
            _ = try await client.changes(sessions[1])
            let before = try await server.service.status(of: made.account).usedBytes
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 0, "the second device has not fetched past it")

            _ = try await client.changes(sessions[1], since: made.afterDeletion)
            let purged = try await server.service.purgeTombstones(now: moment)
            #expect(purged.tombstones == 1 && purged.accounts == 1)
            // The tombstone counted {} and its row's 200 bytes; the answers kept stay (see
            // `batchSentAgainAfterAPurge`).
            #expect(try await server.service.status(of: made.account).usedBytes == before - 202)
            let everything = try await client.changes(sessions[0])
            #expect(everything.records.map(\.recordId).contains(made.x) == false)
            #expect(everything.records.count == 1)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 0, "nothing is purged twice")
        }
    }

    @Test("a batch sent again after a purge is answered with the deletion it missed: neither saved as before nor made again")
    func batchSentAgainAfterAPurge() async throws {
        let server = try await TestServer(tombstoneRetention: TombstoneRetention(seconds: 0))
        try await server.test { client in
            let session = try await client.register("ada")
            let (request, x, y, z) = (UUID(), UUID(), UUID(), UUID())
            // One device saves X and Y and never hears the answer; another deletes X; months
            // later the tombstone is purged. Z, refused in that batch, was deleted and purged too.
            let first = try await client.modify(session, [noteSave(z, title: "Z")])
            let saved = try await client.modify(session, [noteSave(x, title: "X"), noteSave(y, title: "Y"), noteSave(z, title: "Z again")], requestId: request)
            #expect(saved.results.map(\.outcome) == [.saved, .saved, .serverRecordChanged])
            let deletions = [(x, saved.results[0].changeTag), (z, first.results[0].changeTag)].map {
                RecordChange(recordType: "note", recordId: $0, operation: .delete, baseChangeTag: $1, fields: nil)
            }
            let deleted = try await client.modify(session, deletions).results.compactMap { $0.changeTag }
            // A fetch records where it asked from: the second one is past the deletions.
            _ = try await client.changes(session, since: try await client.changes(session).token)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 2)
            // The first device sends its batch again. Answered "saved" from before, it would keep
            // an X the server no longer holds, for good; decided anew, it would make X again over
            // a deletion made after it. It is told of the deletion instead; Y is saved as before.
            let again = try await client.modify(session, [noteSave(x, title: "X"), noteSave(y, title: "Y"), noteSave(z, title: "Z again")], requestId: request)
            #expect(again.results[1].outcome == .saved && again.results[1].changeTag == saved.results[1].changeTag)
            for (result, id) in [(again.results[0], x), (again.results[2], z)] {
                #expect(result.outcome == .serverRecordChanged)
                #expect(result.serverRecord?.recordId == id && result.serverRecord?.deleted == true)
                #expect(result.serverRecord?.changeTag == deleted.last, "at the newest tombstone purged")
            }
            #expect(try await client.changes(session).records.map(\.recordId) == [y])
        }
    }

    @Test("a batch sent again after its answer was forgotten and its record's deletion purged is answered with the deletion: the server keeps a mark of the batches it applied")
    func batchSentAgainAfterItsAnswerWasForgotten() async throws {
        let server = try await TestServer(tombstoneRetention: TombstoneRetention(seconds: 0))
        try await server.test { client in
            let session = try await client.register("ada")
            let (request, x) = (UUID(), UUID())
            let saved = try await client.modify(session, [noteSave(x, title: "X")], requestId: request)
            let deletion = RecordChange(recordType: "note", recordId: x, operation: .delete, baseChangeTag: saved.results[0].changeTag, fields: nil)
            _ = try await client.modify(session, [deletion])
            // 1,000 batches later, the first one's answer is no longer kept.
            let filler = UUID()
            var tag = try await client.modify(session, [noteSave(filler, title: "0")]).results[0].changeTag
            for round in 1..<BatchPlan.storedAnswers {
                tag = try await client.modify(session, [noteSave(filler, title: "\(round)", base: tag)]).results[0].changeTag
            }
            _ = try await client.changes(session, since: try await client.changes(session).token)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            let again = try await client.modify(session, [noteSave(x, title: "X")], requestId: request)
            #expect(again.results[0].outcome == .serverRecordChanged)
            #expect(again.results[0].serverRecord?.deleted == true)
            #expect(!(try await client.changes(session).records.map(\.recordId).contains(x)), "X was made again")
            // A new batch saving a record of that id, never applied before, makes it.
            let made = try await client.modify(session, [noteSave(x, title: "X anew")])
            #expect(made.results[0].outcome == .saved)
        }
    }

    @Test("no tombstone goes before the retention's days, however far devices fetched; a session unused past its life holds none back")
    func keptForTheRetention() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let session = try await client.register("ada")
            let made = try await deletedNote(server, client, session)
            _ = try await client.changes(session, since: made.afterDeletion)
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(89 * 86_400)).tombstones == 0)
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
        }
        let idle = try await TestServer(tombstoneRetention: TombstoneRetention(seconds: 0))
        try await idle.test { client in
            let session = try await client.register("ada")
            _ = try await deletedNote(idle, client, session)
            // The session never fetched past the deletion, but 61 days unused it has ended.
            #expect(try await idle.service.purgeTombstones(now: moment).tombstones == 0)
            #expect(try await idle.service.purgeTombstones(now: Date().addingTimeInterval(61 * 86_400)).tombstones == 1)
        }
    }

    @Test("a session logged out holds nothing back")
    func loggedOutSessions() async throws {
        try await withDeletion(sessions: 2) { server, client, sessions, _ async throws in
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 0)
            #expect(try await client.send(.delete, "/v1/sessions/current", token: sessions[1]).status == .noContent)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
        }
    }

    @Test("a fetch from before a purge answers 410 tombstonesPurged; from after it, or from scratch, it answers")
    func staleTokensRefused() async throws {
        try await withDeletion { server, client, sessions, made in
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            let stale = try await client.send(.get, "/v1/changes?since=\(made.beforeDeletion)", token: sessions[0])
            #expect(stale.status == .gone)
            let body = try stale.decode(APIErrorBody.self)
            #expect(body.error == .tombstonesPurged)
            #expect(body.message.contains("Fetch all changes again"))
            #expect(try await client.changes(sessions[0], since: made.afterDeletion).records.isEmpty)
            #expect(try await client.changes(sessions[0]).records.count == 1)
        }
    }

    /// Restoring seed 2816 of the simulation: a device kept the token of a fetch that found
    /// the account empty, sent a note, and missed the note's deletion, purged meanwhile.
    @Test("a fetch from a token taken when the account was empty answers 410 once anything was purged")
    func tokenOfAnEmptyAccountRefused() async throws {
        let server = try await TestServer(tombstoneRetention: TombstoneRetention(seconds: 0))
        try await server.test { client in
            let session = try await client.register("ada")
            let empty = try await client.changes(session).token
            #expect(try await client.send(.get, "/v1/changes?since=\(empty)", token: session).status == .ok)
            let made = try await deletedNote(server, client, session)
            _ = try await client.changes(session, since: made.afterDeletion)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            let stale = try await client.send(.get, "/v1/changes?since=\(empty)", token: session)
            #expect(stale.status == .gone)
            #expect(try stale.decode(APIErrorBody.self).error == .tombstonesPurged)
        }
    }

    @Test("a fetch from scratch holding a version from before a purged deletion answers 410; holding a later one, or none, it answers")
    func fetchFromScratchHoldingOldVersions() async throws {
        try await withDeletion { server, client, sessions, _ in
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            // X was saved at change 1 and deleted at change 3, which the purge took.
            let holdingX = try await client.send(.get, "/v1/changes?holding=1", token: sessions[0])
            #expect(holdingX.status == .gone)
            #expect(try holdingX.decode(APIErrorBody.self).error == .tombstonesPurged)
            #expect(try await client.send(.get, "/v1/changes?holding=3", token: sessions[0]).status == .ok)
            #expect(try await client.send(.get, "/v1/changes", token: sessions[0]).status == .ok)
            for bad in ["x", "-1", "1.5", "", "1234567890123456789"] {
                let refused = try await client.send(.get, "/v1/changes?holding=\(bad)", token: sessions[0])
                #expect(refused.status == .badRequest, "holding=\(bad)")
                #expect(try refused.decode(APIErrorBody.self).message.contains("holding must be a change tag"))
            }
        }
    }

    @Test("a purged record comes back with a save based on its tombstone (an edit outranks a deletion), or a new tombstone with a deletion")
    func purgedRecordsWritten() async throws {
        try await withDeletion { server, client, sessions, made in
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            // A save the software made on its own (a re-seal), of the version before the
            // deletion, yields to it as it would to the tombstone: answered with a deletion.
            var derived = noteSave(made.x, title: "X, sealed anew", base: "1")
            derived.derived = true
            derived.baseLive = true
            let yielded = try await client.modify(sessions[0], [derived]).results[0]
            #expect(yielded.outcome == .serverRecordChanged && yielded.serverRecord?.deleted == true, "\(yielded)")
            #expect(try await client.changes(sessions[0], since: made.afterDeletion).records.isEmpty, "the derived save wrote nothing")
            // An edit of the version before is answered with the deletion (PurgedEditTests);
            // based on the deletion, it brings the record back.
            let edit = try await client.modify(sessions[0], [noteSave(made.x, title: "X, edited offline", base: "3")])
            #expect(edit.results[0].outcome == .saved)
            let back = try await client.changes(sessions[0], since: made.afterDeletion)
            #expect(back.records.map(\.recordId) == [made.x])
            let deletion = RecordChange(recordType: "note", recordId: UUID(), operation: .delete, baseChangeTag: "2", fields: nil)
            #expect(try await client.modify(sessions[0], [deletion]).results[0].outcome == .saved)
        }
    }

    @Test("a save sent again to heal a restored server, unchanged since a version before a purged deletion, is answered with the deletion")
    func healYieldsToPurgedDeletion() async throws {
        try await withDeletion { server, client, sessions, made in
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            var healed = noteSave(made.x, title: "X")
            healed.sentAgainFrom = "1"
            let yielded = try await client.modify(sessions[0], [healed]).results[0]
            #expect(yielded.outcome == .serverRecordChanged, "\(yielded)")
            #expect(yielded.serverRecord?.deleted == true && yielded.serverRecord?.changeTag == "3", "the deletion it missed, at its change")
            #expect(try await client.changes(sessions[0], since: made.afterDeletion).records.isEmpty, "nothing written")
            // A record the server never deleted is made, whatever version the device held
            // (the copy the server was restored from lost it).
            var lost = noteSave(UUID(), title: "Made after the copy")
            lost.sentAgainFrom = "1"
            #expect(try await client.modify(sessions[0], [lost]).results[0].outcome == .saved)
            // A value that is not a change tag says nothing: the save is applied, as any.
            healed.sentAgainFrom = "not a change tag"
            #expect(try await client.modify(sessions[0], [healed]).results[0].outcome == .saved)
        }
    }

    @Test("moving a server from SQLite to PostgreSQL (migrate-data) keeps the deletions it purged", .enabled(if: TestStorage.usesPostgres))
    func purgedRecordsMoved() async throws {
        try await TestServer.movedToPostgres { sqlite, client in
            let session = try await client.register("ada")
            let x = UUID()
            let saved = try await client.modify(session, [noteSave(x, title: "X")])
            let deletion = RecordChange(recordType: "note", recordId: x, operation: .delete, baseChangeTag: saved.results[0].changeTag, fields: nil)
            _ = try await client.modify(session, [deletion])
            #expect(try await sqlite.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
            return (session, x)
        } after: { client, made in
            var healed = noteSave(made.1, title: "X")
            healed.sentAgainFrom = "1"
            let yielded = try await client.modify(made.0, [healed]).results[0]
            #expect(yielded.outcome == .serverRecordChanged && yielded.serverRecord?.changeTag == "2", "\(yielded)")
        }
    }

    @Test("a pull that began with no token goes on page by page past a purge when it says it is a listing")
    func listingsPageOn() async throws {
        try await withDeletion { server, client, sessions, made in
            _ = try await client.modify(sessions[0], [noteSave(title: "Z")])
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            let first = try await client.send(.get, "/v1/changes?limit=1", token: sessions[0])
            let page = try first.decode(ChangesResponse.self)
            #expect(page.moreComing)
            let since = page.token.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? page.token
            let ordinary = try await client.send(.get, "/v1/changes?limit=1&since=\(since)", token: sessions[0])
            #expect(ordinary.errorCode == .tombstonesPurged, "an ordinary fetch from there may have missed the deletion")
            let listing = try await client.send(.get, "/v1/changes?limit=1000&listing=true&since=\(since)", token: sessions[0])
            #expect(listing.status == .ok)
            let rest = try listing.decode(ChangesResponse.self)
            #expect(rest.records.count == 1 && !rest.moreComing)
            #expect(!rest.records.contains { $0.recordId == made.x })
            let malformed = try await client.send(.get, "/v1/changes?listing=yes", token: sessions[0])
            #expect(malformed.status == .badRequest)
        }
    }

    /// Converting seed 3,002,257 of the simulation: a tag the converting device deleted under its
    /// keyed id had its tombstone purged; a device taking the conversion up then sent the tag
    /// under that id (as it sends every tag it held under the old one), and it came back.
    @Test("an encrypted account whose conversion is not finished (a tag under its unkeyed id left) keeps its tombstones until it is")
    func conversionUnderWayKeepsTombstones() async throws {
        let server = try await TestServer(tombstoneRetention: TombstoneRetention(seconds: 0))
        try await server.test { client in
            let token = try await client.register("ada")
            let (plainTag, keyedTag) = (UUID(uuidString: "3f2a8c1e-5b7d-5e21-9a0b-1c2d3e4f5a6b")!, UUID(uuidString: "3f2a8c1e-5b7d-8e21-9a0b-1c2d3e4f5a6b")!)
            _ = try await client.modify(token, [RecordChange(recordType: "tag", recordId: plainTag, operation: .save, baseChangeTag: nil,
                                                             fields: ["name": .string("Work")])])
            let change = PasswordChange(currentPassword: "correct horse", newPassword: "a login secret", keys: AccountKeysTests.keys())
            #expect(try await client.send(.put, "/v1/accounts/current/password", token: token, json: change).status == .noContent)
            let saved = try await client.modify(token, [RecordChange(recordType: "tag", recordId: keyedTag, operation: .save, baseChangeTag: nil,
                                                                     fields: ResealingTests.envelope(key: 1, "work"))])
            _ = try await client.modify(token, [RecordChange(recordType: "tag", recordId: keyedTag, operation: .delete,
                                                             baseChangeTag: saved.results[0].changeTag, fields: nil)])
            _ = try await client.changes(token, since: try await client.changes(token).token)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 0, "the conversion is under way")
            #expect(try await client.changes(token).records.contains { $0.recordId == keyedTag && $0.deleted })

            // Its last step deletes the tag under its unkeyed id: the tombstone goes at the next purge.
            #expect(try await client.send(.delete, "/v1/accounts/current/plaintext", token: token).status == .ok)
            _ = try await client.changes(token, since: try await client.changes(token).token)
            #expect(try await server.service.purgeTombstones(now: moment).tombstones == 1)
            #expect(try await client.changes(token).records.isEmpty)
        }
    }
}
