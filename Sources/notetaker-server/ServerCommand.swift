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
        subcommands: [ServeCommand.self, AccountCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// Where the server keeps its data.
struct DataOptions: ParsableArguments {
    @Option(help: "Folder for the server's database and attachment files (default: $XDG_DATA_HOME/notetaker-server).")
    var data: String?

    var directory: URL {
        data.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? ServerConfiguration.defaultDataDirectory()
    }
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

    func run() async throws {
        let configuration = ServerConfiguration(
            dataDirectory: dataOptions.directory, host: host, port: port, tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey,
            quotaBytes: quotaMegabytes * 1_048_576, registrationOpen: registration == .open)
        let scheme = tlsCertificate == nil ? "http" : "https"
        let app = try buildApplication(configuration) { port in
            FileHandle.standardError.write(Data("notetaker-server listening on \(scheme)://\(host):\(port) (data in \(configuration.dataDirectory.path), registration \(registration.rawValue))\n".utf8))
        }
        try await app.runService()
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
        let service = try ServerConfiguration(dataDirectory: dataOptions.directory).makeService()
        do {
            let account = try await service.addAccount(Credentials(username: name, password: password))
            print("Created account \(account.username).")
        } catch {
            FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }
}
