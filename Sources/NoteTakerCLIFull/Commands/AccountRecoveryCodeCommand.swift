import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account recovery-code`: a new recovery code for the account, for its password
/// (the old code lost, or seen by someone else); the old one no longer works.
struct AccountRecoveryCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery-code",
        abstract: "Make a new recovery code for the end-to-end encrypted account; the old one no longer works.",
        discussion: "Give the account's password on standard input: echo \"$PASSWORD\" | notetaker account recovery-code --password-stdin. The new code is shown once.")
    @OptionGroup var passwordInput: CurrentPasswordInput
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let password = try passwordInput.read()
        let code = try await storeOptions.openForReading().newRecoveryCode(password: password)
        print(Words.text("recoveryCodeReplaced"))
        RecoveryCodeNotice.show(code.code)
    }
}
