import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// Accounts' identity keys on the server (docs/sharing.md §2): kept in the key material, set
/// once for the current password, and their public halves told to any logged-in account by
/// name. On SQLite, and on PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Account identity keys")
struct AccountIdentityTests {
    /// Identity keys of the right shape; `seed` makes each copy differ.
    static func identity(seed: UInt8) -> IdentityKeys {
        let key = { (byte: UInt8) in Base64URL.encode(Data(repeating: byte, count: 32)) }
        let wrapped = { (byte: UInt8) in Base64URL.encode(Data(repeating: byte, count: AccountKeys.wrappedKeySize)) }
        return IdentityKeys(agreement: key(seed), signing: key(seed &+ 1), agreementKey: wrapped(seed &+ 2), signingKey: wrapped(seed &+ 3))
    }

    private static let secret = "a login secret of 43 characters"

    /// Registers `name` end-to-end encrypted, with `identity` in its key material; its session.
    private func register(_ name: String, identity: IdentityKeys?, _ client: some TestClientProtocol) async throws -> String {
        var keys = AccountKeysTests.keys()
        keys.identity = identity
        let registered = try await client.send(.post, "/v1/accounts", json: Credentials(username: name, password: Self.secret, keys: keys))
        #expect(registered.status == .created)
        return try registered.decode(SessionResponse.self).token
    }

    @Test("an account's public identity keys are told to any logged-in account by name; the private halves stay in its own material")
    func publicHalvesByName() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keys = Self.identity(seed: 10)
            let grace = try await register("grace", identity: keys, client)
            let ada = try await client.register("ada")
            let answer = try await client.send(.get, "/v1/users/GRACE/identity", token: ada)
            #expect(answer.status == .ok)
            #expect(try answer.decode(AccountIdentity.self) == keys.identity)
            #expect(!String(buffer: answer.body).contains(keys.agreementKey), "the wrapped private halves are not told")
            let own = try await client.send(.get, "/v1/accounts/current/keys", token: grace)
            #expect(try own.decode(AccountKeys.self).identity == keys)

            #expect(try await client.send(.get, "/v1/users/grace/identity").status == .unauthorized)
            // No such account, and an account without encryption, answer alike.
            let nobody = try await client.send(.get, "/v1/users/nobody/identity", token: grace)
            let plain = try await client.send(.get, "/v1/users/ada/identity", token: grace)
            #expect(nobody.status == .notFound && plain.status == .notFound)
            #expect(try nobody.decode(APIErrorBody.self).message.replacingOccurrences(of: "nobody", with: "ada")
                    == plain.decode(APIErrorBody.self).message)
            #expect(try await client.send(.get, "/v1/users/a%20b/identity", token: grace).status == .badRequest)
            // A name with an '@' arrives percent-encoded in the path.
            let mailLike = Self.identity(seed: 40)
            _ = try await register("grace@home.example", identity: mailLike, client)
            let byMail = try await client.send(.get, "/v1/users/grace%40home.example/identity", token: ada)
            #expect(try byMail.decode(AccountIdentity.self) == mailLike.identity)
        }
    }

    @Test("an account made before identity keys gets them once, for its password; the same keys again change nothing, others are refused")
    func setOnce() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let grace = try await register("grace", identity: nil, client)
            let ada = try await client.register("ada")
            #expect(try await client.send(.get, "/v1/users/grace/identity", token: ada).status == .notFound)
            let first = Self.identity(seed: 20)

            let wrong = try await client.send(.put, "/v1/accounts/current/identity", token: grace,
                                              json: IdentityAddition(identity: first, password: "not the login secret"))
            #expect(wrong.status == .unauthorized)
            var malformed = first
            malformed.signing = "short"
            let refused = try await client.send(.put, "/v1/accounts/current/identity", token: grace,
                                                json: IdentityAddition(identity: malformed, password: Self.secret))
            #expect(refused.status == .badRequest)
            #expect(try await client.send(.get, "/v1/users/grace/identity", token: ada).status == .notFound, "nothing was kept")

            let set = try await client.send(.put, "/v1/accounts/current/identity", token: grace, json: IdentityAddition(identity: first, password: Self.secret))
            #expect(set.status == .noContent)
            #expect(try await client.send(.get, "/v1/users/grace/identity", token: ada).decode(AccountIdentity.self) == first.identity)
            let again = try await client.send(.put, "/v1/accounts/current/identity", token: grace, json: IdentityAddition(identity: first, password: Self.secret))
            #expect(again.status == .noContent)
            let other = try await client.send(.put, "/v1/accounts/current/identity", token: grace,
                                              json: IdentityAddition(identity: Self.identity(seed: 30), password: Self.secret))
            #expect(other.status == .conflict)
            #expect(try other.decode(APIErrorBody.self).error == .keysChanged)
            #expect(try await client.send(.get, "/v1/users/grace/identity", token: ada).decode(AccountIdentity.self) == first.identity)
            // The rest of the material is as it was.
            var expected = AccountKeysTests.keys()
            expected.identity = first
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: grace).decode(AccountKeys.self) == expected)

            let unencrypted = try await client.send(.put, "/v1/accounts/current/identity", token: ada,
                                                    json: IdentityAddition(identity: first, password: "correct horse"))
            #expect(unencrypted.status == .notFound)
        }
    }
}
