import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// Shared zones on the server (docs/sharing.md §3): the owner keeps a zone's members record and
/// its key boxes; members see their own; the roles hold against a raw client. On SQLite, and on
/// PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Shared zones on the server")
struct ShareZoneTests {
    @Test("the owner keeps who is in a share and sends its keys; members see their own, others nothing, and only the owner changes them")
    func membersAndKeys() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (ada, bob, carol) = (try await ShareParty("ada", client), try await ShareParty("bob", client), try await ShareParty("carol", client))
            let zone = UUID()
            let path = "/v1/zones/\(zone.uuidString.lowercased())"
            let first = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.editor)]))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: first).status == .noContent)

            let listed = try await client.send(.get, "/v1/zones", token: bob.token)
            #expect(try listed.decode([ShareSummary].self) == [ShareSummary(zone: zone.uuidString.lowercased(), owner: "ada", role: .editor, accepted: false, epoch: 1)])
            #expect(try await client.send(.get, path + "/members", token: bob.token).decode(SignedShareMembers.self) == first)
            // Carol is in no share of this id; bob may not change who is in it.
            #expect(try await client.send(.get, path + "/members", token: carol.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/zones", token: carol.token).decode([ShareSummary].self).isEmpty)
            let bobsOwn = try bob.signed(ShareParty.members(zone, epoch: 2, [bob.member(.owner), ada.member(.editor)]))
            #expect(try await client.send(.put, path + "/members", token: bob.token, json: bobsOwn).status == .forbidden)
            #expect(try await client.send(.put, path + "/members", token: carol.token, json: try carol.signed(ShareParty.members(zone, epoch: 2, [carol.member(.owner)]))).status == .notFound)
            // The same epoch again, or one skipped: another device of the owner wrote meanwhile.
            for epoch in [1, 3] {
                let stale = try await client.send(.put, path + "/members", token: ada.token, json: try ada.signed(ShareParty.members(zone, epoch: epoch, [ada.member(.owner)])))
                let error = try stale.decode(APIErrorBody.self).error
                #expect(stale.status == .conflict && error == .membersChanged, "epoch \(epoch)")
            }

            #expect(try await client.send(.put, path + "/keys", token: ada.token, json: [ada.box(zone: zone.uuidString.lowercased(), for: "bob")]).status == .noContent)
            #expect(try await client.send(.get, path + "/keys", token: bob.token).decode([ZoneKeyBox].self) == [ada.box(zone: zone.uuidString.lowercased(), for: "bob")])
            #expect(try await client.send(.get, path + "/keys", token: carol.token).status == .notFound)
            let own = ada.box(zone: zone.uuidString.lowercased(), for: "ada")
            #expect(try await client.send(.put, path + "/keys", token: ada.token, json: [own]).status == .noContent, "the owner's own box")
            #expect(try await client.send(.get, path + "/keys", token: ada.token).decode([ZoneKeyBox].self) == [own])
            #expect(try await client.send(.put, path + "/keys", token: bob.token, json: [bob.box(zone: zone.uuidString.lowercased(), for: "bob")]).status == .forbidden)
            for bad in [ada.box(zone: zone.uuidString.lowercased(), for: "carol"), ada.box(zone: zone.uuidString.lowercased(), version: 2, for: "bob"),
                        ada.box(zone: UUID().uuidString.lowercased(), for: "bob"), bob.box(zone: zone.uuidString.lowercased(), for: "bob")] {
                #expect(try await client.send(.put, path + "/keys", token: ada.token, json: [bad]).status == .badRequest, "\(bad)")
            }

            #expect(try await client.send(.put, path + "/membership", token: bob.token).status == .noContent)
            #expect(try await client.send(.get, "/v1/zones", token: bob.token).decode([ShareSummary].self).first?.accepted == true)
            #expect(try await client.send(.put, path + "/membership", token: carol.token).status == .notFound)

            // Bob removed, carol invited: bob sees nothing of it any more, his boxes gone with him.
            let second = try ada.signed(ShareParty.members(zone, epoch: 2, [ada.member(.owner), carol.member(.viewer)], keyVersion: 2))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: second).status == .noContent)
            #expect(try await client.send(.get, path + "/members", token: bob.token).status == .notFound)
            #expect(try await client.send(.get, path + "/keys", token: bob.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/zones", token: carol.token).decode([ShareSummary].self).map(\.role) == [.viewer])
            // Every epoch's record is kept, for members checking what was written under it.
            #expect(try await client.send(.get, path + "/members?epoch=1", token: carol.token).decode(SignedShareMembers.self) == first)
            #expect(try await client.send(.get, path + "/members?epoch=2", token: carol.token).decode(SignedShareMembers.self) == second)
            #expect(try await client.send(.get, path + "/members?epoch=3", token: carol.token).status == .notFound)
            #expect(try await client.send(.get, path + "/members?epoch=0", token: carol.token).status == .badRequest)
            #expect(try await client.send(.get, path + "/members?epoch=1", token: bob.token).status == .notFound, "bob is no member now")
            // Bob invited again: his old boxes did not come back with him.
            let third = try ada.signed(ShareParty.members(zone, epoch: 3, [ada.member(.owner), carol.member(.viewer), bob.member(.viewer)], keyVersion: 2))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: third).status == .noContent)
            #expect(try await client.send(.get, path + "/keys", token: bob.token).decode([ZoneKeyBox].self).isEmpty)

            // Leaving: carol at once; the owner deletes the share instead.
            #expect(try await client.send(.delete, path + "/membership", token: carol.token).status == .noContent)
            #expect(try await client.send(.get, path + "/members", token: carol.token).status == .notFound)
            #expect(try await client.send(.delete, path + "/membership", token: ada.token).status == .forbidden)
            #expect(try await client.send(.delete, path, token: bob.token).status == .forbidden)
            #expect(try await client.send(.delete, path, token: ada.token).status == .noContent)
            #expect(try await client.send(.get, path + "/members", token: bob.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/zones", token: ada.token).decode([ShareSummary].self).isEmpty)
        }
    }

    @Test("/metrics counts shares and their members, and names none")
    func counted() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (ada, bob) = (try await ShareParty("ada", client), try await ShareParty("bob", client))
            let zone = UUID()
            let record = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.viewer)]))
            #expect(try await client.send(.put, "/v1/zones/\(zone.uuidString.lowercased())/members", token: ada.token, json: record).status == .noContent)
            let text = String(buffer: try await client.send(.get, "/metrics").body)
            #expect(text.contains("notetaker_shares 1") && text.contains("notetaker_share_members 2"), "\(text)")
            #expect(!text.contains("ada") && !text.contains("bob") && !text.contains(zone.uuidString.lowercased()))
            #expect(try await client.send(.delete, "/v1/zones/\(zone.uuidString.lowercased())", token: ada.token).status == .noContent)
            let after = String(buffer: try await client.send(.get, "/metrics").body)
            #expect(after.contains("notetaker_shares 0") && after.contains("notetaker_share_members 0"))
        }
    }

    @Test("a members record is refused, changing nothing, when malformed, for another share, or naming an account without those keys")
    func refusedRecords() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (ada, bob) = (try await ShareParty("ada", client), try await ShareParty("bob", client))
            let plain = try await client.register("dora")
            let zone = UUID()
            let path = "/v1/zones/\(zone.uuidString.lowercased())/members"
            let good = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.editor)]))
            var swapped = bob.member(.editor)
            swapped.signing = ada.identity.signing
            let cases: [(String, SignedShareMembers, HTTPResponse.Status)] = [
                ("not a members record", SignedShareMembers(members: "[1]", signature: good.signature), .badRequest),
                ("a short signature", SignedShareMembers(members: good.members, signature: "c2ln"), .badRequest),
                ("another share", try ada.signed(ShareParty.members(UUID(), epoch: 1, [ada.member(.owner)])), .badRequest),
                ("two owners", try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.owner)])), .badRequest),
                ("an account with no such name", try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), .init(account: "nobody", role: .viewer, identity: bob.identity)])), .notFound),
                ("an account without encryption", try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), .init(account: "dora", role: .viewer, identity: bob.identity)])), .notFound),
                ("keys that are not the member's", try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), swapped])), .conflict),
            ]
            for (name, record, status) in cases {
                #expect(try await client.send(.put, path, token: ada.token, json: record).status == status, "\(name)")
            }
            #expect(try await client.send(.put, "/v1/zones/\(zone.uuidString)/members", token: ada.token, json: good).status == .badRequest, "an id in uppercase")
            #expect(try await client.send(.get, "/v1/zones", token: ada.token).decode([ShareSummary].self).isEmpty, "nothing was kept")
            #expect(try await client.send(.get, "/v1/zones", token: plain).decode([ShareSummary].self).isEmpty)
            #expect(try await client.send(.put, path, token: ada.token, json: good).status == .noContent)
        }
    }

    @Test("a member's account deleted leaves the share; the owner's account deleted takes the share with it")
    func accountsDeleted() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (ada, bob, carol) = (try await ShareParty("ada", client), try await ShareParty("bob", client), try await ShareParty("carol", client))
            let zone = UUID()
            let path = "/v1/zones/\(zone.uuidString.lowercased())"
            let record = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.editor), carol.member(.viewer)]))
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: record).status == .noContent)
            #expect(try await client.send(.put, path + "/keys", token: ada.token, json: [ada.box(zone: zone.uuidString.lowercased(), for: "carol")]).status == .noContent)
            try await server.service.deleteAccount(named: "carol")
            #expect(try await client.send(.get, path + "/members", token: bob.token).status == .ok)
            try await server.service.deleteAccount(named: "ada")
            #expect(try await client.send(.get, path + "/members", token: bob.token).status == .notFound)
            #expect(try await client.send(.get, "/v1/zones", token: bob.token).decode([ShareSummary].self).isEmpty)
        }
    }

    @Test("moving a server from SQLite to PostgreSQL (migrate-data) takes its shares along", .enabled(if: TestStorage.usesPostgres))
    func movedToPostgres() async throws {
        let zone = UUID()
        let path = "/v1/zones/\(zone.uuidString.lowercased())"
        try await TestServer.movedToPostgres { _, client in
            let (ada, bob) = (try await ShareParty("ada", client), try await ShareParty("bob", client))
            let record = try ada.signed(ShareParty.members(zone, epoch: 1, [ada.member(.owner), bob.member(.viewer)]))
            let box = ada.box(zone: zone.uuidString.lowercased(), for: "bob")
            #expect(try await client.send(.put, path + "/members", token: ada.token, json: record).status == .noContent)
            #expect(try await client.send(.put, path + "/keys", token: ada.token, json: [box]).status == .noContent)
            #expect(try await client.send(.put, path + "/membership", token: bob.token).status == .noContent)
            let saved = try await client.send(.post, path + "/records/modify", token: ada.token, json: ModifyRequest(
                requestId: UUID(), changes: [ShareParty.zoneSave(UUID(), zone: zone.uuidString.lowercased(), by: "ada")]))
            #expect(saved.status == .ok)
            return (bob.token, record, box)
        } after: { client, made in
            let (bobsToken, record, box) = made
            let members = try await client.send(.get, path + "/members", token: bobsToken)
            #expect(try members.decode(SignedShareMembers.self) == record)
            #expect(try await client.send(.get, path + "/members?epoch=1", token: bobsToken).decode(SignedShareMembers.self) == record)
            #expect(try await client.send(.get, path + "/keys", token: bobsToken).decode([ZoneKeyBox].self) == [box])
            #expect(try await client.send(.get, "/v1/zones", token: bobsToken).decode([ShareSummary].self).map(\.accepted) == [true])
            let records = try await client.send(.get, path + "/changes", token: bobsToken).decode(ChangesResponse.self).records
            #expect(records.count == 1, "the zone's records came along")
        }
    }
}
