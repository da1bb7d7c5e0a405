import Foundation
import HummingbirdTesting
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// The versions of a note moved into a zone from another (docs/sharing.md §3.5): kept beside
/// the note's own, read back as they are, never twice, sealed again after a rotation; every bad
/// request refused with nothing kept. On SQLite, and on PostgreSQL under
/// `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Versions of a note moved into a zone")
struct MovedVersionsTests {
    private static func moved(_ versions: [(Double, RecordFields)]) -> MovedVersions {
        MovedVersions(versions: versions.map { MovedVersion(replacedAt: $0.0, fields: $0.1) })
    }

    private static func versions(_ client: some TestClientProtocol, _ path: String, token: String) async throws -> [RecordVersion] {
        let response = try await client.send(.get, path, token: token)
        #expect(response.status == .ok, "\(path)")
        return try response.decode(RecordVersionsResponse.self).versions
    }

    @Test("an editor's versions of a note moved into a shared zone are kept and read by members, once; a viewer's, a stranger's or a malformed one kept never")
    func inAZone() async throws {
        try await TestServer().test { client in
            let (ada, bob, carol, erin) = (try await ShareParty("ada", client), try await ShareParty("bob", client),
                                           try await ShareParty("carol", client), try await ShareParty("erin", client))
            let zone = UUID()
            let path = "/v1/zones/\(zone.uuidString.lowercased())"
            let members = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.editor), carol.member(.viewer)]))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: members).status == .noContent)
            for member in [bob, carol] { #expect(try await client.send(.put, path + "/membership", token: member.token).status == .noContent) }
            let note = UUID()
            let saved = try await client.send(.post, path + "/records/modify", token: bob.token, json: ModifyRequest(
                requestId: UUID(), changes: [ShareParty.zoneSave(note, zone: zone.uuidString.lowercased(), by: "bob")]))
            #expect(saved.status == .ok)
            let version = { (salt: String, author: String) in ShareParty.zoneSave(note, zone: zone.uuidString.lowercased(), by: author, salt: salt).fields ?? [:] }
            let versionsPath = path + "/records/\(note)/versions"
            let (day, week) = (Date().timeIntervalSince1970 - 86_400, Date().timeIntervalSince1970 - 7 * 86_400)

            // Refused, each with nothing kept.
            let refusals: [(ShareParty, MovedVersions, Int)] = [
                (carol, Self.moved([(day, version("v1", "carol"))]), 403),
                (erin, Self.moved([(day, version("v1", "erin"))]), 404),
                (bob, Self.moved([(day, version("v1", "ada"))]), 400),
                (bob, Self.moved([(day, ResealingTests.envelope(key: 1, "private"))]), 400),
                (bob, Self.moved([(Date().timeIntervalSince1970 + 7 * 86_400, version("v1", "bob"))]), 400),
                (bob, Self.moved([(-1, version("v1", "bob"))]), 400),
                (bob, Self.moved(Array(repeating: (day, version("v1", "bob")), count: MovedVersions.maximumCount + 1)), 400),
            ]
            for (member, body, status) in refusals {
                #expect(try await client.send(.post, versionsPath, token: member.token, json: body).status.code == status, "\(member.name): \(status)")
            }
            #expect(try await client.send(.post, path + "/records/\(UUID())/versions", token: bob.token,
                                          json: Self.moved([(day, version("v1", "bob"))])).status == .notFound)
            #expect(try await Self.versions(client, versionsPath, token: carol.token).isEmpty)

            // Kept, read by every member, and not kept again when sent again.
            let body = Self.moved([(week, version("v1", "bob")), (day, version("v2", "bob"))])
            let kept = try await client.send(.post, versionsPath, token: bob.token, json: body)
            #expect(kept.status == .ok)
            #expect(try kept.decode(MovedVersionsKept.self).kept == 2)
            #expect(try await client.send(.post, versionsPath, token: bob.token, json: body).decode(MovedVersionsKept.self).kept == 0)
            for member in [ada, bob, carol] {
                let read = try await Self.versions(client, versionsPath, token: member.token)
                #expect(read.map(\.replacedAt).sorted() == [week, day], "\(member.name)")
                #expect(read.allSatisfy { (Int64($0.changeTag) ?? 0) < 0 }, "numbered below every change")
            }
            // A change of the note after keeps its replaced version beside them.
            let tag = try #require(try saved.decode(ModifyResponse.self).results.first?.changeTag)
            #expect(try await client.send(.post, path + "/records/modify", token: bob.token, json: ModifyRequest(
                requestId: UUID(), changes: [ShareParty.zoneSave(note, zone: zone.uuidString.lowercased(), by: "bob", salt: "edit", base: tag)])).status == .ok)
            #expect(try await Self.versions(client, versionsPath, token: ada.token).count == 3)
        }
    }

    @Test("versions of a note moved into an account's own notes are kept sealed, sealed again after a rotation, and refused in plain text")
    func inTheAccount() async throws {
        try await TestServer().test { client in
            let token = try await ResealingTests.encryptedAccount("grace", client)
            let note = UUID()
            let saved = try await client.modify(token, [RecordChange(recordType: "note", recordId: note, operation: .save, baseChangeTag: nil,
                                                                     fields: ResealingTests.envelope(key: 1, "current"))])
            #expect(saved.results.first?.outcome == .saved)
            let path = "/v1/records/\(note)/versions"
            let day = Date().timeIntervalSince1970 - 86_400
            let plain = try await client.send(.post, path, token: token, json: Self.moved([(day, ["title": .string("Plain"), "body": .string("text")])]))
            #expect(plain.status == .badRequest)
            let kept = try await client.send(.post, path, token: token, json: Self.moved([(day, ResealingTests.envelope(key: 1, "moved"))]))
            #expect(try kept.decode(MovedVersionsKept.self).kept == 1)
            let listed = try await Self.versions(client, path, token: token)
            let changeTag = try #require(listed.first?.changeTag)
            #expect(listed.count == 1 && changeTag.hasPrefix("-"))

            // A rotation's pass lists it and puts it back sealed with the newer key.
            let page = try await client.send(.get, "/v1/accounts/current/versions?sealedBelow=2", token: token).decode(KeptVersionsPage.self)
            #expect(page.versions.map(\.changeTag) == [changeTag])
            let resealed = try await client.send(.put, path, token: token, json: ResealedVersion(changeTag: changeTag, fields: ResealingTests.envelope(key: 2, "again")))
            #expect(resealed.status == .noContent)
            #expect(try await client.send(.get, "/v1/accounts/current/versions?sealedBelow=2", token: token).decode(KeptVersionsPage.self).versions.isEmpty)
        }
    }
}
