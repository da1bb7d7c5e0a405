import ArgumentParser
import Foundation
import Hummingbird
import NoteTakerServer
import NoteTakerSyncProtocol

/// `notetaker-server`: the self-hosted sync server.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notetaker-server",
        abstract: "Run the NoteTaker sync server (accounts, records, attachment files, push).",
        version: NoteTakerVersion.current,
        subcommands: [ServeCommand.self, MigrateCommand.self, MigrateDataCommand.self, AccountCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// Where the server keeps its data: from the options, else from the environment
/// (`NOTETAKER_SERVER_DATABASE`, `NOTETAKER_SERVER_DATA`, `NOTETAKER_SERVER_DATABASE_PASSWORD_FILE`),
/// so that the server and `account add` read the same place from one setting, and a unit file
/// can keep it out of `ps`.
struct DataOptions: ParsableArguments {
    @Option(help: "Where the server keeps everything: sqlite:FOLDER (the default, in $XDG_DATA_HOME/notetaker-server) or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (several servers may share one). Also NOTETAKER_SERVER_DATABASE.")
    var database: String?
    @Option(help: "Folder for the server's SQLite database and attachment files (the same as --database sqlite:FOLDER). Also NOTETAKER_SERVER_DATA.")
    var data: String?
    @Option(name: .customLong("database-password-file"), help: "A file (mode 0600) holding the PostgreSQL password, so that it stays out of the URL and of `ps`; PGPASSWORD works too. Also NOTETAKER_SERVER_DATABASE_PASSWORD_FILE.")
    var passwordFile: String?

    /// The environment variables that stand for the options when they are not given.
    enum Environment: String, CaseIterable {
        case database = "NOTETAKER_SERVER_DATABASE"
        case data = "NOTETAKER_SERVER_DATA"
        case passwordFile = "NOTETAKER_SERVER_DATABASE_PASSWORD_FILE"

        /// The variable's value, when it is set and not empty.
        var value: String? { ProcessInfo.processInfo.environment[rawValue].flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// A configuration over the storage asked for, with the password from its file.
    func configuration() throws -> ServerConfiguration {
        var configuration = ServerConfiguration(database: try location())
        configuration.databasePassword = try databasePassword()
        return configuration
    }

    /// The PostgreSQL password from the file the option or the environment names, if any.
    func databasePassword() throws -> String? {
        try (passwordFile ?? Environment.passwordFile.value).map(readPasswordFile)
    }

    /// The storage asked for: by an option, else by the environment, else the default folder.
    func location() throws -> ServerDatabase {
        if database == nil, data == nil {
            return try Self.location(database: Environment.database.value, data: Environment.data.value, from: "the environment")
        }
        return try Self.location(database: database, data: data, from: "the options")
    }

    private static func location(database: String?, data: String?, from source: String) throws -> ServerDatabase {
        switch (database, data) {
        case (let database?, nil):
            do {
                return try ServerDatabase(argument: database)
            } catch {
                throw ValidationError(error.message)
            }
        case (nil, let data?):
            return .sqlite(URL(fileURLWithPath: data, isDirectory: true))
        case (nil, nil):
            return .sqlite(ServerConfiguration.defaultDataDirectory())
        case (_?, _?):
            throw ValidationError(source == "the options" ? "Give either --database or --data, not both."
                : "Set either NOTETAKER_SERVER_DATABASE or NOTETAKER_SERVER_DATA, not both.")
        }
    }
}

/// The password in a file only its owner can read (its first line).
func readPasswordFile(_ path: String) throws -> String {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          let data = FileManager.default.contents(atPath: path) else {
        throw ValidationError("--database-password-file: '\(path)' cannot be read.")
    }
    if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
        throw ValidationError("--database-password-file: '\(path)' can be read by other users (mode \(String(mode, radix: 8))); run chmod 600 on it.")
    }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
}

/// Opens the storage, with a message a person can act on when it cannot be.
func openBackend(_ configuration: ServerConfiguration) async throws -> ServerBackend {
    try await reportingFailure("could not open the server's storage at \(configuration.database)") { try await configuration.openBackend() }
}

/// Runs `body`; a failure is printed as one `error:` line (`doing` says what failed, when the
/// error does not) and the command exits with status 1.
func reportingFailure<T>(_ doing: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SyncServerError {
        FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("error: \(doing): \(PostgresDatabase.reason(error) ?? "\(error)")\n".utf8))
    }
    throw ExitCode.failure
}

/// Whether anyone may create an account.
enum Registration: String, ExpressibleByArgument, CaseIterable {
    case open, closed
}

/// `notetaker-server [serve]`: runs the server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the server (the default).")

    @OptionGroup var dataOptions: DataOptions
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"
    @Option(help: "Port to listen on.")
    var port = ServerConfiguration.defaultPort
    @Option(name: .customLong("tls-cert"), help: "PEM certificate file: serve HTTPS.")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key file for --tls-cert.")
    var tlsKey: String?
    @Option(name: .customLong("quota-mb"), help: "Storage each account may use, in megabytes.")
    var quotaMegabytes: Int64 = ServerConfiguration.defaultQuota / 1_048_576
    @Option(help: "open: anyone who reaches the server may create an account; closed: only `notetaker-server account add` does (choose closed on a network).")
    var registration = Registration.open
    @Option(name: .customLong("trusted-proxy"), parsing: .upToNextOption,
            help: "Reverse proxies (an address or ADDRESS/BITS, several allowed) whose Forwarded or X-Forwarded-For header names the client, so that log-ins are throttled per client rather than per proxy.")
    var trustedProxies: [String] = []
    @Option(name: .customLong("metrics-host"), help: "Serve /metrics on this address only (with --metrics-port), not beside the API, so that it is never public.")
    var metricsHost: String?
    @Option(name: .customLong("metrics-port"), help: "The port of --metrics-host.")
    var metricsPort = 9471
    @Option(name: .customLong("session-idle-days"), help: "End a device's session after this many days without a request (it logs in again).")
    var sessionIdleDays: Double = SessionLifetime.standard.idle / 86_400
    @Option(name: .customLong("session-max-days"), help: "End every session this many days after its log-in.")
    var sessionMaxDays: Double = SessionLifetime.standard.absolute / 86_400
    @Option(name: .customLong("tombstone-days"),
            help: "Forget a deleted record this many days after its deletion, once every device logged in has fetched it (a device away longer lists everything when it comes back).")
    var tombstoneDays: Double = TombstoneRetention.standard.seconds / 86_400

    func validate() throws {
        guard (0...65535).contains(metricsPort) else { throw ValidationError("--metrics-port takes a number from 0 to 65535.") }
        guard (0.001...36_500).contains(sessionIdleDays), (0.001...36_500).contains(sessionMaxDays) else {
            throw ValidationError("--session-idle-days and --session-max-days take a number of days above 0 and at most 36500.")
        }
        guard (0...36_500).contains(tombstoneDays) else {
            throw ValidationError("--tombstone-days takes a number of days from 0 to 36500.")
        }
        for block in trustedProxies where AddressBlock(block) == nil {
            throw ValidationError("--trusted-proxy takes an address or ADDRESS/BITS (like 127.0.0.1 or 10.0.0.0/8), not '\(block)'.")
        }
    }

    func run() async throws {
        var configuration = ServerConfiguration(
            database: try dataOptions.location(), host: host, port: port, tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey,
            quotaBytes: quotaMegabytes * 1_048_576, registrationOpen: registration == .open)
        configuration.trustedProxies = trustedProxies.compactMap(AddressBlock.init)
        configuration.databasePassword = try dataOptions.databasePassword()
        configuration.metricsHost = metricsHost
        configuration.metricsPort = metricsPort
        configuration.sessionLifetime = SessionLifetime(idle: sessionIdleDays * 86_400, absolute: sessionMaxDays * 86_400)
        configuration.tombstoneRetention = TombstoneRetention(seconds: tombstoneDays * 86_400)
        let scheme = tlsCertificate == nil ? "http" : "https"
        let backend = try await openBackend(configuration)
        let database = configuration.database
        let app = try await buildApplication(configuration, backend: backend) { port in
            FileHandle.standardError.write(Data("notetaker-server listening on \(scheme)://\(host):\(port) (data in \(database), registration \(registration.rawValue))\n".utf8))
        }
        try await app.runService()
    }
}

/// `notetaker-server migrate`: brings the storage's schema up to date and stops (what
/// `serve` also does on start), for upgrading before the nodes restart.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Bring the storage's tables up to date, then stop (serve does this on start too).")

    @OptionGroup var dataOptions: DataOptions

    func run() async throws {
        let configuration = try dataOptions.configuration()
        _ = try await openBackend(configuration)
        print("The storage at \(configuration.database) is up to date.")
    }
}

/// `notetaker-server migrate-data --from sqlite:DIR --to postgres://…`: moves a server's
/// data to PostgreSQL without devices noticing.
struct MigrateDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-data",
        abstract: "Copy a server's data from its SQLite folder into an empty PostgreSQL database; devices keep their tokens and do not sync again from scratch.",
        discussion: "Stop the server first; start it again with --database set to the PostgreSQL URL.")

    @Option(help: "The SQLite storage to copy from: sqlite:FOLDER.") var from: String
    @Option(help: "The empty PostgreSQL database to copy into: postgres://USER@HOST[:PORT]/DATABASE.") var to: String
    @Option(name: .customLong("database-password-file"), help: "A file (mode 0600) holding the PostgreSQL password; PGPASSWORD works too.")
    var passwordFile: String?

    func run() async throws {
        let source: ServerDatabase, target: ServerDatabase
        do {
            (source, target) = (try ServerDatabase(argument: from), try ServerDatabase(argument: to))
        } catch {
            throw ValidationError(error.message)
        }
        guard case .sqlite(let folder) = source, case .postgres(let url) = target else {
            throw ValidationError("migrate-data copies from sqlite:FOLDER to postgres://…")
        }
        let summary = try await reportingFailure("the copy failed and nothing was kept in \(target)") {
            try await StorageCopy.copy(from: folder, to: try PostgresDatabase(url: url, password: try passwordFile.map(readPasswordFile)))
        }
        print("Copied \(summary.accounts) accounts, \(summary.records) records and \(summary.files) files to \(target).")
        let password = target.holdsPassword || passwordFile != nil ? " (with the password in PGPASSWORD or --database-password-file)" : ""
        print("Start the server with --database '\(target.argumentWithoutPassword)'\(password); devices carry on where they were.")
    }
}

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
