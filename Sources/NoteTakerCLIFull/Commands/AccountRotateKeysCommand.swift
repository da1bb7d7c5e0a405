import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account rotate-keys`: a new data key for the end-to-end encrypted account, for
/// its password (a key exposed, or as a habit). New writes are sealed with it at once; the
/// next syncs send every note again sealed with it.
struct AccountRotateKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-keys",
        abstract: "Make a new encryption key for the end-to-end encrypted account; notes are sealed with it from now on.",
        discussion: "Give the account's password on standard input: echo \"$PASSWORD\" | notetaker account rotate-keys --password-stdin. Every note, folder and tag goes up again sealed with the new key at the next syncs; other devices learn the key at theirs.")
    @OptionGroup var passwordInput: CurrentPasswordInput
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let password = try passwordInput.read()
        let store = try storeOptions.open()
        let version = try await store.rotateSyncKeys(password: password)
        print(Words.text("keysRotated", ["version": version, "count": try store.syncSummary().pending]))
    }
}
