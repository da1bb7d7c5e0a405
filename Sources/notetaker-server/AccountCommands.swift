import ArgumentParser
import Foundation
import NoteTakerServer
import NoteTakerSyncProtocol

/// `notetaker-server account …`: the operator's commands on accounts, run on the server's
/// machine against the server's storage (the same settings as the server: `--data`,
/// `--database`, `NOTETAKER_SERVER_*` or `--config`).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Manage accounts on this machine.",
        subcommands: [
            AddAccountCommand.self, ListAccountsCommand.self, DeleteAccountCommand.self, ResetPasswordCommand.self,
            QuotaCommand.self,
        ])
}

/// Opens the storage the options name and runs `body` on its service, with what failed worded
/// for the operator.
func withService<T: Sendable>(
    _ dataOptions: DataOptions, doing: String, _ body: @escaping @Sendable (SyncService) async throws -> T
) async throws -> (T, ServerConfiguration) {
    let configuration = try dataOptions.configuration()
    let backend = try await openBackend(configuration)
    let result = try await reportingFailure(doing) { try await backend.withServicesRunning(body) }
    return (result, configuration)
}

/// Reads a password from standard input, when `--password-stdin` says so.
func passwordFromStandardInput(_ flag: Bool) throws -> String {
    guard flag else {
        throw ValidationError("Give the password on standard input with --password-stdin, so it stays out of the shell history.")
    }
    return readLine(strippingNewline: true) ?? ""
}

struct AddAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create an account (also when registration is closed); the password is read from standard input.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The user name.") var name: String
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (required).") var passwordFromStandardInput = false

    func run() async throws {
        let credentials = Credentials(username: name, password: try notetaker_server.passwordFromStandardInput(passwordFromStandardInput))
        let (account, configuration) = try await withService(dataOptions, doing: "could not add the account") { try await $0.addAccount(credentials) }
        print("Created account \(account.username) in \(configuration.database). A server started with the same --data or --database (or the same NOTETAKER_SERVER_DATA or NOTETAKER_SERVER_DATABASE) serves it.")
    }
}

struct ListAccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the accounts: space used, quota, devices logged in, last use.")

    @OptionGroup var dataOptions: DataOptions
    @Flag(help: "Print JSON: an array of objects with username, createdAt, usedBytes, quotaBytes (null: the server's), sessions, lastUsedAt.")
    var json = false

    func run() async throws {
        // The server's quota as its settings give it; a --quota-mb on the running server's
        // command line is not known here.
        let serverQuota = try dataOptions.settings().resolve(Int64?.none, "quota-mb")
        let (accounts, _) = try await withService(dataOptions, doing: "could not list the accounts") { try await $0.accounts() }
        if json {
            let objects: [[String: Any]] = accounts.map { account in
                [
                    "username": account.username, "createdAt": Self.iso(account.createdAt), "usedBytes": account.usedBytes,
                    "quotaBytes": account.quotaBytes.map { $0 as Any } ?? NSNull(), "sessions": account.sessions,
                    "lastUsedAt": account.lastUsedAt.map { Self.iso($0) as Any } ?? NSNull(),
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        guard !accounts.isEmpty else {
            print("No accounts yet. `notetaker-server account add NAME --password-stdin` makes one.")
            return
        }
        let width = max(8, accounts.map(\.username.count).max() ?? 0)
        print("name".padding(toLength: width, withPad: " ", startingAt: 0) + "  used        quota            devices  last used")
        for account in accounts {
            let quota = account.quotaBytes.map(Self.size) ?? serverQuota.map { Self.size($0 * 1_048_576) + " (server's)" } ?? "server's"
            let last = account.lastUsedAt.map { Date(timeIntervalSince1970: $0).formatted(date: .abbreviated, time: .shortened) } ?? "never"
            print(account.username.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + Self.size(account.usedBytes).padding(toLength: 10, withPad: " ", startingAt: 0) + "  "
                + quota.padding(toLength: 15, withPad: " ", startingAt: 0) + "  "
                + String(account.sessions).padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + last)
        }
    }

    private static func size(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .binary)
    }

    private static func iso(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}

struct DeleteAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an account and everything the server holds of it: notes, versions, files, sessions. Its devices keep their notes.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The user name.") var name: String
    @Flag(help: "Delete without asking (required: nothing can bring the account back but a backup).") var yes = false

    func run() async throws {
        guard yes else {
            throw ValidationError("Deleting '\(name)' removes everything the server holds of it, for good (a backup is the only way back). Add --yes to delete it.")
        }
        let name = name
        _ = try await withService(dataOptions, doing: "could not delete the account") { try await $0.deleteAccount(named: name) }
        print("Deleted account \(name) and everything the server held of it. Its devices are logged out; their notes stay on them.")
    }
}

struct ResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password", abstract: "Set a new password for an account (one its owner forgot); its devices log in again with it.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The user name.") var name: String
    @Flag(name: .customLong("password-stdin"), help: "Read the new password from standard input (required).") var passwordFromStandardInput = false

    func run() async throws {
        let password = try notetaker_server.passwordFromStandardInput(passwordFromStandardInput)
        let name = name
        _ = try await withService(dataOptions, doing: "could not set the password") { try await $0.resetPassword(named: name, to: password) }
        print("Set a new password for \(name); every device of it was logged out and logs in again with the new one.")
    }
}

struct QuotaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota", abstract: "Give an account a quota of its own, in megabytes, or `default` for the server's (--quota-mb).")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The user name.") var name: String
    @Argument(help: "Megabytes, or default.") var megabytes: String

    func run() async throws {
        let bytes: Int64?
        if megabytes == "default" {
            bytes = nil
        } else if let value = Int64(megabytes), (1...Int64.max / 1_048_576).contains(value) {
            bytes = value * 1_048_576
        } else {
            throw ValidationError("The quota is a number of megabytes (1 or more), or default; not '\(megabytes)'.")
        }
        let name = name
        _ = try await withService(dataOptions, doing: "could not set the quota") { try await $0.setQuota(bytes, named: name) }
        print(bytes.map { _ in "\(name) may now use \(megabytes) MB." } ?? "\(name) uses the server's quota again (--quota-mb).")
    }
}
