import Foundation
import NoteTakerKit
import NoteTakerSync
import Testing

/// Settings → Sync account, for an end-to-end encrypted account: locking this device and
/// unlocking it with the password (`POST /api/v1/sync/account/lock` and `…/unlock`).
extension SyncAPITests {
    @Test("a locked device says so, syncs nothing, refuses a wrong password, and syncs once unlocked")
    func lockAndUnlock() async throws {
        try await withServer { server in
            let app = try WebTestApp()
            let note = try app.store.createNote(NoteDraft(title: "Kept while locked"))
            try await app.test { client in
                // Nothing to lock before there is an encrypted account.
                #expect(try await client.send(.post, "/api/v1/sync/account/lock").status == .conflict)
                let registered = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "correct horse", "register": true,
                ])
                #expect(registered.status == .created && registered.object["locked"] as? Bool == false)
                #expect(try await client.send(.post, "/api/v1/sync/now").status == .ok)

                let locked = try await client.send(.post, "/api/v1/sync/account/lock")
                #expect(locked.status == .ok && locked.object["locked"] as? Bool == true && locked.object["encrypted"] as? Bool == true)
                #expect((locked.object["state"] as? [String: Any])?["watching"] as? Bool == false, "nothing syncs while locked")
                _ = try app.store.updateNote(id: note.id, body: "written while locked")
                let refused = try await client.send(.post, "/api/v1/sync/now")
                #expect(refused.status == .conflict && refused.errorCode == "keys_missing")

                #expect(try await client.send(.post, "/api/v1/sync/account/unlock", json: ["password": ""]).status == .badRequest)
                let wrong = try await client.send(.post, "/api/v1/sync/account/unlock", json: ["password": "not the password"])
                #expect(wrong.status == .forbidden && wrong.errorCode == "wrong_password")
                #expect(try await client.send(.get, "/api/v1/sync").object["locked"] as? Bool == true)

                let unlocked = try await client.send(.post, "/api/v1/sync/account/unlock", json: ["password": "correct horse"])
                #expect(unlocked.status == .ok && unlocked.object["locked"] as? Bool == false)
                #expect(try await client.send(.post, "/api/v1/sync/now").status == .ok)
                #expect(try app.store.syncSummary().pending == 0)
            }
            let other = try WebTestApp().store
            try await other.logInToSyncAccount(server: server, username: "ada", password: "correct horse", allowInsecure: false, allowingUnencrypted: false)
            try await other.syncEngine(transport: try other.syncTransport()).sync()
            #expect(try other.note(id: note.id).body == "written while locked")
        }
    }
}
