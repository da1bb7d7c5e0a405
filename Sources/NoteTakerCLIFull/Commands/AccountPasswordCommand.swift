import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account password`: changes the sync account's password. The server logs out
/// every other device of the account; this one stays logged in.
struct AccountPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Change the sync account's password; every other device logs in again with the new one.",
        discussion: "Give the current password and the new one on standard input, a line each: printf '%s\\n%s\\n' \"$OLD\" \"$NEW\" | notetaker account password --password-stdin")
    @Flag(name: .customLong("password-stdin"), help: "Read the current password, then the new one, from standard input, a line each (required: never on the command line).")
    var passwordFromStandardInput = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if !passwordFromStandardInput { throw Words.usage("passwordsStdin") }
    }

    func run() async throws {
        let lines = StandardInput.readAll().split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else {
            throw CommandError("passwordsNotGiven")
        }
        // An end-to-end encrypted account's key goes along, wrapped for the new password.
        try await storeOptions.openForReading().changeSyncPassword(current: lines[0], new: lines[1])
        print(Words.text("passwordChanged"))
    }
}
