import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// The operator's commands on accounts, below the command line: list, a quota of one's own,
/// a new password, and deleting an account with everything it holds (and nothing of
/// another's). On SQLite, and on PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Account administration")
struct AccountAdministrationTests {
    private func upload(_ content: Data, token: String, client: some TestClientProtocol) async throws {
        let response = try await client.execute(
            uri: "/v1/assets/\(sha256Hex(content))", method: .put, headers: [.authorization: "Bearer \(token)"], body: ByteBuffer(bytes: content))
        #expect(response.status == .noContent)
    }

    @Test("the list shows each account's space, quota and devices")
    func list() async throws {
        let server = try await TestServer(quotaBytes: 10_000_000)
        try await server.test { client in
            let ada = try await client.register("ada")
            _ = try await client.register("Bob")
            _ = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
            _ = try await client.modify(ada, [noteSave(title: "groceries")])
        }
        try await server.service.setQuota(5_242_880, named: "ADA")
        let accounts = try await server.service.accounts()
        #expect(accounts.map(\.username) == ["ada", "Bob"])
        #expect(accounts[0].sessions == 2 && accounts[0].usedBytes > 0 && accounts[0].quotaBytes == 5_242_880 && accounts[0].lastUsedAt != nil)
        #expect(accounts[1].sessions == 1 && accounts[1].quotaBytes == nil)
    }

    @Test("an account's own quota is the one its uploads meet, and `default` gives it the server's again")
    func ownQuota() async throws {
        let server = try await TestServer(quotaBytes: 10_000_000)
        try await server.test { client in
            let ada = try await client.register("ada")
            try await server.service.setQuota(2_000, named: "ada")
            let status = try await client.send(.get, "/v1/accounts/current", token: ada).decode(AccountStatus.self)
            #expect(status.quotaBytes == 2_000)
            let big = Data(repeating: 1, count: 3_000)
            let refused = try await client.execute(
                uri: "/v1/assets/\(sha256Hex(big))", method: .put, headers: [.authorization: "Bearer \(ada)"], body: ByteBuffer(bytes: big))
            #expect(refused.status.code == 507 && refused.errorCode == .quotaExceeded)
            try await server.service.setQuota(nil, named: "ada")
            try await upload(big, token: ada, client: client)
            #expect(try await client.send(.get, "/v1/accounts/current", token: ada).decode(AccountStatus.self).quotaBytes == 10_000_000)
        }
        await #expect(throws: SyncServerError.self) { try await server.service.setQuota(0, named: "ada") }
        await #expect(throws: SyncServerError.self) { try await server.service.setQuota(1_000, named: "nobody") }
    }

    @Test("a new password logs out every device of the account, and only the new one logs in")
    func resetPassword() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            try await server.service.resetPassword(named: "ada", to: "a brand new password")
            #expect(try await client.send(.get, "/v1/accounts/current", token: ada).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/accounts/current", token: bob).status == .ok, "another account is untouched")
            let old = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
            #expect(old.status == .unauthorized)
            let new = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "a brand new password"))
            #expect(new.status == .created)
        }
        await #expect(throws: SyncServerError.self) { try await server.service.resetPassword(named: "ada", to: "short") }
    }

    @Test("deleting an account removes its records, sessions and files, and nothing of another account's")
    func delete() async throws {
        let server = try await TestServer()
        let own = Data("ada's scan".utf8), shared = Data("a file both attached".utf8)
        try await server.test { client in
            let ada = try await client.register("ada")
            let bob = try await client.register("bob")
            _ = try await client.modify(ada, [noteSave(title: "ada's diary")])
            _ = try await client.modify(bob, [noteSave(title: "bob's list")])
            for content in [own, shared] { try await upload(content, token: ada, client: client) }
            try await upload(shared, token: bob, client: client)
            #expect(try await TestStorage.storedFileCount(server.configuration) == 2)

            try await server.service.deleteAccount(named: "ada")

            #expect(try await client.send(.get, "/v1/changes", token: ada).status == .unauthorized)
            #expect(try await TestStorage.storedFileCount(server.configuration) == 1, "ada's own file is gone, the shared one stays")
            let bobsFile = try await client.send(.get, "/v1/assets/\(sha256Hex(shared))", token: bob)
            #expect(bobsFile.status == .ok && Data(buffer: bobsFile.body) == shared)
            #expect(try await client.changes(bob).records.count == 1)
            let again = try await client.register("ada")
            #expect(try await client.changes(again).records.isEmpty, "a new account of that name starts empty")
        }
        #expect(try await server.service.accounts().map(\.username) == ["ada", "bob"])
        await #expect(throws: SyncServerError.self) { try await server.service.deleteAccount(named: "carol") }
    }
}
