import ArgumentParser
import Foundation
import NoteTakerServer
import NoteTakerSyncProtocol

/// `notetaker-server account add NAME`: creates an account on the server's machine.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Manage accounts on this machine.", subcommands: [AddAccountCommand.self])
}

struct AddAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create an account (also when registration is closed); the password is read from standard input.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The user name.") var name: String
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (required).") var passwordFromStandardInput = false

    func run() async throws {
        guard passwordFromStandardInput else {
            throw ValidationError("Give the password on standard input with --password-stdin, so it stays out of the shell history.")
        }
        let password = (readLine(strippingNewline: true) ?? "")
        let configuration = try dataOptions.configuration()
        let backend = try await openBackend(configuration)
        let credentials = Credentials(username: name, password: password)
        let account = try await reportingFailure("could not add the account") {
            try await backend.withServicesRunning { try await $0.addAccount(credentials) }
        }
        print("Created account \(account.username) in \(configuration.database). A server started with the same --data or --database (or the same NOTETAKER_SERVER_DATA or NOTETAKER_SERVER_DATABASE) serves it.")
    }
}
