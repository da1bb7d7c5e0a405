import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Locking a device of an end-to-end encrypted account and unlocking it with the password
/// (docs/encryption.md §2.4): a locked device keeps its notes and every change, syncs nothing
/// (an engine made before the lock included), refuses a wrong password without changing
/// anything, and once unlocked sends what waited.
@Suite struct DeviceLockTests {
    private static let cost = 1 << 14

    private static func register(_ store: NoteStore, on server: URL, password: String = "lock password") async throws {
        _ = try await store.registerEncryptedSyncAccount(
            server: server, username: "lovelace", password: password, allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: cost)
    }

    @Test func lockedKeepsWorkingAndSyncsOnceUnlocked() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            try await Self.register(laptop, on: server.url)
            let note = try laptop.createNote(NoteDraft(title: "Plan", body: "first"))
            try await EncryptedAccountTests.sync(laptop)
            #expect(try laptop.syncLockState() == .unlocked)
            let running = try laptop.syncEngine(transport: try laptop.syncTransport())

            try await laptop.lockSyncAccount()
            #expect(try laptop.syncLockState() == .locked)
            #expect(!FileManager.default.fileExists(atPath: try #require(laptop.syncKeysURL).path), "the keys are gone from the device")
            #expect(laptop.syncToken() == nil, "and so is the session")
            // Work goes on locally; nothing goes up, not even through an engine made before the lock.
            _ = try laptop.updateNote(id: note.id, body: "edited while locked")
            await #expect(throws: SyncError.keysMissing) { try await running.sync() }
            await #expect(throws: SyncError.keysMissing) { try await EncryptedAccountTests.sync(laptop) }
            #expect(try laptop.syncSummary().pending == 1)

            // A wrong password opens nothing and changes nothing.
            await #expect(throws: SyncError.wrongPassword) { try await laptop.unlockSyncAccount(password: "not it", minimumCost: Self.cost) }
            #expect(try laptop.syncLockState() == .locked)
            #expect(try laptop.syncSummary().pending == 1)

            try await laptop.unlockSyncAccount(password: "lock password", minimumCost: Self.cost)
            #expect(try laptop.syncLockState() == .unlocked)
            // Unlocking is a new session: the engine made before the lock is done with.
            await #expect(throws: SyncError.notLoggedIn) { try await running.sync() }
            try await EncryptedAccountTests.sync(laptop)
            #expect(try laptop.syncSummary().pending == 0)

            let phone = try EncryptedAccountTests.device()
            _ = try await phone.logInToSyncAccount(
                server: server.url, username: "lovelace", password: "lock password", allowInsecure: false, allowingUnencrypted: false, minimumCost: Self.cost)
            try await EncryptedAccountTests.sync(phone)
            #expect(try phone.note(id: note.id).body == "edited while locked", "the edit made while locked arrived")
        }
    }

    @Test func unlockTakesThePasswordOfTheMoment() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            try await Self.register(laptop, on: server.url)
            let phone = try EncryptedAccountTests.device()
            _ = try await phone.logInToSyncAccount(
                server: server.url, username: "lovelace", password: "lock password", allowInsecure: false, allowingUnencrypted: false, minimumCost: Self.cost)
            let note = try phone.createNote(NoteDraft(title: "Offline", body: "waiting"))
            try await phone.lockSyncAccount()
            try await laptop.changeSyncPassword(
                current: "lock password", new: "new password", parameters: EncryptedAccountTests.cheap(), minimumCost: Self.cost)

            // The password changed while the phone was locked: the old one is refused, the new one unlocks.
            await #expect(throws: SyncError.wrongPassword) { try await phone.unlockSyncAccount(password: "lock password", minimumCost: Self.cost) }
            #expect(try phone.syncLockState() == .locked)
            try await phone.unlockSyncAccount(password: "new password", minimumCost: Self.cost)
            #expect(try phone.syncLockState() == .unlocked)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            #expect(try laptop.note(id: note.id).body == "waiting")
        }
    }

    @Test func anAccountWithoutEncryptionHasNothingToLock() async throws {
        try await withLiveServer { server, _ in
            let store = try EncryptedAccountTests.device()
            try await store.connectSyncAccount(server: server.url, username: "plain", password: "a password", register: true, allowInsecure: false)
            #expect(try store.syncLockState() == .notEncrypted)
            await #expect(throws: SyncError.notEncrypted) { try await store.lockSyncAccount() }
            await #expect(throws: SyncError.notEncrypted) { try await store.unlockSyncAccount(password: "a password", minimumCost: Self.cost) }
            #expect(try NoteStore.open(at: FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID()).sqlite")).syncLockState() == .notEncrypted)
        }
    }
}
