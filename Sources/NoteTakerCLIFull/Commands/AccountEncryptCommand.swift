import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account encrypt`: makes an account without encryption end-to-end encrypted, with
/// a new password: one that holds nothing yet (one the server's operator made with
/// `account add`), or one that holds notes, from a device that syncs with it, which converts
/// it and syncs at once.
struct AccountEncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "End-to-end encrypt an account without encryption, with a new password.",
        discussion: "Give the current password and a new one on standard input, a line each: printf '%s\\n%s\\n' \"$CURRENT\" \"$NEW\" | notetaker account encrypt --server URL --user NAME --password-stdin. A recovery code is shown once. An account that holds notes is converted from a device that syncs with it: that device must have synced everything; it sends every note and file again sealed, then the server deletes what it held readable. Other devices ask for the new password once and keep their unsent edits.")
    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let lines = StandardInput.readAll().split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else { throw CommandError("passwordsNotGiven") }
        let (url, trusted) = try account.endpoint()
        let store = try storeOptions.open()
        let connected = try await store.encryptSyncAccount(
            server: url, username: account.user, currentPassword: lines[0], newPassword: lines[1], allowInsecure: account.insecure, trusting: trusted)
        let converting = try store.resealingPass()?.converts == true
        print(Words.text(converting ? "accountConverting" : "accountEncrypted", ["user": connected.session.username, "server": account.server]))
        if let code = connected.recoveryCode?.code { RecoveryCodeNotice.show(code) }
        guard converting else { return }
        let report = try await store.syncEngine(transport: try store.syncTransport()).sync()
        print(SyncNowCommand.describe(report))
        print(Words.text(report.conversionFinished ? "syncedConversionFinished" : "syncedConversionUnfinished"))
    }
}
