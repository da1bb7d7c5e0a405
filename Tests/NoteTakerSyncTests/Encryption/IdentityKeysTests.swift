import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Accounts' identity keys on the devices (docs/sharing.md §2): made with an account's other
/// keys, or at the first log-in of an account made before them; opened by every device of the
/// account; and compared between two people through their safety number, each device keeping
/// the other's keys and flagging a change.
@Suite struct IdentityKeysTests {
    private static let password = "the password"

    private static func register(_ name: String, on server: LiveServer) async throws -> NoteStore {
        let store = try EncryptedAccountTests.device()
        _ = try await store.registerEncryptedSyncAccount(
            server: server.url, username: name, password: password, allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
        return store
    }

    private static func logIn(_ name: String, on server: LiveServer) async throws -> NoteStore {
        let store = try EncryptedAccountTests.device()
        _ = try await store.logInToSyncAccount(
            server: server.url, username: name, password: password, allowInsecure: false, allowingUnencrypted: false, minimumCost: 1 << 14)
        return store
    }

    @Test("a new encrypted account has identity keys; its other devices open the same ones, and the server tells only their public halves")
    func madeWithTheAccount() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Self.register("grace", on: server)
            let identity = try #require(try laptop.syncKeyring()?.identityKeys?.identity)
            let phone = try await Self.logIn("grace", on: server)
            #expect(try phone.syncKeyring()?.identityKeys == laptop.syncKeyring()?.identityKeys)
            #expect(try await laptop.syncTransport().identity(of: "Grace") == identity)
            // A device locked and unlocked keeps them.
            try await phone.lockSyncAccount()
            try await phone.unlockSyncAccount(password: Self.password, minimumCost: 1 << 14)
            #expect(try phone.syncKeyring()?.identityKeys?.identity == identity)
        }
    }

    @Test("an account made before identity keys gets them at its next log-in; a device logged in before learns them when it meets the keys")
    func madeAtTheNextLogIn() async throws {
        try await withLiveServer { server, _ in
            // Registered as a version before identity keys did: its material has none.
            let parameters = EncryptedAccountTests.cheap()
            let keys = try PasswordKeys(password: Self.password, parameters: parameters, minimumCost: 1 << 14)
            let made = try AccountKeyring.create(account: "grace", password: keys, parameters: parameters)
            var material = made.material
            material.identity = nil
            let secret = keys.loginSecretText
            _ = try await HTTPSyncTransport(server: server.url, token: nil)
                .register(username: "grace", password: secret, keys: material, recoverySecret: made.recovery.recoverySecretText)
            let ines = try await Self.register("ines", on: server)
            await #expect(throws: SyncError.self) { try await ines.syncTransport().identity(of: "grace") }

            let laptop = try await Self.logIn("grace", on: server)
            let identity = try #require(try laptop.syncKeyring()?.identityKeys?.identity)
            #expect(try await ines.syncTransport().identity(of: "grace") == identity)
            #expect(try await laptop.syncTransport().accountKeys().identity?.identity == identity)
            let phone = try await Self.logIn("grace", on: server)
            #expect(try phone.syncKeyring()?.identityKeys?.identity == identity, "the second device opens the first one's, not new ones")
            let learned = try await laptop.learnSyncKeys(transport: try laptop.syncTransport())
            #expect(learned?.identityKeys?.identity == identity)
        }
    }

    @Test("two people see the same safety number; each device keeps the other's keys, flags a change, and keeps the new ones only when confirmed")
    func safetyNumbers() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Self.register("ines", on: server)
            let bob = try await Self.register("bob", on: server)
            let seenByInes = try await ines.checkIdentity(of: "Bob")
            let seenByBob = try await bob.checkIdentity(of: "ines")
            #expect(seenByInes.safetyNumber == seenByBob.safetyNumber)
            #expect(seenByInes.safetyNumber.wholeMatch(of: /[0-9]{5}( [0-9]{5}){5}/) != nil, "\(seenByInes.safetyNumber)")
            #expect(seenByInes.sighting == .first && seenByInes.account == "bob")
            #expect(try await ines.checkIdentity(of: "bob").sighting == .same)

            // Keys that are not the ones kept (the server lies, or bob reset his account).
            let other = AccountIdentity(agreement: Base64URL.encode(Data(repeating: 7, count: 32)), signing: Base64URL.encode(Data(repeating: 8, count: 32)))
            try bob.confirmIdentity(of: "ines", other)
            let flagged = try await bob.checkIdentity(of: "ines")
            guard case .changed = flagged.sighting else { Issue.record("a change was not flagged: \(flagged)"); return }
            #expect(try await bob.checkIdentity(of: "ines").sighting == flagged.sighting, "still flagged until confirmed")
            #expect(try await bob.checkIdentity(of: "ines", confirming: true).sighting == .confirmed)
            #expect(try await bob.checkIdentity(of: "ines").sighting == .same)

            await #expect(throws: SyncError.self) { try await ines.checkIdentity(of: "nobody") }
            let plain = try EncryptedAccountTests.device()
            // The account withLiveServer made, without encryption.
            _ = try await plain.connectSyncAccount(server: server.url, username: "ada", password: "correct horse", register: false, allowInsecure: false)
            await #expect(throws: SyncError.identityNeedsEncryption) { try await plain.checkIdentity(of: "ines") }
        }
    }
}
