import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account lock`: ends this device's session and forgets the end-to-end encrypted
/// account's keys here (lending it, leaving it somewhere). The notes and every change waiting
/// stay; syncing waits for `notetaker account unlock`.
struct AccountLockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock this device: end its session and forget the end-to-end encrypted account's keys here until the password unlocks it.",
        discussion: "The notes already on this device stay readable here (the store itself is not encrypted); the device stops syncing and fetching history from the server. Changes made meanwhile go up once it is unlocked.")
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        try await storeOptions.openForReading().lockSyncAccount()
        print(Words.text("accountLocked"))
    }
}

/// `notetaker account unlock`: logs in again with the account's password, which opens its keys.
struct AccountUnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock this device with the end-to-end encrypted account's password, so that it syncs again.",
        discussion: "Give the password on standard input: echo \"$PASSWORD\" | notetaker account unlock --password-stdin")
    @OptionGroup var passwordInput: CurrentPasswordInput
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let password = try passwordInput.read()
        try await storeOptions.open().unlockSyncAccount(password: password)
        print(Words.text("accountUnlocked"))
    }
}
