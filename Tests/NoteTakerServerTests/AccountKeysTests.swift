import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// An end-to-end encrypted account's key material on the server (docs/encryption.md §2.4):
/// kept with the account from its first request, given back to its devices only, never apart
/// from the password; and the login parameters that tell nobody which names exist. On SQLite,
/// and on PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Account key material")
struct AccountKeysTests {
    /// Key material of the right shape; `salt` and `seed` make each copy differ.
    static func keys(salt: UInt8 = 1, seed: UInt8 = 2, dataKeys: Int = 1) -> AccountKeys {
        let wrapped = { (byte: UInt8) in Base64URL.encode(Data(repeating: byte, count: AccountKeys.wrappedKeySize)) }
        return AccountKeys(
            kdf: .scrypt(salt: Data(repeating: salt, count: 16)),
            wrappedByPassword: wrapped(seed), wrappedByRecovery: wrapped(seed &+ 1), idKey: wrapped(seed &+ 2),
            dataKeys: (1...dataKeys).map { wrapped(seed &+ 2 &+ UInt8($0)) })
    }

    private func parameters(_ name: String, _ client: some TestClientProtocol) async throws -> LoginParameters {
        let response = try await client.send(.get, "/v1/login-parameters?username=\(name)")
        #expect(response.status == .ok)
        return try response.decode(LoginParameters.self)
    }

    @Test("an account registered with its keys gives its parameters to anyone and its keys to its own sessions only")
    func registerAndRead() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keys = Self.keys()
            let registered = try await client.send(
                .post, "/v1/accounts", json: Credentials(username: "grace", password: "a login secret of 43 characters", keys: keys))
            #expect(registered.status == .created)
            let token = try registered.decode(SessionResponse.self).token
            #expect(try await parameters("GRACE", client) == keys.kdf, "names compare without case")
            let read = try await client.send(.get, "/v1/accounts/current/keys", token: token)
            #expect(read.status == .ok)
            #expect(try read.decode(AccountKeys.self) == keys)
            #expect(try await client.send(.get, "/v1/accounts/current/keys").status == .unauthorized)
            let other = try await client.register("ada")
            let none = try await client.send(.get, "/v1/accounts/current/keys", token: other)
            #expect(none.status == .notFound, "an account without encryption has no key material")
            #expect(try await parameters("ada", client) == .none)
        }
    }

    @Test("a name no account has gets made-up parameters, the same every time, unlike another name's")
    func decoys() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let first = try await parameters("nobody", client)
            #expect(first.problem(minimumCost: 1 << 17) == nil, "they look like any account's: \(first)")
            #expect(try await parameters("NoBody", client) == first)
            #expect(try await parameters("somebody", client).salt != first.salt)
            let malformed = try await client.send(.get, "/v1/login-parameters?username=a%20b")
            #expect(malformed.status == .badRequest)
            #expect(try await client.send(.get, "/v1/login-parameters").status == .badRequest)
        }
    }

    @Test("the password and the keys change together, or not at all; an encrypted account's password never changes alone")
    func passwordChange() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let token = try await client.register("ada")
            // Turning encryption on: the new password (the login secret) and the keys at once.
            let keys = Self.keys()
            let on = try await client.send(.put, "/v1/accounts/current/password", token: token,
                                           json: PasswordChange(currentPassword: "correct horse", newPassword: "login secret one", keys: keys))
            #expect(on.status == .noContent)
            #expect(try await parameters("ada", client) == keys.kdf)

            let alone = try await client.send(.put, "/v1/accounts/current/password", token: token,
                                              json: PasswordChange(currentPassword: "login secret one", newPassword: "login secret two"))
            #expect(alone.status == .badRequest)
            var wrong = Self.keys(salt: 9, seed: 9)
            wrong.wrappedByPassword = "short"
            let malformed = try await client.send(.put, "/v1/accounts/current/password", token: token,
                                                  json: PasswordChange(currentPassword: "login secret one", newPassword: "login secret two", keys: wrong))
            #expect(malformed.status == .badRequest)
            #expect(try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "login secret one")).status == .created,
                    "a refused change changed nothing")
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == keys)

            let changed = Self.keys(salt: 3, seed: 30)
            #expect(try await client.send(.put, "/v1/accounts/current/password", token: token,
                                          json: PasswordChange(currentPassword: "login secret one", newPassword: "login secret two", keys: changed)).status == .noContent)
            #expect(try await parameters("ada", client) == changed.kdf)
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == changed)
        }
        await #expect(throws: SyncServerError.self, "the operator cannot set a password the notes would not open with") {
            try await server.service.resetPassword(named: "ada", to: "operator's choice")
        }
    }

    @Test("a data key is appended only as the next version, for the password; anything else changes nothing")
    func rotation() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keys = Self.keys()
            let token = try await client.send(.post, "/v1/accounts", json: Credentials(username: "grace", password: "login secret one", keys: keys))
                .decode(SessionResponse.self).token
            let next = Base64URL.encode(Data(repeating: 77, count: AccountKeys.wrappedKeySize))
            let addition = { (version: Int, key: String, password: String) in DataKeyAddition(version: version, dataKey: key, password: password) }
            let refusals: [(String?, DataKeyAddition, HTTPResponse.Status)] = [
                (nil, addition(2, next, "login secret one"), .unauthorized),
                (token, addition(2, "short", "login secret one"), .badRequest),
                (token, addition(2, next, "login secret two"), .unauthorized),
                (token, addition(1, next, "login secret one"), .conflict),
                (token, addition(3, next, "login secret one"), .conflict),
            ]
            for (session, body, status) in refusals {
                let answer = try await client.send(.post, "/v1/accounts/current/data-keys", token: session, json: body)
                #expect(answer.status == status)
                if status == .conflict { #expect(try answer.decode(APIErrorBody.self).error == .keysChanged) }
            }
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == keys, "nothing changed")

            let added = try await client.send(.post, "/v1/accounts/current/data-keys", token: token, json: addition(2, next, "login secret one"))
            #expect(added.status == .noContent)
            var rotated = keys
            rotated.dataKeys.append(next)
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == rotated)
            // A second device rotating from what it knew, at the same time, appends nothing.
            let late = try await client.send(.post, "/v1/accounts/current/data-keys", token: token, json: addition(2, keys.dataKeys[0], "login secret one"))
            #expect(late.status == .conflict)
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == rotated)

            let plain = try await client.register("ada")
            #expect(try await client.send(.post, "/v1/accounts/current/data-keys", token: plain, json: addition(2, next, "correct horse")).status
                    == .notFound, "an account without encryption has no keys to rotate")
        }
    }

    @Test("key material of the wrong shape is refused and no account is made", arguments: [
        "weak scrypt", "odd cost", "another function", "salt", "salt spelled twice", "wrapped key", "no data key", "too many data keys",
    ])
    func refused(_ flaw: String) async throws {
        var keys = Self.keys(dataKeys: 2)
        switch flaw {
        case "weak scrypt": keys.kdf.n = 1 << 10
        case "odd cost": keys.kdf.n = 100_000
        case "another function": keys.kdf.kdf = "argon2id"
        case "salt": keys.kdf.salt = Base64URL.encode(Data(count: 8))
        case "salt spelled twice": keys.kdf.salt = "AAAAAAAAAAAAAAAAAAAAAB"  // the last character's spare bits must be zero
        case "wrapped key": keys.idKey = Base64URL.encode(Data(count: 59))
        case "no data key": keys.dataKeys = []
        default: keys.dataKeys = Array(repeating: keys.dataKeys[0], count: AccountKeys.maximumDataKeys + 1)
        }
        let flawed = keys
        let server = try await TestServer()
        try await server.test { client in
            let refused = try await client.send(.post, "/v1/accounts", json: Credentials(username: "mallory", password: "a long login secret", keys: flawed))
            #expect(refused.status == .badRequest && refused.errorCode == .badRequest)
            #expect(try await parameters("mallory", client).problem(minimumCost: 1 << 17) == nil, "the name is still free: made-up parameters")
            #expect(try await client.send(.post, "/v1/sessions", json: Credentials(username: "mallory", password: "a long login secret")).status == .unauthorized)
        }
    }
}

/// The recovery code's way back in (docs/encryption.md §2.5), on the server: a recovery
/// secret kept as a hash, giving back the key material and taking a new password with it.
@Suite("Account recovery")
struct AccountRecoveryTests {
    static let secret = Base64URL.encode(Data(repeating: 42, count: 32))
    /// The account key wrapped for a new recovery code (its bytes do not matter to the server).
    static let wrapped = Base64URL.encode(Data(repeating: 9, count: 60))

    /// A new recovery code for the account whose password's login secret is `password`.
    static func setup(_ secret: String = secret, wrapped: String = wrapped, password: String = "login secret one") -> RecoverySetup {
        RecoverySetup(recoverySecret: secret, wrappedByRecovery: wrapped, password: password)
    }

    @Test("the recovery secret gives back the keys and sets a new password; every session ends")
    func recover() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keys = AccountKeysTests.keys()
            let token = try await client.send(.post, "/v1/accounts", json: Credentials(username: "grace", password: "login secret one", keys: keys))
                .decode(SessionResponse.self).token
            // A new recovery code: refused without a session, malformed, or for a wrong password, changing nothing.
            let refusals: [(String?, RecoverySetup, HTTPResponse.Status)] = [
                (nil, Self.setup(), .unauthorized), (token, Self.setup("short"), .badRequest), (token, Self.setup(wrapped: "short"), .badRequest),
                (token, Self.setup(password: "login secret two"), .unauthorized),
            ]
            for (session, setup, status) in refusals {
                #expect(try await client.send(.put, "/v1/accounts/current/recovery", token: session, json: setup).status == status)
            }
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == keys)
            #expect(try await client.send(.put, "/v1/accounts/current/recovery", token: token, json: Self.setup()).status == .noContent)

            // The code's secret gives back the key material, the account key wrapped for it and nothing else changed.
            let read = try await client.send(.post, "/v1/accounts/recovery", json: RecoveryRequest(username: "GRACE", recoverySecret: Self.secret))
            #expect(read.status == .ok)
            var rewrapped = keys
            rewrapped.wrappedByRecovery = Self.wrapped
            #expect(try read.decode(AccountKeys.self) == rewrapped)
            // A newer code replaces it: the older one opens nothing.
            let newer = Base64URL.encode(Data(repeating: 43, count: 32))
            #expect(try await client.send(.put, "/v1/accounts/current/recovery", token: token, json: Self.setup(newer)).status == .noContent)
            #expect(try await client.send(.post, "/v1/accounts/recovery", json: RecoveryRequest(username: "grace", recoverySecret: newer)).status == .ok)
            #expect(try await client.send(.post, "/v1/accounts/recovery", json: RecoveryRequest(username: "grace", recoverySecret: Self.secret)).status
                    == .unauthorized)
            #expect(try await client.send(.put, "/v1/accounts/current/recovery", token: token, json: Self.setup()).status == .noContent)

            let changed = AccountKeysTests.keys(salt: 5, seed: 50)
            let reset = try await client.send(.put, "/v1/accounts/recovery", json: RecoveryRequest(
                username: "grace", recoverySecret: Self.secret, newPassword: "login secret two", keys: changed))
            #expect(reset.status == .noContent)
            #expect(try await client.send(.get, "/v1/accounts/current", token: token).status == .unauthorized, "every session ended")
            #expect(try await client.send(.post, "/v1/sessions", json: Credentials(username: "grace", password: "login secret one")).status == .unauthorized)
            let session = try await client.send(.post, "/v1/sessions", json: Credentials(username: "grace", password: "login secret two"))
            #expect(session.status == .created)
            let again = try session.decode(SessionResponse.self).token
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: again).decode(AccountKeys.self) == changed)
        }
    }

    @Test("an account registered with its recovery secret can be recovered at once; a secret without keys is not kept")
    func registeredWithTheSecret() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keys = AccountKeysTests.keys()
            let malformed = try await client.send(.post, "/v1/accounts", json: Credentials(
                username: "eve", password: "login secret one", keys: keys, recoverySecret: "short"))
            #expect(malformed.status == .badRequest)
            #expect(try await client.send(.get, "/v1/login-parameters?username=eve").decode(LoginParameters.self) != keys.kdf, "no account was made")
            let alone = try await client.send(.post, "/v1/accounts", json: Credentials(username: "eve", password: "login secret one", recoverySecret: Self.secret))
            #expect(alone.status == .created)
            #expect(try await client.send(.post, "/v1/accounts/recovery", json: RecoveryRequest(username: "eve", recoverySecret: Self.secret)).status
                    == .unauthorized, "an account without keys keeps no recovery secret")
            let eve = try alone.decode(SessionResponse.self).token
            #expect(try await client.send(.put, "/v1/accounts/current/recovery", token: eve, json: Self.setup()).status == .notFound,
                    "nor takes a new one")

            let made = try await client.send(.post, "/v1/accounts", json: Credentials(
                username: "grace", password: "login secret one", keys: keys, recoverySecret: Self.secret))
            #expect(made.status == .created)
            let read = try await client.send(.post, "/v1/accounts/recovery", json: RecoveryRequest(username: "grace", recoverySecret: Self.secret))
            #expect(try read.decode(AccountKeys.self) == keys)
        }
    }

    @Test("a wrong secret, a name with no account or no recovery secret, or an incomplete reset opens nothing and changes nothing")
    func refused() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keys = AccountKeysTests.keys()
            let token = try await client.send(.post, "/v1/accounts", json: Credentials(username: "grace", password: "login secret one", keys: keys))
                .decode(SessionResponse.self).token
            let wrong = Base64URL.encode(Data(repeating: 7, count: 32))
            #expect(try await client.send(.post, "/v1/accounts/recovery", json: RecoveryRequest(username: "grace", recoverySecret: Self.secret)).status == .unauthorized,
                    "no recovery secret kept yet")
            #expect(try await client.send(.put, "/v1/accounts/current/recovery", token: token, json: Self.setup()).status == .noContent)
            for request in [RecoveryRequest(username: "grace", recoverySecret: wrong), RecoveryRequest(username: "nobody", recoverySecret: Self.secret)] {
                let answer = try await client.send(.post, "/v1/accounts/recovery", json: request)
                #expect(answer.status == .unauthorized && answer.errorCode == .unauthorized)
            }
            let wrongReset = try await client.send(.put, "/v1/accounts/recovery", json: RecoveryRequest(
                username: "grace", recoverySecret: wrong, newPassword: "login secret two", keys: AccountKeysTests.keys(salt: 5, seed: 50)))
            #expect(wrongReset.status == .unauthorized)
            let incomplete = try await client.send(.put, "/v1/accounts/recovery", json: RecoveryRequest(
                username: "grace", recoverySecret: Self.secret, newPassword: "login secret two"))
            #expect(incomplete.status == .badRequest)
            var kept = keys
            kept.wrappedByRecovery = Self.wrapped
            #expect(try await client.send(.get, "/v1/accounts/current/keys", token: token).decode(AccountKeys.self) == kept, "nothing changed")
            #expect(try await client.send(.post, "/v1/sessions", json: Credentials(username: "grace", password: "login secret one")).status == .created)
        }
    }
}
