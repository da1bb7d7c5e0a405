import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// An end-to-end encrypted account through the store's account operations, as the command
/// line and the web app use them (docs/encryption.md §2.4, §2.5): registering, logging in on
/// another device, changing the password, recovering with the code; and the device's
/// defences: no password sent as it is without consent, nor ever to an account it knew
/// encrypted, nor stretched at a cost below this version's.
@Suite struct EncryptedAccountTests {
    /// Parameters the server keeps at their least cost, so that each stretch takes milliseconds.
    static func cheap() -> KDFParameters {
        var parameters = KDFParameters.fresh()
        parameters.n = 1 << 14
        return parameters
    }

    /// A store in a folder of its own (the keys and the token are kept beside it).
    static func device() throws -> NoteStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("encrypted-account-\(UUID())")
        return try NoteStore.open(at: folder.appendingPathComponent("NoteTaker.sqlite"))
    }

    static func sync(_ store: NoteStore) async throws {
        try await store.syncEngine(transport: try store.syncTransport()).sync()
    }

    @Test func registeredHereLoggedInThereChangedAndRecovered() async throws {
        try await withLiveServer { server, _ in
            let laptop = try Self.device()
            let made = try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            #expect(made.encrypted && made.session.username == "grace")
            let code = try #require(made.recoveryCode?.code)
            #expect(try laptop.syncSettings().encrypted)
            let keysFile = try #require(laptop.syncKeysURL)
            let mode = try FileManager.default.attributesOfItem(atPath: keysFile.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "only the owner may read the keys")
            let note = try laptop.createNote(NoteDraft(title: "Sealed plan", body: "nobody else reads this"))
            try await Self.sync(laptop)
            let held = try await SealedSyncTests.serverRecords(try laptop.syncTransport())
            #expect(!held.isEmpty && held.allSatisfy { $0.fields.isSealed })

            // Another device logs in with the password, by the server's parameters, and opens the notes.
            let phone = try Self.device()
            let joined = try await phone.logInToSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false, allowingUnencrypted: false, minimumCost: 1 << 14)
            #expect(joined.encrypted && joined.recoveryCode == nil)
            try await Self.sync(phone)
            #expect(try phone.note(id: note.id).body == "nobody else reads this")

            // A new password: the keys are wrapped again, the other session ends, the old password no longer works.
            try await laptop.changeSyncPassword(current: "first password", new: "second password", parameters: Self.cheap(), minimumCost: 1 << 14)
            await #expect(throws: SyncError.notLoggedIn) { try await Self.sync(phone) }
            await #expect(throws: SyncError.self) {
                try await Self.device().logInToSyncAccount(
                    server: server.url, username: "grace", password: "first password", allowInsecure: false, allowingUnencrypted: false, minimumCost: 1 << 14)
            }
            _ = try await phone.logInToSyncAccount(
                server: server.url, username: "grace", password: "second password", allowInsecure: false, allowingUnencrypted: false, minimumCost: 1 << 14)
            try await Self.sync(phone)

            // The password lost: the recovery code sets a third, and a new device reads every note.
            let spare = try Self.device()
            await #expect(throws: SyncError.badRecoveryCode) {
                try await spare.recoverSyncAccount(server: server.url, username: "grace", recoveryCode: String(code.dropLast(2)) + (code.hasSuffix("00") ? "11" : "00"),
                                                   newPassword: "third password", allowInsecure: false, minimumCost: 1 << 14)
            }
            let recovered = try await spare.recoverSyncAccount(
                server: server.url, username: "grace", recoveryCode: code.lowercased().replacingOccurrences(of: "-", with: " "),
                newPassword: "third password", allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            #expect(recovered.encrypted)
            try await Self.sync(spare)
            #expect(try spare.note(id: note.id).title == "Sealed plan")
            await #expect(throws: SyncError.notLoggedIn) { try await Self.sync(laptop) }
        }
    }

    @Test func aPasswordGoesAsItIsOnlyWithConsentAndNeverToAnAccountKnownEncrypted() async throws {
        try await withLiveServer { server, _ in
            // "ada" (made by withLiveServer) has no encryption.
            let device = try Self.device()
            await #expect(throws: SyncError.unencryptedAccount) {
                try await device.logInToSyncAccount(
                    server: server.url, username: "ada", password: "correct horse", allowInsecure: false, allowingUnencrypted: false)
            }
            #expect(device.syncToken() == nil, "nothing was kept")
            let plain = try await device.logInToSyncAccount(
                server: server.url, username: "ada", password: "correct horse", allowInsecure: false, allowingUnencrypted: true)
            let settings = try device.syncSettings()
            #expect(!plain.encrypted && !settings.encrypted)

            // A device that knew "grace" encrypted refuses to send her password when the server
            // later says she is not (her account replaced by one without encryption).
            let known = try Self.device()
            _ = try await known.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "secret words", allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            _ = try await known.disconnectSyncAccount()
            let account = try #require(try await server.service.storage.account(named: "grace"))
            _ = try await server.service.storage.deleteAccount(account.id)
            _ = try await HTTPSyncTransport(server: server.url, token: nil).register(username: "grace", password: "secret words")
            await #expect(throws: SyncError.encryptionDowngraded) {
                try await known.logInToSyncAccount(
                    server: server.url, username: "grace", password: "secret words", allowInsecure: false, allowingUnencrypted: true)
            }
            #expect(known.syncToken() == nil)
        }
    }

    @Test func parametersBelowThisVersionsCostAreRefusedBeforeAnythingIsSent() async throws {
        try await withLiveServer { server, _ in
            _ = try await Self.device().registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "secret words", allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            let device = try Self.device()
            // The server hands out 2^14, which the server keeps but this version does not stretch with.
            await #expect(throws: SyncError.self) {
                try await device.logInToSyncAccount(
                    server: server.url, username: "grace", password: "secret words", allowInsecure: false, allowingUnencrypted: false)
            }
            let settings = try device.syncSettings()
            #expect(device.syncToken() == nil && !settings.hasAccount)
        }
    }

    @Test func anEncryptedAccountWithoutItsKeysHereDoesNotSync() async throws {
        try await withLiveServer { server, _ in
            let device = try Self.device()
            _ = try await device.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "secret words", allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            try FileManager.default.removeItem(at: try #require(device.syncKeysURL))
            #expect(throws: SyncError.keysMissing) { try device.syncEngine(transport: try device.syncTransport()) }
        }
    }

    @Test("a logged-in device makes a new recovery code for the password: the old code opens nothing, the new one recovers")
    func aNewRecoveryCodeReplacesTheOld() async throws {
        try await withLiveServer { server, _ in
            let laptop = try Self.device()
            let made = try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            let old = try #require(made.recoveryCode?.code)
            let note = try laptop.createNote(NoteDraft(title: "Kept across codes"))
            try await Self.sync(laptop)
            await #expect(throws: SyncError.self, "a wrong password makes no code") {
                try await laptop.newRecoveryCode(password: "not the password", minimumCost: 1 << 14)
            }
            let new = try await laptop.newRecoveryCode(password: "first password", minimumCost: 1 << 14)
            #expect(new.code != old)
            let spare = try Self.device()
            await #expect(throws: SyncError.self, "the old code opens nothing") {
                try await spare.recoverSyncAccount(server: server.url, username: "grace", recoveryCode: old, newPassword: "second password",
                                                   allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            }
            try await spare.recoverSyncAccount(server: server.url, username: "grace", recoveryCode: new.code, newPassword: "second password",
                                               allowInsecure: false, parameters: Self.cheap(), minimumCost: 1 << 14)
            try await Self.sync(spare)
            #expect(try spare.note(id: note.id).title == "Kept across codes")

            let plain = try Self.device()
            try await plain.connectSyncAccount(server: server.url, username: "bob", password: "plain password", register: true, allowInsecure: false)
            await #expect(throws: SyncError.noRecoveryCode) { try await plain.newRecoveryCode(password: "plain password") }
        }
    }
}
