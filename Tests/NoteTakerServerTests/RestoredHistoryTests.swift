import Foundation
import NoteTakerSyncProtocol
import Testing

/// A server notices change tokens from a history it no longer holds (its data restored
/// from an older copy) and refuses them, pulls and pushes alike, changing nothing.
@Suite("Tokens from a history the server no longer holds")
struct RestoredHistoryTests {
    /// The token with its sequence or mark replaced.
    private func forged(_ token: String, sequence: Int64? = nil, mark: String? = nil) -> String {
        var parts = token.split(separator: ":").map(String.init)
        if let sequence { parts[1] = String(sequence) }
        if let mark { parts[2] = mark }
        return parts.joined(separator: ":")
    }

    @Test("a token carries its history's mark; one past the server's changes or under another mark answers 410 serverRestored")
    func pullsRefused() async throws {
        try await TestServer().test { client in
            let session = try await client.register("ada")
            _ = try await client.modify(session, [noteSave(title: "one"), noteSave(title: "two")])
            let token = try await client.changes(session).token
            #expect(token.split(separator: ":").count == 3, "\(token)")
            // The same token again, and one from an earlier batch, are fine.
            #expect(try await client.changes(session, since: token).records.isEmpty)

            let ahead = try await client.send(.get, "/v1/changes?since=\(forged(token, sequence: 9))", token: session)
            #expect(ahead.status == .gone)
            #expect(try ahead.decode(APIErrorBody.self).error == .serverRestored)
            let otherHistory = try await client.send(.get, "/v1/changes?since=\(forged(token, mark: "0123456789abcdef"))", token: session)
            #expect(otherHistory.status == .gone)
            #expect(try otherHistory.decode(APIErrorBody.self).error == .serverRestored)
            // A token without a mark (from a server before marks) past the changes: resync, as before.
            let unmarked = token.split(separator: ":").prefix(1).joined() + ":9"
            let old = try await client.send(.get, "/v1/changes?since=\(unmarked)", token: session)
            #expect(try old.decode(APIErrorBody.self).error == .resyncRequired)
        }
    }

    @Test("a batch sent with a token from a lost history is refused whole; with the current one it applies")
    func pushesRefused() async throws {
        try await TestServer().test { client in
            let session = try await client.register("ada")
            _ = try await client.modify(session, [noteSave(title: "one")])
            let token = try await client.changes(session).token
            let lost = ModifyRequest(changes: [noteSave(title: "made after the backup")], changeToken: forged(token, sequence: 7))
            let refused = try await client.send(.post, "/v1/records/modify", token: session, json: lost)
            #expect(refused.status == .gone)
            #expect(try refused.decode(APIErrorBody.self).error == .serverRestored)
            #expect(try await client.changes(session).records.count == 1, "nothing of the refused batch was applied")

            let current = ModifyRequest(changes: [noteSave(title: "two")], changeToken: token)
            let applied = try await client.send(.post, "/v1/records/modify", token: session, json: current)
            #expect(applied.status == .ok)
            // The token of before that batch is still this history's.
            #expect(try await client.changes(session, since: token).records.count == 1)
        }
    }

    @Test("an answered batch's authored token carries its mark; one from a lost history is refused by a fetch and by a batch")
    func authoredTokensRefused() async throws {
        try await TestServer().test { client in
            let session = try await client.register("ada")
            let authored = try #require(try await client.modify(session, [noteSave(title: "one")]).authoredToken)
            #expect(authored.split(separator: ":").count == 3, "\(authored)")
            // Its own token passes, and leaves out the device's own change.
            let device = UUID().key
            let own = try await client.send(.get, "/v1/changes?device=\(device)&authored=\(authored)", token: session)
            #expect(own.status == .ok)

            // A device whose batch a lost history answered, and that fetched nothing since.
            for lost in [forged(authored, sequence: 7), forged(authored, mark: "0123456789abcdef")] {
                let fetch = try await client.send(.get, "/v1/changes?device=\(device)&authored=\(lost)", token: session)
                #expect(fetch.status == .gone)
                #expect(try fetch.decode(APIErrorBody.self).error == .serverRestored)
                let batch = ModifyRequest(changes: [noteSave(title: "made after the restore")], authoredToken: lost)
                let refused = try await client.send(.post, "/v1/records/modify", token: session, json: batch)
                #expect(refused.status == .gone)
                #expect(try refused.decode(APIErrorBody.self).error == .serverRestored)
            }
            #expect(try await client.changes(session).records.count == 1, "nothing of the refused batches was applied")
            // An authored token without a mark (from a server before marks) only leaves things out.
            let unmarked = authored.split(separator: ":").prefix(2).joined(separator: ":")
            let old = ModifyRequest(changes: [noteSave(title: "two")], authoredToken: unmarked)
            #expect(try await client.send(.post, "/v1/records/modify", token: session, json: old).status == .ok)
        }
    }
}
