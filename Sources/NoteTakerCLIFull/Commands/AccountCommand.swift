import ArgumentParser
import NoteTakerCLI
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import NoteTakerSync

/// `notetaker account`: the sync account of this store.
struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.account.rawValue, abstract: CompanionCommand.account.abstract,
        subcommands: [
            AccountRegisterCommand.self, AccountLoginCommand.self, AccountLogoutCommand.self, AccountStatusCommand.self,
            AccountSessionsCommand.self, AccountPasswordCommand.self,
        ])
}

/// The options shared by register and login.
struct AccountOptions: ParsableArguments {
    @Option(help: "The sync server, for example https://notes.example.com or http://127.0.0.1:8471.")
    var server: String
    @Option(help: "The user name.")
    var user: String
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (required: never on the command line).")
    var passwordFromStandardInput = false
    @Flag(help: "Allow plain http:// to another machine (passwords and notes cross the network unencrypted).")
    var insecure = false
    @Option(name: .customLong("ca-file"), help: "Trust the server by this certificate (PEM) besides the system's: a private certificate authority's, or the server's own self-signed one. Kept with the account.")
    var caFile: String?

    func validate() throws {
        if !passwordFromStandardInput { throw ValidationError("Give the password on standard input with --password-stdin.") }
    }

    func password() throws -> String {
        let password = StandardInput.readAll().trimmingCharacters(in: .newlines)
        guard !password.isEmpty else { throw NoteTakerError.invalidInput("No password on standard input.") }
        return password
    }

    /// Signs in (or up), then saves the account and token in the store.
    func connect(_ store: NoteStore, register: Bool) async throws -> SessionResponse {
        let url = try NoteStore.syncServerURL(server)
        let trusted = try caFile.map { path throws(SyncError) in try TrustedCertificates(file: path) }
        return try await store.connectSyncAccount(
            server: url, username: user, password: try password(), register: register, allowInsecure: insecure, trusting: trusted)
    }
}

struct AccountRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "register", abstract: "Create an account on a sync server and use it here.")
    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let session = try await account.connect(try storeOptions.open(), register: true)
        print("Registered \(session.username) on \(account.server); this device syncs with it now (`notetaker sync`).")
    }
}

struct AccountLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Log in to a sync account from this device.")
    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let session = try await account.connect(try storeOptions.open(), register: false)
        print("Logged in as \(session.username) on \(account.server).")
    }
}

struct AccountLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out: the server revokes the session; notes stay here.")
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        if let notice = try await storeOptions.open().disconnectSyncAccount() {
            Terminal.printNotice("The server could not be told (\(notice)); the token is removed here anyway.")
        }
        print("Logged out. Notes on this device stay, and changes wait until you log in again.")
    }
}

struct AccountStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "The account, the server's view of it, and what waits to sync.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    struct Status: Encodable {
        var server: String?
        var username: String?
        var loggedIn: Bool
        var autoSync: Bool
        var mergePolicy: String
        var serverAccount: AccountStatus?
        var serverError: String?
        var sync: SyncSummary

        enum CodingKeys: String, CodingKey {
            case server, username, loggedIn, autoSync, mergePolicy, serverAccount, serverError, sync
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(server, forKey: .server)
            try container.encode(username, forKey: .username)
            try container.encode(loggedIn, forKey: .loggedIn)
            try container.encode(autoSync, forKey: .autoSync)
            try container.encode(mergePolicy, forKey: .mergePolicy)
            try container.encode(serverAccount, forKey: .serverAccount)
            try container.encode(serverError, forKey: .serverError)
            try container.encode(sync, forKey: .sync)
        }
    }

    func run() async throws {
        let store = try storeOptions.openForReading()
        let settings = try store.syncSettings()
        var status = Status(
            server: settings.serverURL?.absoluteString, username: settings.username, loggedIn: store.syncToken() != nil && settings.hasAccount,
            autoSync: settings.autoSync, mergePolicy: settings.mergePolicy, sync: try store.syncSummary())
        if status.loggedIn {
            do {
                status.serverAccount = try await store.syncTransport().accountStatus()
            } catch {
                status.serverError = "\(error)"
            }
        }
        if output.json { return try JSONOutput.print(status) }
        guard let server = status.server, let username = status.username else {
            print("No sync account on this device. Set one up with `notetaker account register` or `notetaker account login`.")
            return
        }
        print("account         \(username) on \(server)\(status.loggedIn ? "" : " (logged out)")")
        if let remote = status.serverAccount {
            print("server holds    \(remote.recordCount) records, \(TextOutput.byteCount(remote.usedBytes)) of \(TextOutput.byteCount(remote.quotaBytes))")
        } else if let error = status.serverError {
            print("server          \(error)")
        }
        print("auto-sync       \(status.autoSync ? "on" : "off"); merge policy \(status.mergePolicy)")
        SyncStatusCommand.printSummary(status.sync)
    }
}
