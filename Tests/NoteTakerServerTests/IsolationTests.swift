import Foundation
import Hummingbird
import HummingbirdTesting
@testable import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// One account can neither read, change, delete nor download anything of another's,
/// endpoint by endpoint, even knowing the other's record ids and asset hashes.
@Suite("Account isolation")
struct IsolationTests {
    @Test("every endpoint is scoped by the authenticated account")
    func isolated() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let ada = try await client.register("ada")
            let eve = try await client.register("eve")
            let id = UUID()
            let adaTag = try await client.modify(ada, [noteSave(id, title: "ada's secret")]).results[0].changeTag
            let content = Data("ada's file".utf8)
            let hash = sha256Hex(content)
            _ = try await client.execute(uri: "/v1/assets/\(hash)", method: .put, headers: [.authorization: "Bearer \(ada)"], body: ByteBuffer(bytes: content))

            // Read: eve's changes hold nothing of ada's, with or without a token.
            #expect(try await client.changes(eve).records.isEmpty)
            let adaToken = try await client.changes(ada).token
            let withAdaToken = try await client.send(.get, "/v1/changes?since=\(adaToken)", token: eve)
            let leaked = (try? withAdaToken.decode(ChangesResponse.self).records) ?? []
            #expect(withAdaToken.status == .gone || leaked.isEmpty)
            // Account status: eve sees her own usage only.
            let eveStatus = try await client.send(.get, "/v1/accounts/current", token: eve).decode(AccountStatus.self)
            #expect(eveStatus.username == "eve" && eveStatus.recordCount == 0 && eveStatus.usedBytes == 0)

            // Change: a save under ada's id with ada's tag lands in eve's own database.
            let overwrite = try await client.modify(eve, [noteSave(id, title: "eve was here", base: adaTag)])
            #expect(overwrite.results[0].outcome == .saved)
            // Delete: likewise.
            let delete = RecordChange(recordType: "note", recordId: id, operation: .delete, baseChangeTag: overwrite.results[0].changeTag, fields: nil)
            _ = try await client.modify(eve, [delete])
            let adaRecords = try await client.changes(ada).records
            #expect(adaRecords.count == 1)
            #expect(adaRecords[0].fields["title"] == .string("ada's secret"))
            #expect(adaRecords[0].deleted == false)

            // Assets: eve can neither see nor download ada's file.
            #expect(try await client.send(.head, "/v1/assets/\(hash)", token: eve).status == .notFound)
            #expect(try await client.send(.get, "/v1/assets/\(hash)", token: eve).status == .notFound)
            #expect(try await client.send(.get, "/v1/assets/\(hash)", token: ada).status == .ok)

            // Sessions: eve logging out does not log ada out; eve's password change does not touch ada.
            _ = try await client.send(.put, "/v1/accounts/current/password", token: eve,
                                      json: PasswordChange(currentPassword: "correct horse", newPassword: "new password"))
            #expect(try await client.send(.get, "/v1/accounts/current", token: ada).status == .ok)
            #expect(try await client.send(.delete, "/v1/sessions/current", token: eve).status == .noContent)
            #expect(try await client.send(.get, "/v1/accounts/current", token: ada).status == .ok)
        }
        // Push: a change of ada's tells none of eve's devices.
        let ada = try await server.service.login(Credentials(username: "ada", password: "correct horse"))
        let adaAccount = try await server.service.authenticate(token: ada.token)
        let eve = try await server.service.login(Credentials(username: "eve", password: "new password"))
        let eveAccount = try await server.service.authenticate(token: eve.token)
        let eveEvents = try await server.service.events(for: eveAccount, token: eve.token)
        let adaEvents = try await server.service.events(for: adaAccount, token: ada.token)
        _ = try await server.service.modify(ModifyRequest(changes: [noteSave(title: "ping")]), for: adaAccount)
        var adaIterator = adaEvents.makeAsyncIterator()
        #expect(await adaIterator.next() != nil)
        _ = try await server.service.modify(ModifyRequest(changes: [noteSave(title: "eve's own")]), for: eveAccount)
        var eveIterator = eveEvents.makeAsyncIterator()
        let first = await eveIterator.next()
        let eveLatest = try await server.service.latestToken(for: eveAccount)
        #expect(first == .changes(token: eveLatest))
    }

    @Test("push streams are capped per account, and end with their session")
    func pushStreamLimits() async throws {
        let server = try await TestServer()
        let service = server.service
        let (account, token) = try await server.account()
        var streams: [AsyncStream<PushEvent>] = []
        for _ in 0..<service.notifier.perAccount {
            streams.append(try await service.events(for: account, token: token))
        }
        await #expect(throws: SyncServerError.self) { _ = try await service.events(for: account, token: token) }
        // Another account is not affected.
        let (other, otherToken) = try await server.account("eve")
        _ = try await service.events(for: other, token: otherToken)

        // Logging out ends that session's streams (the iteration finishes, it does not hang).
        try await service.logout(token: token)
        let stream = streams[0]
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stream {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(ended, "the push stream did not end within 20 s of logging out")
    }
}

@Suite("Push streams are shared fairly")
struct PushFairnessTests {
    /// Whether a stream ends within `seconds` (a stream a newcomer took over ends). Waiting
    /// ends the stream when it did not.
    static func ends(_ stream: AsyncStream<PushEvent>, within seconds: Int = 20) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stream {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test("when every place is taken, an account holding fewer takes the oldest of the one holding most, until shares are even")
    func fullServerMakesRoom() async throws {
        let notifier = ChangeNotifier(perAccount: 4, total: 8)
        // Every stream is kept: a stream let go ends, and frees its place.
        var first: [AsyncStream<PushEvent>] = [], kept: [AsyncStream<PushEvent>] = []
        for _ in 0..<4 { first.append(try await notifier.subscribe(account: 1, session: "a")) }
        for _ in 0..<4 { kept.append(try await notifier.subscribe(account: 2, session: "b")) }

        kept.append(try await notifier.subscribe(account: 3, session: "c"))
        #expect(await Self.ends(first[0]), "account 1's oldest stream gave way")
        kept.append(try await notifier.subscribe(account: 3, session: "c"))
        let (one, two) = (await notifier.listenerCount(account: 1), await notifier.listenerCount(account: 2))
        #expect(one == 3 && two == 3, "\(one) \(two): account 2 gave way the second time")
        await #expect(throws: SyncServerError.self, "3, 3 and 2: taking another would not be fairer") {
            _ = try await notifier.subscribe(account: 3, session: "c")
        }
        #expect(kept.count == 6 && first.count == 4)
    }
}
