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
            AccountRegisterCommand.self, AccountLoginCommand.self, AccountEncryptCommand.self, AccountLogoutCommand.self, AccountStatusCommand.self,
            AccountLockCommand.self, AccountUnlockCommand.self,
            AccountSessionsCommand.self, AccountPasswordCommand.self, AccountRecoveryCodeCommand.self, AccountRotateKeysCommand.self,
            AccountVerifyCommand.self,
            AccountRecoverCommand.self,
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
        if !passwordFromStandardInput { throw Words.usage("passwordStdin") }
    }

    func password() throws -> String {
        let password = StandardInput.readAll().trimmingCharacters(in: .newlines)
        guard !password.isEmpty else { throw CommandError("noPasswordGiven") }
        return password
    }

    /// The server's address, and the certificates to trust it by.
    func endpoint() throws -> (url: URL, trusted: TrustedCertificates?) {
        (try NoteStore.syncServerURL(server), try caFile.map { path throws(SyncError) in try TrustedCertificates(file: path) })
    }
}

struct AccountRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register", abstract: "Create an account on a sync server and use it here: end-to-end encrypted unless --unencrypted.",
        discussion: "The account's keys are made on this device, and the server keeps only what it cannot read. A recovery code is shown once: keep it, it is the only way back in if the password is lost.")
    @OptionGroup var account: AccountOptions
    @Flag(help: "Make an account without end-to-end encryption: whoever runs the server can read its notes.")
    var unencrypted = false
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = try storeOptions.open()
        let (url, trusted) = try account.endpoint()
        if unencrypted {
            let session = try await store.connectSyncAccount(
                server: url, username: account.user, password: try account.password(), register: true, allowInsecure: account.insecure, trusting: trusted)
            return print(Words.text("registered", ["user": session.username, "server": account.server]))
        }
        let connected = try await store.registerEncryptedSyncAccount(
            server: url, username: account.user, password: try account.password(), allowInsecure: account.insecure, trusting: trusted)
        print(Words.text("registeredEncrypted", ["user": connected.session.username, "server": account.server]))
        if let code = connected.recoveryCode?.code { RecoveryCodeNotice.show(code) }
    }
}

struct AccountLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Log in to a sync account from this device.")
    @OptionGroup var account: AccountOptions
    @Flag(help: "Allow an account without end-to-end encryption: the password is then sent to the server as it is.")
    var unencrypted = false
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let (url, trusted) = try account.endpoint()
        let connected = try await storeOptions.open().logInToSyncAccount(
            server: url, username: account.user, password: try account.password(), allowInsecure: account.insecure, trusting: trusted,
            allowingUnencrypted: unencrypted)
        print(Words.text(connected.encrypted ? "loggedInEncrypted" : "loggedIn", ["user": connected.session.username, "server": account.server]))
    }
}

struct AccountLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out: the server revokes the session; notes stay here.")
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        if let notice = try await storeOptions.open().disconnectSyncAccount() {
            Terminal.printNotice(Words.text("logoutNotTold", ["reason": notice]))
        }
        print(Words.text("loggedOut"))
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
        var encrypted: Bool
        /// Whether this device waits for the password to sync (it does not hold the keys).
        var locked: Bool
        var autoSync: Bool
        var mergePolicy: String
        var serverAccount: AccountStatus?
        var serverError: String?
        var sync: SyncSummary

        enum CodingKeys: String, CodingKey {
            case server, username, loggedIn, encrypted, locked, autoSync, mergePolicy, serverAccount, serverError, sync
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(server, forKey: .server)
            try container.encode(username, forKey: .username)
            try container.encode(loggedIn, forKey: .loggedIn)
            try container.encode(encrypted, forKey: .encrypted)
            try container.encode(locked, forKey: .locked)
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
            encrypted: settings.encrypted, locked: try store.syncLockState() == .locked, autoSync: settings.autoSync, mergePolicy: settings.mergePolicy, sync: try store.syncSummary())
        var serverError: (any Error)?
        if status.loggedIn {
            do {
                status.serverAccount = try await store.syncTransport().accountStatus()
            } catch {
                serverError = error
                status.serverError = "\(error)"
            }
        }
        if output.json { return try JSONOutput.print(status) }
        guard let server = status.server, let username = status.username else {
            print(Words.text("noSyncAccount"))
            return
        }
        var fields = [(Words.text("account_account"), Words.text(status.loggedIn || status.locked ? "accountOn" : "accountOnLoggedOut", ["user": username, "server": server]))]
        if let remote = status.serverAccount {
            fields.append((Words.text("account_serverHolds"), Words.text("serverHolds", [
                "count": remote.recordCount, "used": TextOutput.byteCount(remote.usedBytes), "quota": TextOutput.byteCount(remote.quotaBytes)])))
        } else if let serverError {
            fields.append((Words.text("account_server"), Words.message(for: serverError) ?? "\(serverError)"))
        }
        fields.append((Words.text("account_encryption"),
                       Words.text(status.locked ? "encryptionLocked" : status.encrypted ? "encryptionEndToEnd" : "encryptionNone")))
        fields.append((Words.text("settings_autoSync"), Words.text(status.autoSync ? "on" : "off")))
        fields.append((Words.text("settings_mergePolicy"), status.mergePolicy))
        TextOutput.printFields(fields + SyncStatusCommand.summaryFields(status.sync))
        SyncStatusCommand.printSummaryDetails(status.sync)
    }
}
