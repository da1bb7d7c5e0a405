import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NoteTakerKit
import NoteTakerServer
import ServiceLifecycle
@testable import NoteTakerWeb
import Testing
import NoteTakerSync

/// Settings' sync account, status, preferences and conflicts, against a real sync server on loopback.
@Suite struct SyncAPITests {
    /// Runs `body` with a sync server on a free loopback port.
    func withServer(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-web-sync-\(UUID().uuidString)")
        let configuration = ServerConfiguration(dataDirectory: directory, port: 0, passwordHasher: .fastForTests)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var quiet = Logger(label: "notetaker-server-test")
        quiet.logLevel = .warning
        let server = try await buildApplication(configuration, logger: quiet) { port in continuation.yield(port) }
        // Stopped gracefully: cancelling a server with connections open can trap in NIO.
        let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [], logger: server.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        do {
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await task.value
    }

    @Test func logInSyncAndLogOut() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            let note = try app.store.createNote(NoteDraft(title: "From the web app"))
            try await app.test { client in
                let before = try await client.send(.get, "/api/v1/sync")
                #expect(before.object["loggedIn"] as? Bool == false && before.object["server"] is NSNull)
                let registered = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "correct horse", "register": true,
                ])
                #expect(registered.status == .created)
                #expect(registered.object["loggedIn"] as? Bool == true && registered.object["username"] as? String == "ada")
                // Registered from the page, an account is end-to-end encrypted, its recovery code answered once.
                #expect(registered.object["encrypted"] as? Bool == true)
                let code = try #require(registered.object["recoveryCode"] as? String)
                #expect(throws: Never.self) { try RecoveryCode(code: code) }
                let status = try await client.send(.get, "/api/v1/sync")
                #expect(status.object["encrypted"] as? Bool == true && status.object["recoveryCode"] == nil)
                let synced = try await client.send(.post, "/api/v1/sync/now")
                #expect(synced.status == .ok)
                let summary = try #require(synced.object["summary"] as? [String: Any])
                #expect(summary["pending"] as? Int == 0 && !(summary["lastSyncedAt"] is NSNull))
                let read = try await client.send(.get, "/api/v1/notes/\(note.id)")
                #expect((read.object["sync"] as? [String: Any])?["status"] as? String == "synced")
                let loggedOut = try await client.send(.delete, "/api/v1/sync/account")
                #expect(loggedOut.object["loggedIn"] as? Bool == false)
                let notConfigured = try await client.send(.post, "/api/v1/sync/now")
                #expect(notConfigured.status == .conflict && notConfigured.errorCode == "not_logged_in")
            }
            let other = try WebTestApp().store  // on disk: the keys are kept beside the store
            try await other.logInToSyncAccount(
                server: server, username: "ada", password: "correct horse", allowInsecure: false, allowingUnencrypted: false)
            try await other.syncEngine(transport: try other.syncTransport()).sync()
            #expect(try other.notes().map(\.title) == ["From the web app"])
        }
    }

    @Test("an account without encryption: made only when asked, and logged in to only when allowed")
    func unencryptedAccount() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            try await app.test { client in
                let registered = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "bob", "password": "correct horse", "register": true, "unencrypted": true,
                ])
                #expect(registered.status == .created && registered.object["encrypted"] as? Bool == false)
                #expect(registered.object["recoveryCode"] == nil)
                _ = try await client.send(.delete, "/api/v1/sync/account")
                let refused = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "bob", "password": "correct horse",
                ])
                #expect(refused.status == .conflict && refused.errorCode == "unencrypted_account")
                #expect(try await client.send(.get, "/api/v1/sync").object["loggedIn"] as? Bool == false)
                let allowed = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "bob", "password": "correct horse", "unencrypted": true,
                ])
                #expect(allowed.status == .created && allowed.object["encrypted"] as? Bool == false)
                let noCode = try await client.send(.post, "/api/v1/sync/account/recovery-code", json: ["password": "correct horse"])
                #expect(noCode.status == .conflict && noCode.errorCode == "not_encrypted")
                let noKeys = try await client.send(.post, "/api/v1/sync/account/rotate-keys", json: ["password": "correct horse"])
                #expect(noKeys.status == .conflict && noKeys.errorCode == "not_encrypted")
                // Turning encryption on: what is missing, the same password, a wrong one; each changes nothing.
                let encrypt = { (current: String, new: String) in
                    try await client.send(.post, "/api/v1/sync/account/encrypt", json: ["currentPassword": current, "newPassword": new])
                }
                #expect(try await encrypt("", "a new long password").status == .badRequest)
                let same = try await encrypt("correct horse", "correct horse")
                #expect(same.status == .conflict && same.errorCode == "cannot_encrypt")
                #expect(try await encrypt("not the password", "a new long password").status == .badGateway)
                #expect(try await client.send(.get, "/api/v1/sync").object["encrypted"] as? Bool == false)
                #expect(try await client.send(.get, "/api/v1/sync").object["loggedIn"] as? Bool == true)
            }
        }
    }

    @Test("a lost password is replaced with the recovery code; a wrong code changes nothing")
    func recoveryCode() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            try app.store.createNote(NoteDraft(title: "Kept through recovery"))
            try await app.test { client in
                let registered = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "forgotten password", "register": true,
                ])
                let code = try #require(registered.object["recoveryCode"] as? String)
                #expect(try await client.send(.post, "/api/v1/sync/now").status == .ok)
                _ = try await client.send(.delete, "/api/v1/sync/account")
                let recover = { (code: String, newPassword: String) in
                    try await client.send(.post, "/api/v1/sync/account/recover", json: [
                        "server": server.absoluteString, "username": "ada", "recoveryCode": code, "newPassword": newPassword,
                    ])
                }
                let malformed = try await recover("not a code", "a new password")
                #expect(malformed.status == .badRequest && malformed.errorCode == "invalid_input")
                let wrong = try await recover(RecoveryCode().code, "a new password")
                #expect(wrong.status == .badGateway, "a well-formed code of no account is refused by the server")
                #expect(try await recover(code, "").status == .badRequest)
                #expect(try await client.send(.get, "/api/v1/sync").object["loggedIn"] as? Bool == false)
                // Typed as people type it: lower case, without its hyphens.
                let typed = code.lowercased().replacingOccurrences(of: "-", with: " ")
                let recovered = try await recover(typed, "a new password")
                #expect(recovered.status == .ok)
                #expect(recovered.object["loggedIn"] as? Bool == true && recovered.object["encrypted"] as? Bool == true)

                // A new code for the password; the one used above then opens nothing.
                let wrongPassword = try await client.send(.post, "/api/v1/sync/account/recovery-code", json: ["password": "forgotten password"])
                #expect(wrongPassword.status == .badGateway)
                let made = try await client.send(.post, "/api/v1/sync/account/recovery-code", json: ["password": "a new password"])
                #expect(made.status == .created)
                let newCode = try #require(made.object["recoveryCode"] as? String)
                #expect(newCode != code)
                #expect(try await recover(code, "a third password").status == .badGateway, "the old code no longer works")
                #expect(try await recover(newCode, "a new password").status == .ok)

                // A new encryption key, for the password.
                #expect(try await client.send(.post, "/api/v1/sync/account/rotate-keys", json: ["password": ""]).status == .badRequest)
                #expect(try await client.send(.post, "/api/v1/sync/account/rotate-keys", json: ["password": "a third password"]).status
                        == .badGateway)
                let rotated = try await client.send(.post, "/api/v1/sync/account/rotate-keys", json: ["password": "a new password"])
                #expect(rotated.status == .ok)
                #expect(rotated.object["version"] as? Int == 2 && (rotated.object["pending"] as? Int ?? 0) >= 1)
            }
            let other = try WebTestApp().store
            await #expect(throws: SyncError.self) {
                try await other.logInToSyncAccount(
                    server: server, username: "ada", password: "forgotten password", allowInsecure: false, allowingUnencrypted: false)
            }
            try await other.logInToSyncAccount(
                server: server, username: "ada", password: "a new password", allowInsecure: false, allowingUnencrypted: false)
            try await other.syncEngine(transport: try other.syncTransport()).sync()
            #expect(try other.notes().map(\.title) == ["Kept through recovery"])
            #expect(try other.syncKeyring()?.newestVersion == 2)
        }
    }

    @Test func badAccountInputIsRefusedAndChangesNothing() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            try await app.test { client in
                _ = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "correct horse", "register": true,
                ])
                _ = try await client.send(.delete, "/api/v1/sync/account")
                let cases: [([String: Any], HTTPResponse.Status)] = [
                    (["server": server.absoluteString, "username": "ada", "password": "wrong password"], .badGateway),
                    (["server": "not a server", "username": "ada", "password": "x"], .badRequest),
                    (["server": "ftp://example.com", "username": "ada", "password": "x"], .badRequest),
                    (["server": "http://notes.example.com", "username": "ada", "password": "x"], .badRequest),
                    (["server": server.absoluteString, "username": "", "password": "x"], .badRequest),
                    (["server": server.absoluteString, "username": "ada"], .badRequest),
                    (["server": "http://127.0.0.1:9", "username": "ada", "password": "x"], .badGateway),
                ]
                for (body, status) in cases {
                    let response = try await client.send(.post, "/api/v1/sync/account", json: body)
                    #expect(response.status == status, "\(body)")
                    #expect(!(response.object["message"] as? String ?? "").isEmpty)
                }
                let after = try await client.send(.get, "/api/v1/sync")
                #expect(after.object["loggedIn"] as? Bool == false && after.object["server"] is NSNull)
            }
        }
    }

    @Test func preferences() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let bad = try await client.send(.put, "/api/v1/sync/settings", json: ["mergePolicy": "coin-toss", "autoSync": false])
            #expect(bad.status == .badRequest)
            #expect(try app.store.syncSettings().autoSync, "a refused request changes nothing")
            let good = try await client.send(.put, "/api/v1/sync/settings", json: ["mergePolicy": "server-wins", "autoSync": false])
            #expect(good.object["mergePolicy"] as? String == "server-wins" && good.object["autoSync"] as? Bool == false)
            #expect(try await client.send(.post, "/api/v1/sync/retry").object["retried"] as? Int == 0)
        }
    }

    @Test func aConflictIsShownAndResolved() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            let session = try await app.store.connectSyncAccount(
                server: server, username: "ada", password: "correct horse", register: true, allowInsecure: false)
            let web = try app.store.syncEngine(transport: try app.store.syncTransport())
            let other = try NoteStore.inMemory()
            let otherEngine = SyncEngine(store: other, transport: try HTTPSyncTransport(server: server, token: session.token))
            let note = try app.store.createNote(NoteDraft(title: "Shopping", body: "milk\neggs"))
            try await web.sync()
            try await otherEngine.sync()
            _ = try other.updateNote(id: note.id, body: "milk\nbrown eggs")
            _ = try app.store.updateNote(id: note.id, body: "milk\nsix eggs")
            try await otherEngine.sync()
            try await web.sync()
            try await app.test { client in
                let conflicts = try await client.send(.get, "/api/v1/conflicts").array
                #expect(conflicts.count == 1)
                #expect(conflicts.first?["localBody"] as? String == "milk\nsix eggs")
                #expect(conflicts.first?["serverBody"] as? String == "milk\nbrown eggs")
                let read = try await client.send(.get, "/api/v1/notes/\(note.id)")
                #expect((read.object["sync"] as? [String: Any])?["status"] as? String == "conflict")
                let bogus = try await client.send(.post, "/api/v1/conflicts/\(note.id)/resolve", json: ["keep": "neither"])
                #expect(bogus.status == .badRequest)
                let resolved = try await client.send(.post, "/api/v1/conflicts/\(note.id)/resolve", json: ["keep": "server"])
                #expect(resolved.status == .ok && resolved.object["body"] as? String == "milk\nbrown eggs")
                #expect(try await client.send(.get, "/api/v1/conflicts").array.isEmpty)
            }
        }
    }

    @Test func sessionsAreListedAndAnotherDeviceLoggedOut() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            try await app.test { client in
                let none = try await client.send(.get, "/api/v1/sync/sessions")
                #expect(none.status == .conflict && none.errorCode == "not_logged_in")
                _ = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "correct horse", "register": true, "unencrypted": true,
                ])
                let phone = try await HTTPSyncTransport(server: server, token: nil)
                    .login(username: "ada", password: "correct horse", deviceName: "Phone").token
                let listed = try #require(try await client.send(.get, "/api/v1/sync/sessions").object["sessions"] as? [[String: Any]])
                #expect(listed.count == 2)
                let phoneId = try #require(listed.first { $0["deviceName"] as? String == "Phone" }?["id"] as? String)
                #expect(listed.first { $0["current"] as? Bool == true }?["id"] as? String != phoneId)
                for id in ["0123456789abcdef", "not-hex"] {
                    let unknown = try await client.send(.delete, "/api/v1/sync/sessions/\(id)")
                    #expect(unknown.status == .notFound && unknown.errorCode == "not_found", "\(id)")
                }
                #expect(try await client.send(.delete, "/api/v1/sync/sessions/\(phoneId)").status == .noContent)
                let left = try #require(try await client.send(.get, "/api/v1/sync/sessions").object["sessions"] as? [[String: Any]])
                #expect(left.map { $0["current"] as? Bool } == [true])
                await #expect(throws: SyncError.self) {
                    try await HTTPSyncTransport(server: server, token: phone).accountStatus()
                }
            }
        }
    }
}
