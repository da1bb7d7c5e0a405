import Foundation
import Hummingbird
import HummingbirdTesting
@testable import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@Suite("Accounts")
struct AccountTests {
    @Test("register, log in, log out: a revoked token is refused")
    func sessions() async throws {
        try await TestServer().test { client in
            let first = try await client.register("ada")
            let login = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ADA", password: "correct horse"))
            #expect(login.status == .created)
            let second = try login.decode(SessionResponse.self).token
            #expect(second != first)

            let status = try await client.send(.get, "/v1/accounts/current", token: second)
            #expect(try status.decode(AccountStatus.self).username == "ada")

            #expect(try await client.send(.delete, "/v1/sessions/current", token: second).status == .noContent)
            let after = try await client.send(.get, "/v1/accounts/current", token: second)
            #expect(after.status == .unauthorized)
            #expect(after.errorCode == .sessionEnded)
            #expect(try await client.send(.get, "/v1/accounts/current", token: first).status == .ok)
        }
    }

    @Test("the server keeps only hashes of passwords and tokens")
    func onlyHashesStored() async throws {
        let server = try await TestServer()
        let token = try await server.test { try await $0.register("ada", password: "a very secret pass") }
        let data = try await TestStorage.storedAccountBytes(server.configuration)
        #expect(data.range(of: Data("ada".utf8)) != nil, "the account is not where the test looks")
        #expect(data.range(of: Data("a very secret pass".utf8)) == nil)
        #expect(data.range(of: Data(token.utf8)) == nil)
    }

    @Test("a taken name, a bad name, a short password and malformed JSON are refused")
    func badRegistrations() async throws {
        try await TestServer().test { client in
            _ = try await client.register("ada")
            let taken = try await client.send(.post, "/v1/accounts", json: Credentials(username: "Ada", password: "another one"))
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == .accountExists)
            let badName = try await client.send(.post, "/v1/accounts", json: Credentials(username: "../etc", password: "long enough"))
            #expect(badName.status == .badRequest)
            let short = try await client.send(.post, "/v1/accounts", json: Credentials(username: "bob", password: "short"))
            #expect(short.status == .badRequest)
            let malformed = try await client.send(.post, "/v1/accounts", raw: "{\"username\": \"bob\"")
            #expect(malformed.status == .badRequest)
            let missing = try await client.send(.post, "/v1/accounts", raw: "{\"username\": \"bob\"}")
            #expect(missing.status == .badRequest)
            #expect(try missing.decode(APIErrorBody.self).message.contains("password"))
            // Nothing was created by the refused attempts.
            let login = try await client.send(.post, "/v1/sessions", json: Credentials(username: "bob", password: "long enough"))
            #expect(login.status == .unauthorized)
        }
    }

    @Test("repeated failed logins must wait, even with the right password")
    func throttled() async throws {
        try await TestServer().test { client in
            _ = try await client.register("ada")
            for _ in 0..<5 {
                let wrong = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "wrong password"))
                #expect(wrong.status == .unauthorized)
            }
            let blocked = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] != nil)
            #expect(blocked.errorCode == .tooManyRequests)
        }
    }

    @Test("two nodes on one database share sessions and failed log-ins", .enabled(if: TestStorage.usesPostgres))
    func throttledAcrossNodes() async throws {
        let first = try await TestServer()
        let second = try await TestServer(sharing: first)
        let session = try await first.service.register(Credentials(username: "ada", password: "correct horse"))
        #expect(try await second.service.authenticate(token: session.token).username == "ada")
        for _ in 0..<5 {
            await #expect(throws: SyncServerError.wrongCredentials) {
                try await first.service.login(Credentials(username: "ada", password: "wrong password"), from: "203.0.113.7")
            }
        }
        await #expect(throws: SyncServerError.self) {
            try await second.service.login(Credentials(username: "ada", password: "correct horse"), from: "203.0.113.7")
        }
        // From another address the owner still logs in, on either node.
        _ = try await second.service.login(Credentials(username: "ada", password: "correct horse"), from: "198.51.100.1")
    }

    @Test("20 wrong passwords sent at once: only 5 are checked, and the owner elsewhere still logs in")
    func parallelGuesses() async throws {
        let server = try await TestServer()
        let service = server.service
        _ = try await service.addAccount(Credentials(username: "ada", password: "correct horse"))
        let outcomes = await withTaskGroup(of: SyncServerError?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    do {
                        _ = try await service.login(Credentials(username: "ada", password: "guess \(index)"), from: "203.0.113.9")
                        return nil
                    } catch {
                        return error as? SyncServerError
                    }
                }
            }
            return await group.reduce(into: [SyncServerError?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0?.code == .unauthorized }.count == 5)
        // The attacker's address is slowed down (those 15 were told to wait); the owner, from
        // another, is not. (Asking again from the attacker's address would race the 30 s wait,
        // which a busy machine can outlast before the next line runs.)
        #expect(outcomes.filter { $0?.code == .tooManyRequests }.count == 15)
        _ = try await service.login(Credentials(username: "ada", password: "correct horse"), from: "198.51.100.4")
    }

    @Test("one address guessing across many names is slowed down too; memory stays bounded")
    func manyNames() async throws {
        let throttle = LoginThrottle(capacity: 100)
        let now = Date()
        for index in 0..<20 {
            #expect(await throttle.begin(username: "user\(index)", address: "203.0.113.9", now: now) == nil)
        }
        #expect(await throttle.begin(username: "someone else", address: "203.0.113.9", now: now) != nil)
        for index in 0..<1_000 {
            _ = await throttle.begin(username: "name\(index)", address: "198.51.100.\(index % 250)", now: now.addingTimeInterval(Double(index)))
        }
        #expect(await throttle.remembered <= 2 * 101)
    }

    @Test("changing the password ends other sessions; the old password stops working")
    func changePassword() async throws {
        try await TestServer().test { client in
            let first = try await client.register("ada")
            let second = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
                .decode(SessionResponse.self).token
            let wrong = try await client.send(.put, "/v1/accounts/current/password", token: first,
                                              json: PasswordChange(currentPassword: "nope nope", newPassword: "battery staple"))
            #expect(wrong.status == .unauthorized)
            let short = try await client.send(.put, "/v1/accounts/current/password", token: first,
                                              json: PasswordChange(currentPassword: "correct horse", newPassword: "tiny"))
            #expect(short.status == .badRequest)
            let changed = try await client.send(.put, "/v1/accounts/current/password", token: first,
                                                json: PasswordChange(currentPassword: "correct horse", newPassword: "battery staple"))
            #expect(changed.status == .noContent)
            #expect(try await client.send(.get, "/v1/accounts/current", token: first).status == .ok)
            #expect(try await client.send(.get, "/v1/accounts/current", token: second).status == .unauthorized)
            let old = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
            #expect(old.status == .unauthorized)
            let new = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "battery staple"))
            #expect(new.status == .created)
        }
    }

    @Test("health answers without a token; every account route refuses a missing or made-up token")
    func tokensRequired() async throws {
        try await TestServer().test { (client: any TestClientProtocol) async throws in
            let health = try await client.send(.get, "/v1/health").decode(HealthResponse.self)
            #expect(health.status == "ok")
            for (method, path) in [(HTTPRequest.Method.get, "/v1/accounts/current"), (.get, "/v1/changes"), (.post, "/v1/records/modify"),
                                   (.delete, "/v1/sessions/current"), (.get, "/v1/events"), (.put, "/v1/accounts/current/password"),
                                   (.get, "/v1/assets/\(String(repeating: "a", count: 64))"), (.get, "/v1/sessions"),
                                   (.delete, "/v1/sessions/0123456789abcdef")] {
                let anonymous = try await client.send(method, path)
                let madeUp = try await client.send(method, path, token: "made-up")
                #expect(anonymous.status == .unauthorized, "\(path)")
                #expect(madeUp.status == .unauthorized, "\(path)")
            }
        }
    }

    @Test("with registration closed, nobody can register; an account added on the server's machine logs in")
    func closedRegistration() async throws {
        let server = try await TestServer(registrationOpen: false)
        try await server.test { client in
            let refused = try await client.send(.post, "/v1/accounts", json: Credentials(username: "eve", password: "correct horse"))
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == .registrationClosed)
            #expect(try await server.service.storage.account(named: "eve") == nil)
            _ = try await server.service.addAccount(Credentials(username: "ada", password: "correct horse"))
            let login = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
            #expect(login.status == .created)
        }
    }

    @Test("a server that requires encryption refuses an account without keys, and takes one with them")
    func requiredEncryption() async throws {
        let server = try await TestServer(requiresEncryption: true)
        try await server.test { client in
            let refused = try await client.send(.post, "/v1/accounts", json: Credentials(username: "eve", password: "correct horse"))
            #expect(refused.status == .forbidden && refused.errorCode == .registrationClosed)
            #expect(try refused.decode(APIErrorBody.self).message.contains("only end-to-end encrypted accounts"))
            #expect(try await server.service.storage.account(named: "eve") == nil, "nothing kept")
            let made = try await client.send(.post, "/v1/accounts", json: Credentials(
                username: "grace", password: "login secret one", keys: AccountKeysTests.keys()))
            #expect(made.status == .created)
        }
    }
}

@Suite("Session lifetimes")
struct SessionLifetimeTests {
    static let day: Double = 86_400
    static let cases: [(Double, Double, Double, SessionLifetime.Verdict)] = [
        // (created, last used, now, verdict)
        (0, 0, 10, .live(touch: false)),
        (0, 0, 3_601, .live(touch: true)),
        (0, 100 * day, 100 * day + 10, .live(touch: false)),
        (0, 0, 61 * day, .expired("This device's session went unused for over 60 days and has ended; log in again.")),
        (0, 364 * day, 366 * day, .expired("This device's session began over 365 days ago and has ended; log in again.")),
    ]

    @Test("the rule: too old, or unused too long, ends a session; use is written at most hourly")
    func rule() {
        for (created, lastUsed, now, verdict) in Self.cases {
            #expect(SessionLifetime.standard.judge(createdAt: created, lastUsedAt: lastUsed, now: now) == verdict, "\(created) \(lastUsed) \(now)")
        }
    }

    @Test("an expired session answers sessionEnded with its reason, once, and is gone")
    func expiredSessionsEnd() async throws {
        let server = try await TestServer()
        // Unused for 61 days (its last use set back): ended as idle.
        let (_, idleToken) = try await server.account("idle")
        try await server.service.storage.touchSession(tokenHash: SessionToken.hash(idleToken), at: Date().timeIntervalSince1970 - 61 * 86_400)
        // Older than a lifetime of 2 s, however busy the machine: ended as too old.
        let brief = SyncService(storage: server.service.storage, assets: server.service.assets, quotaBytes: 1 << 30,
                                hasher: .fastForTests, sessionLifetime: SessionLifetime(idle: 1_000, absolute: 2))
        let old = try await brief.register(Credentials(username: "old", password: "correct horse"))
        try await Task.sleep(for: .seconds(3))
        for (service, token, words) in [(server.service, idleToken, "went unused for over 60 days"), (brief, old.token, "began over")] {
            do {
                _ = try await service.authenticate(token: token)
                Issue.record("an expired session was accepted")
            } catch {
                #expect(error.code == .sessionEnded && error.message.contains(words), "\(error.message)")
            }
            #expect(try await server.service.storage.session(hash: SessionToken.hash(token)) == nil, "the session is gone")
            await #expect(throws: SyncServerError.notLoggedIn) { _ = try await service.authenticate(token: token) }
        }
        _ = try await server.service.login(Credentials(username: "idle", password: "correct horse"), from: "192.0.2.9")
    }

    @Test("use is written when it is over an hour old, so a session in use never goes idle")
    func useIsRecorded() async throws {
        let server = try await TestServer()
        let (_, token) = try await server.account()
        let hash = SessionToken.hash(token)
        try await server.service.storage.touchSession(tokenHash: hash, at: Date().timeIntervalSince1970 - 7_200)
        _ = try await server.service.authenticate(token: token)
        let used = try #require(try await server.service.storage.session(hash: hash)).lastUsedAt
        #expect(Date().timeIntervalSince1970 - used < 60)
    }
}
