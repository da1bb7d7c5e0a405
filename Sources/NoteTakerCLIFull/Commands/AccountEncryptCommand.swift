import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account encrypt`: makes an account without encryption that holds nothing yet
/// (one the server's operator made with `account add`) end-to-end encrypted, with a new
/// password the operator does not know, and uses it here.
struct AccountEncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "End-to-end encrypt an account that holds nothing yet (one the server's operator made), with a new password.",
        discussion: "Give the password the operator set and a new one on standard input, a line each: printf '%s\\n%s\\n' \"$GIVEN\" \"$NEW\" | notetaker account encrypt --server URL --user NAME --password-stdin. A recovery code is shown once. An account that already holds notes cannot be encrypted in place yet.")
    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let lines = StandardInput.readAll().split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else { throw CommandError("passwordsNotGiven") }
        let (url, trusted) = try account.endpoint()
        let connected = try await storeOptions.open().encryptSyncAccount(
            server: url, username: account.user, currentPassword: lines[0], newPassword: lines[1], allowInsecure: account.insecure, trusting: trusted)
        print(Words.text("accountEncrypted", ["user": connected.session.username, "server": account.server]))
        if let code = connected.recoveryCode?.code { RecoveryCodeNotice.show(code) }
    }
}
