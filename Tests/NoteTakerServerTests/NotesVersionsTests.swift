import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// The versions of many notes read at once (`POST /v1/versions`, `POST /v1/zones/{zone}/versions`),
/// as a device asks before notes move (docs/sharing.md §3.5): each note once, in the order
/// asked, only the account's (or the zone's), a full answer leaving the rest for another
/// request. On SQLite, and on PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Versions of many notes at once")
struct NotesVersionsTests {
    private static func ask(
        _ client: some TestClientProtocol, _ path: String, _ ids: [UUID], token: String
    ) async throws -> (status: HTTPResponse.Status, answer: VersionsOfNotes?) {
        let response = try await client.send(.post, path, token: token, json: VersionsQuery(recordIds: ids))
        return (response.status, response.status == .ok ? try response.decode(VersionsOfNotes.self) : nil)
    }

    @Test("a member reads the versions of a share's notes, each once and in order; an unknown note is left out; a stranger, an invitee and a long list are refused")
    func inAZone() async throws {
        try await TestServer().test { client in
            let (ada, bob, carol, erin) = (try await ShareParty("ada", client), try await ShareParty("bob", client),
                                           try await ShareParty("carol", client), try await ShareParty("erin", client))
            let zone = UUID()
            let (zoneId, path) = (zone.uuidString.lowercased(), "/v1/zones/\(zone.uuidString.lowercased())")
            let members = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.editor), carol.member(.viewer)]))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: members).status == .noContent)
            #expect(try await client.send(.put, path + "/membership", token: bob.token).status == .noContent)
            let (edited, untouched) = (UUID(), UUID())
            let saved = try await client.send(.post, path + "/records/modify", token: bob.token, json: ModifyRequest(
                requestId: UUID(), changes: [ShareParty.zoneSave(edited, zone: zoneId, by: "bob"), ShareParty.zoneSave(untouched, zone: zoneId, by: "bob")]))
            let tag = try #require(try saved.decode(ModifyResponse.self).results.first?.changeTag)
            #expect(try await client.send(.post, path + "/records/modify", token: bob.token, json: ModifyRequest(
                requestId: UUID(), changes: [ShareParty.zoneSave(edited, zone: zoneId, by: "bob", salt: "second", base: tag)])).status == .ok)

            let (status, answer) = try await Self.ask(client, path + "/versions", [untouched, UUID(), edited, untouched], token: bob.token)
            #expect(status == .ok)
            #expect(answer?.notes.map(\.recordId) == [untouched, edited], "each once, in order; the unknown note left out")
            #expect(answer?.notes.map(\.versions.count) == [0, 1])
            #expect(answer?.notes.last?.versions.first?.fields["$salt"] == .string("first"))
            #expect(answer?.unread == [])

            #expect(try await Self.ask(client, path + "/versions", [edited], token: carol.token).status == .forbidden, "invited, not accepted")
            #expect(try await Self.ask(client, path + "/versions", [edited], token: erin.token).status == .notFound)
            let tooMany = (0...VersionsQuery.maximumCount).map { _ in UUID() }
            #expect(try await Self.ask(client, path + "/versions", tooMany, token: bob.token).status == .badRequest)
            // The zone's notes are not the account's own.
            #expect(try await Self.ask(client, "/v1/versions", [edited], token: bob.token).answer?.notes.isEmpty == true)
        }
    }

    @Test("an account reads its own notes' versions, never another's; an answer past a page's bytes leaves the rest for another request")
    func ownNotes() async throws {
        try await TestServer().test { client in
            let (ada, erin) = (try await client.register("ada"), try await client.register("erin"))
            let (big, small) = (UUID(), UUID())
            // Nine versions of 950 kB each: more than a page's bytes.
            let body = String(repeating: "a long note ", count: 950_000 / 12)
            var base: String?
            for round in 0..<10 {
                let change = RecordChange(recordType: "note", recordId: big, operation: .save, baseChangeTag: base,
                                          fields: ["title": .string("Big \(round)"), "body": .string(body)])
                base = try #require(try await client.modify(ada, [change]).results.first?.changeTag)
            }
            let note = RecordChange(recordType: "note", recordId: small, operation: .save, baseChangeTag: nil, fields: ["title": .string("Small")])
            _ = try await client.modify(ada, [note])

            let first = try #require(try await Self.ask(client, "/v1/versions", [big, small], token: ada).answer)
            #expect(first.notes.map(\.recordId) == [big] && first.notes.first?.versions.count == 9)
            #expect(first.unread == [small], "left for another request")
            let second = try #require(try await Self.ask(client, "/v1/versions", first.unread, token: ada).answer)
            #expect(second.notes.map(\.recordId) == [small] && second.unread.isEmpty)

            #expect(try await Self.ask(client, "/v1/versions", [big, small], token: erin).answer?.notes.isEmpty == true, "another account's notes")
            let malformed = try await client.send(.post, "/v1/versions", token: ada, raw: "{\"recordIds\": [\"not a uuid\"]}")
            #expect(malformed.status == .badRequest)
            #expect(try await client.send(.post, "/v1/versions", json: VersionsQuery(recordIds: [big])).status == .unauthorized)
        }
    }
}
