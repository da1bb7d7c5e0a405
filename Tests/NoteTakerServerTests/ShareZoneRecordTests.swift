import Foundation
import HummingbirdTesting
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// A shared zone's records, versions and files on the server (docs/sharing.md §3.1, §4): the
/// roles hold against a raw client, and the owner's quota counts them. On SQLite, and on
/// PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("A shared zone's records on the server")
struct ShareZoneRecordTests {
    /// A zone ada owns, with bob as an editor and carol as a viewer, both accepted, and dora
    /// invited (as a viewer) without accepting.
    private struct Zone {
        let id = UUID().uuidString.lowercased()
        let ada, bob, carol, dora: ShareParty

        init(_ client: some TestClientProtocol) async throws {
            (ada, bob, carol, dora) = (try await ShareParty("ada", client), try await ShareParty("bob", client),
                                       try await ShareParty("carol", client), try await ShareParty("dora", client))
            let record = try ada.signed(ShareParty.members(
                try #require(UUID(uuidString: id)), epoch: 1, [ada.member(.owner), bob.member(.editor), carol.member(.viewer), dora.member(.viewer)]))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: record).status == .noContent)
            for member in [bob, carol] {
                #expect(try await client.send(.put, path + "/membership", token: member.token).status == .noContent)
            }
        }

        var path: String { "/v1/zones/\(id)" }

        /// A note's save sealed for this zone, as `author` writes it.
        func save(_ note: UUID, by author: String, salt: String = "first", base: String? = nil, zone: String? = nil) -> RecordChange {
            ShareParty.zoneSave(note, zone: zone ?? id, by: author, salt: salt, base: base)
        }

        /// Sends `changes` to the zone as `member`; the answer.
        func modify(_ client: some TestClientProtocol, _ changes: [RecordChange], as member: ShareParty) async throws -> TestResponse {
            try await client.send(.post, path + "/records/modify", token: member.token, json: ModifyRequest(requestId: UUID(), changes: changes))
        }

        /// The zone's records as `member` fetches them from the start.
        func records(_ client: some TestClientProtocol, as member: ShareParty) async throws -> [SyncRecord] {
            let response = try await client.send(.get, path + "/changes", token: member.token)
            #expect(response.status == .ok, "\(member.name) fetched")
            return try response.decode(ChangesResponse.self).records
        }
    }

    @Test("members who accepted read a zone's records; its owner and editors write them; a viewer is refused (403), anyone else answered 404, changing nothing")
    func roles() async throws {
        try await TestServer().test { client in
            let zone = try await Zone(client)
            let erin = try await ShareParty("erin", client)
            let (adas, bobs) = (UUID(), UUID())
            #expect(try await zone.modify(client, [zone.save(adas, by: "ada")], as: zone.ada).status == .ok)
            let saved = try await zone.modify(client, [zone.save(bobs, by: "bob")], as: zone.bob).decode(ModifyResponse.self)
            #expect(saved.results.map(\.outcome) == [.saved])

            let viewer = try await zone.modify(client, [zone.save(UUID(), by: "carol")], as: zone.carol)
            #expect(viewer.status == .forbidden && viewer.errorCode == .forbidden)
            let deletion = RecordChange(recordType: "note", recordId: bobs, operation: .delete, baseChangeTag: saved.results[0].changeTag, fields: nil)
            #expect(try await zone.modify(client, [deletion], as: zone.carol).status == .forbidden, "a viewer deletes nothing either")
            #expect(try await zone.modify(client, [zone.save(UUID(), by: "dora")], as: zone.dora).status == .forbidden, "an invitation not accepted")
            #expect(try await zone.modify(client, [zone.save(UUID(), by: "erin")], as: erin).status == .notFound)
            #expect(try await client.send(.get, zone.path + "/changes", token: erin.token).status == .notFound)
            #expect(try await client.send(.get, zone.path + "/changes", token: zone.dora.token).status == .forbidden)
            #expect(try await client.send(.get, "/v1/zones/\(UUID().uuidString.lowercased())/changes", token: zone.ada.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/zones/\(zone.id.uppercased())/changes", token: zone.ada.token).status == .badRequest)
            #expect(try await client.send(.get, zone.path + "/changes?limit=x", token: zone.ada.token).status == .badRequest)

            for member in [zone.ada, zone.bob, zone.carol] {
                let records = try await zone.records(client, as: member)
                #expect(Set(records.map(\.recordId)) == [adas, bobs], "\(member.name) reads both, and nothing the others were refused")
            }
            // Each account's own records are its own: the zone's are not among them.
            #expect(try await client.changes(zone.ada.token).records.isEmpty)
            #expect(try await client.changes(zone.bob.token).records.isEmpty)

            // Removed, carol reads nothing of it any more.
            let second = try zone.ada.signed(ShareParty.members(
                try #require(UUID(uuidString: zone.id)), epoch: 2, [zone.ada.member(.owner), zone.bob.member(.editor)], keyVersion: 2))
            #expect(try await client.send(.put, zone.path + "/members", token: zone.ada.token, json: second).status == .noContent)
            #expect(try await client.send(.get, zone.path + "/changes", token: zone.carol.token).status == .notFound)
        }
    }

    @Test("a save that is not sealed for the zone, does not name its writer, has no signature or a malformed batch path, is refused, the batch with it")
    func envelopes() async throws {
        try await TestServer().test { client in
            let zone = try await Zone(client)
            var unsigned = zone.save(UUID(), by: "bob")
            unsigned.fields?["$sig"] = .string("c2ln")
            var plain = zone.save(UUID(), by: "bob")
            plain.fields = ["title": .string("in the clear"), "$zone": .string(zone.id), "$by": .string("bob")]
            // A batch path (docs/sharing.md §4.1) is 16 + 32·m bytes, m at most 16.
            func withPath(_ bytes: Int) -> RecordChange {
                var change = zone.save(UUID(), by: "bob")
                change.fields?["$path"] = .string(Base64URL.encode(Data(count: bytes)))
                return change
            }
            var numbered = zone.save(UUID(), by: "bob")
            numbered.fields?["$path"] = .number(16)
            let cases: [(String, RecordChange)] = [
                ("passed off as ada's", zone.save(UUID(), by: "ada")),
                ("sealed for another zone", zone.save(UUID(), by: "bob", zone: UUID().uuidString.lowercased())),
                ("sealed for the private zone", zone.save(UUID(), by: "bob", zone: "private")),
                ("a short signature", unsigned),
                ("not sealed", plain),
                ("a path of 15 bytes", withPath(15)), ("a path with a hash cut short", withPath(16 + 31)),
                ("a path of 17 hashes", withPath(16 + 32 * 17)), ("a path that is a number", numbered),
            ]
            for (name, change) in cases {
                let answer = try await zone.modify(client, [zone.save(UUID(), by: "bob"), change], as: zone.bob)
                #expect(answer.status == .badRequest, "\(name)")
            }
            #expect(try await zone.records(client, as: zone.ada).isEmpty, "nothing of any batch was kept")
            // A path of the right length is kept (the members check it; the server cannot).
            #expect(try await zone.modify(client, [withPath(16), withPath(16 + 32 * 16)], as: zone.bob).status == .ok)
            #expect(try await zone.records(client, as: zone.ada).count == 2)
        }
    }

    @Test("a zone's notes keep their versions and its files their bytes, for every member; a viewer uploads nothing")
    func versionsAndFiles() async throws {
        try await TestServer().test { client in
            let zone = try await Zone(client)
            let note = UUID()
            let first = try await zone.modify(client, [zone.save(note, by: "ada")], as: zone.ada).decode(ModifyResponse.self)
            #expect(try await zone.modify(client, [zone.save(note, by: "bob", salt: "edited", base: first.results[0].changeTag)], as: zone.bob).status == .ok)
            let versions = try await client.send(.get, zone.path + "/records/\(note)/versions", token: zone.carol.token)
            #expect(try versions.decode(RecordVersionsResponse.self).versions.map(\.fields) == [zone.save(note, by: "ada").fields])
            #expect(try await client.send(.get, "/v1/records/\(note)/versions", token: zone.ada.token).status == .notFound, "not among ada's own")

            let file = Data("a sealed file's bytes".utf8)
            let hash = sha256Hex(Data("its keyed address".utf8))
            let put = try await client.send(.put, zone.path + "/assets/\(hash)", token: zone.bob.token, raw: "a sealed file's bytes")
            #expect(put.status == .noContent)
            let byViewer = try await client.send(.put, zone.path + "/assets/\(sha256Hex(file))", token: zone.carol.token, raw: "a sealed file's bytes")
            #expect(byViewer.status == .forbidden)
            #expect(try await client.send(.head, zone.path + "/assets/\(sha256Hex(file))", token: zone.ada.token).status == .notFound)
            let read = try await client.send(.get, zone.path + "/assets/\(hash)", token: zone.carol.token)
            #expect(read.status == .ok && Data(buffer: read.body) == file)
            #expect(try await client.send(.head, "/v1/assets/\(hash)", token: zone.bob.token).status == .notFound, "not among bob's own files")
            #expect(try await client.send(.get, zone.path + "/assets/\(hash)", token: zone.dora.token).status == .forbidden)
        }
    }

    @Test("a zone's bytes count in its owner's quota, not its editors'; deleting the share frees them with its records and files")
    func quota() async throws {
        let server = try await TestServer(quotaBytes: 5_000)
        try await server.test { client in
            let zone = try await Zone(client)
            let big = String(repeating: "s", count: 1_500)
            func save(_ salt: String) -> RecordChange { zone.save(UUID(), by: "bob", salt: big + salt) }
            #expect(try await zone.modify(client, [save("1")], as: zone.bob).status == .ok)
            let adaUsed = try await client.send(.get, "/v1/accounts/current", token: zone.ada.token).decode(AccountStatus.self).usedBytes
            let bobUsed = try await client.send(.get, "/v1/accounts/current", token: zone.bob.token).decode(AccountStatus.self).usedBytes
            #expect(adaUsed > 1_500 && bobUsed == 0, "ada uses \(adaUsed), bob \(bobUsed)")
            let over = try await zone.modify(client, [save("2")], as: zone.bob)
            #expect(over.errorCode == .quotaExceeded, "ada's quota is full")
            #expect(try over.decode(APIErrorBody.self).message.contains("its owner's storage"))
            // Ada's own records meet the same full quota.
            let own = try await client.send(.post, "/v1/records/modify", token: zone.ada.token,
                                            json: ModifyRequest(requestId: UUID(), changes: [save("4")].map { var change = $0; change.fields?["$zone"] = .string("private"); return change }))
            #expect(own.errorCode == .quotaExceeded)

            let hash = sha256Hex(Data("a file".utf8))
            #expect(try await client.send(.put, zone.path + "/assets/\(hash)", token: zone.bob.token, raw: "abc").status == .noContent)
            let tooLarge = try await client.send(.put, zone.path + "/assets/\(sha256Hex(Data("a large file".utf8)))", token: zone.bob.token,
                                                 raw: String(repeating: "f", count: 2_000))
            #expect(tooLarge.errorCode == .quotaExceeded, "a file too")
            #expect(try tooLarge.decode(APIErrorBody.self).message.contains("its owner's storage"))
            #expect(try await client.send(.delete, zone.path, token: zone.ada.token).status == .noContent)
            let after = try await client.send(.get, "/v1/accounts/current", token: zone.ada.token).decode(AccountStatus.self)
            #expect(after.usedBytes == 0)
            #expect(try await server.service.assets.size(of: hash) == nil, "its file went with it")
            #expect(try await server.service.accounts().map(\.username) == ["ada", "bob", "carol", "dora"], "no zone is listed as an account")
        }
    }

    @Test("the owner's account deleted takes its zones' records and files with it")
    func ownerDeleted() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let zone = try await Zone(client)
            #expect(try await zone.modify(client, [zone.save(UUID(), by: "bob")], as: zone.bob).status == .ok)
            let hash = sha256Hex(Data("a file".utf8))
            let put = try await client.send(.put, zone.path + "/assets/\(hash)", token: zone.bob.token, raw: "abc")
            #expect(put.status == .noContent)
            try await server.service.deleteAccount(named: "ada")
            #expect(try await client.send(.get, zone.path + "/changes", token: zone.bob.token).status == .notFound)
            #expect(try await server.service.accounts().map(\.username) == ["bob", "carol", "dora"])
            #expect(try await server.service.assets.size(of: hash) == nil, "its file went with it")
        }
    }

    @Test("a zone's change is pushed to the devices of every member who accepted, the writer's included, with the zone's token; to no one else")
    func pushed() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let zone = try await Zone(client)
            let erin = try await ShareParty("erin", client)
            var streams: [String: AsyncStream<PushEvent>] = [:]
            for party in [zone.ada, zone.bob, zone.carol, zone.dora, erin] {
                streams[party.name] = try await server.service.events(for: try await server.service.authenticate(token: party.token), token: party.token)
            }
            #expect(try await zone.modify(client, [zone.save(UUID(), by: "bob")], as: zone.bob).status == .ok)
            let ada = try await server.service.authenticate(token: zone.ada.token)
            let holder = try await server.service.zoneHolder(zone: zone.id, for: ada, writing: false)
            let token = try await server.service.latestToken(for: holder)
            for name in ["ada", "bob", "carol"] {
                #expect(await Self.first(of: try #require(streams[name])) == .zone(zone.id, token: token), "\(name)")
            }
            // Dora (invited, not accepted) and erin heard nothing of it: their own change comes first.
            for name in ["dora", "erin"] {
                let account = try await server.service.authenticate(token: (name == "dora" ? zone.dora : erin).token)
                _ = try await server.service.modify(ModifyRequest(changes: [ShareParty.zoneSave(UUID(), zone: "private", by: name)]), for: account)
                let own = try await server.service.latestToken(for: account)
                #expect(await Self.first(of: try #require(streams[name])) == .changes(token: own), "\(name)")
            }
            let event = ServerEvent.zoneChanged(zone: zone.id, token: token, accounts: [3, 14])
            #expect(ServerEvent(payload: event.payload) == event, "as other nodes read it")
            #expect(EventRoutes.format(zone: zone.id, token: token) == "event: zone\ndata: {\"token\":\"\(token)\",\"zone\":\"\(zone.id)\"}\n\n")
        }
    }

    /// The first event of a stream, or `nil` after 20 s.
    private static func first(of stream: AsyncStream<PushEvent>) async -> PushEvent? {
        await withTaskGroup(of: PushEvent?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
