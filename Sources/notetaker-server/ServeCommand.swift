import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NoteTakerServer
import NoteTakerSyncProtocol

/// `notetaker-server [serve]`: runs the server. Every option may also come from the
/// environment or the settings file (``ServerSettings``); the defaults are in the help.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the server (the default).",
        discussion: "Each option may also be set as NOTETAKER_SERVER_<OPTION> (--tls-cert as NOTETAKER_SERVER_TLS_CERT), in the environment or in the --config file.")

    @OptionGroup var dataOptions: DataOptions
    @Option(help: "Address to listen on (default 127.0.0.1).")
    var host: String?
    @Option(help: "Port to listen on (default \(ServerConfiguration.defaultPort)).")
    var port: Int?
    @Option(name: .customLong("tls-cert"), help: "PEM certificate file: serve HTTPS.")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key file for --tls-cert.")
    var tlsKey: String?
    @Option(name: .customLong("quota-mb"), help: "Storage each account may use, in megabytes (default \(ServerConfiguration.defaultQuota / 1_048_576)); `account quota` sets one account's.")
    var quotaMegabytes: Int64?
    @Option(help: "open (the default): anyone who reaches the server may create an account; closed: only `notetaker-server account add` does (choose closed on a network).")
    var registration: Registration?
    @Flag(name: .customLong("require-encryption"),
          help: "Take only end-to-end encrypted accounts at registration: one without encryption is refused (accounts already here, and those `account add` makes, are not affected).")
    var requireEncryption = false
    @Option(name: .customLong("trusted-proxy"), parsing: .upToNextOption,
            help: "Reverse proxies (an address or ADDRESS/BITS, several allowed) whose Forwarded or X-Forwarded-For header names the client, so that log-ins are throttled per client rather than per proxy.")
    var trustedProxies: [String] = []
    @Option(name: .customLong("metrics-host"), help: "Serve /metrics on this address only (with --metrics-port), not beside the API, so that it is never public.")
    var metricsHost: String?
    @Option(name: .customLong("metrics-port"), help: "The port of --metrics-host (default 9471).")
    var metricsPort: Int?
    @Option(name: .customLong("session-idle-days"), help: "End a device's session after this many days without a request (it logs in again; default \(Int(SessionLifetime.standard.idle / 86_400))).")
    var sessionIdleDays: Double?
    @Option(name: .customLong("session-max-days"), help: "End every session this many days after its log-in (default \(Int(SessionLifetime.standard.absolute / 86_400))).")
    var sessionMaxDays: Double?
    @Option(name: .customLong("tombstone-days"),
            help: "Forget a deleted record this many days after its deletion, once every device logged in has fetched it (a device away longer lists everything when it comes back; default \(Int(TombstoneRetention.standard.seconds / 86_400))).")
    var tombstoneDays: Double?
    @OptionGroup var logOptions: LogOptions

    func run() async throws {
        let settings = try dataOptions.settings()
        try logOptions.bootstrap(settings)
        let configuration = try configuration(settings)
        let logger = Logger(label: "notetaker-server")
        let backend = try await openBackend(configuration, logger: logger)
        let scheme = configuration.tlsCertificatePath == nil ? "http" : "https"
        let registration = configuration.registrationOpen ? (configuration.requiresEncryption ? "open to encrypted accounts" : "open") : "closed"
        let app = try await buildApplication(configuration, backend: backend, logger: logger) { port in
            FileHandle.standardError.write(Data("notetaker-server listening on \(scheme)://\(configuration.host):\(port) (data in \(configuration.database), registration \(registration))\n".utf8))
            logger.info("started", metadata: ["version": "\(NoteTakerVersion.current)", "port": "\(port)", "storage": "\(configuration.database.kind)"])
        }
        try await app.runService()
        logger.info("stopped")
    }

    /// The server's configuration: each option from the command line, else the settings, else
    /// its default; every value checked.
    func configuration(_ settings: ServerSettings) throws -> ServerConfiguration {
        let metricsPort = try settings.resolve(metricsPort, "metrics-port", default: 9471)
        let port = try settings.resolve(port, "port", default: ServerConfiguration.defaultPort)
        for (name, value) in [("port", port), ("metrics-port", metricsPort)] where !(0...65535).contains(value) {
            throw ValidationError("--\(name) takes a number from 0 to 65535.")
        }
        let idle = try settings.resolve(sessionIdleDays, "session-idle-days", default: SessionLifetime.standard.idle / 86_400)
        let maximum = try settings.resolve(sessionMaxDays, "session-max-days", default: SessionLifetime.standard.absolute / 86_400)
        guard (0.001...36_500).contains(idle), (0.001...36_500).contains(maximum) else {
            throw ValidationError("--session-idle-days and --session-max-days take a number of days above 0 and at most 36500.")
        }
        let tombstoneDays = try settings.resolve(tombstoneDays, "tombstone-days", default: TombstoneRetention.standard.seconds / 86_400)
        guard (0...36_500).contains(tombstoneDays) else {
            throw ValidationError("--tombstone-days takes a number of days from 0 to 36500.")
        }
        let quota = try settings.resolve(quotaMegabytes, "quota-mb", default: ServerConfiguration.defaultQuota / 1_048_576)
        guard (1...Int64.max / 1_048_576).contains(quota) else { throw ValidationError("--quota-mb takes a number of megabytes above 0.") }
        let proxies = settings.resolve(trustedProxies, "trusted-proxy")
        let blocks = try proxies.map { block in
            guard let parsed = AddressBlock(block) else {
                throw ValidationError("--trusted-proxy takes an address or ADDRESS/BITS (like 127.0.0.1 or 10.0.0.0/8), not '\(block)'.")
            }
            return parsed
        }
        var configuration = ServerConfiguration(
            database: try dataOptions.location(settings), host: try settings.resolve(host, "host", default: "127.0.0.1"), port: port,
            tlsCertificatePath: try settings.resolve(tlsCertificate, "tls-cert"), tlsKeyPath: try settings.resolve(tlsKey, "tls-key"),
            quotaBytes: quota * 1_048_576, registrationOpen: try settings.resolve(registration, "registration", default: .open) == .open)
        configuration.trustedProxies = blocks
        configuration.requiresEncryption = try settings.resolve(requireEncryption ? true : nil, "require-encryption", default: false)
        configuration.databasePassword = try dataOptions.databasePassword(settings)
        configuration.metricsHost = try settings.resolve(metricsHost, "metrics-host")
        configuration.metricsPort = metricsPort
        configuration.sessionLifetime = SessionLifetime(idle: idle * 86_400, absolute: maximum * 86_400)
        configuration.tombstoneRetention = TombstoneRetention(seconds: tombstoneDays * 86_400)
        return configuration
    }
}
