import ArgumentParser
import Foundation
import NoteTakerCLI

/// `--password-stdin` for a command that asks for the account's current password alone
/// (`account recovery-code`, `account rotate-keys`): read from standard input, never taken
/// on the command line, where other users of the machine could see it.
struct CurrentPasswordInput: ParsableArguments {
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (required: never on the command line).")
    var fromStandardInput = false

    func validate() throws {
        if !fromStandardInput { throw Words.usage("passwordStdin") }
    }

    /// The password given, without its line ending.
    func read() throws -> String {
        let password = StandardInput.readAll().trimmingCharacters(in: .newlines)
        guard !password.isEmpty else { throw CommandError("noPasswordGiven") }
        return password
    }
}
