import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// A PostgreSQL database named by a URL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`), its
/// connection pool and the server's schema in it.
///
/// The URL's `sslmode` is `disable`, `prefer` (the default: encrypted when the database
/// offers TLS, its certificate unchecked, as libpq does), `require` or `verify-full` (the last
/// two verify the database's certificate and name, against the system's roots or the CA file
/// `sslrootcert=PATH` names); `host=/path` in its query connects through a Unix
/// socket folder instead of TCP. The password comes from the caller (a file), the URL, or
/// `PGPASSWORD`, in that order; one in the URL is seen by anyone who runs `ps`, and a
/// connection that may be unencrypted to another machine is logged as a warning.
public struct PostgresDatabase: Sendable {
    /// The pool every query goes through; it must run (``PostgresClient/run()``) while used.
    public let client: PostgresClient
    let logger: Logger
    private let connection: PostgresConnection.Configuration

    /// The password connections use (for tests of where it comes from).
    var password: String? { connection.password }

    /// Reads the URL; nothing is connected yet.
    public init(
        url: String, password given: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "notetaker-server.postgres")
    ) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw SyncServerError(.badRequest, "'\(url)' is not a PostgreSQL URL; write postgres://USER@HOST[:PORT]/DATABASE.")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let username = components.percentEncodedUser?.removingPercentEncoding ?? "postgres"
        let inURL = components.percentEncodedPassword?.removingPercentEncoding
        let password = given ?? inURL ?? environment["PGPASSWORD"]
        let database = components.path.isEmpty ? nil : String(components.path.dropFirst())
        let mode = query["sslmode"] ?? "prefer"
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if let rootFile = query["sslrootcert"] {
            guard FileManager.default.isReadableFile(atPath: rootFile) else {
                throw SyncServerError(.badRequest, "sslrootcert names '\(rootFile)', which cannot be read; give the CA certificate (PEM) the database's certificate is signed by.")
            }
            tlsConfiguration.trustRoots = .file(rootFile)
        }
        if mode == "prefer" {
            // Encryption when offered, against eavesdroppers, with no promise of who answers:
            // a database with its distribution's self-signed certificate (Debian enables one)
            // must still be reachable by default. verify-full is the setting that checks.
            tlsConfiguration.certificateVerification = .none
        }
        let tls: PostgresConnection.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(try Self.context(tlsConfiguration, rootFile: query["sslrootcert"]))
        case "require", "verify-full": tls = .require(try Self.context(tlsConfiguration, rootFile: query["sslrootcert"]))
        case let mode:
            throw SyncServerError(.badRequest, "sslmode '\(mode)' is not known; use disable, prefer, require or verify-full.")
        }
        let host = components.host ?? ""
        let remote = query["host"].map { !$0.hasPrefix("/") } ?? !["", "localhost", "127.0.0.1", "::1"].contains(host.lowercased())
        if remote && (mode == "disable" || mode == "prefer") {
            logger.warning("The connection to PostgreSQL at \(host) \(mode == "disable" ? "is not encrypted" : "may not be encrypted, and is not checked") (sslmode=\(mode)): notes and passwords' hashes can be read on the network, or by whoever poses as the database. Use sslmode=verify-full, with sslrootcert=CA.pem for a private CA.")
        }
        if inURL != nil {
            logger.warning("The PostgreSQL password is in the database URL, which anyone on this machine can read with `ps`. Give it in PGPASSWORD or with --database-password-file instead.")
        }
        if let socket = query["host"], socket.hasPrefix("/") {
            let port = components.port ?? 5432
            connection = .init(unixSocketPath: "\(socket)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else if let host = components.host, !host.isEmpty {
            connection = .init(host: host, port: components.port ?? 5432, username: username, password: password, database: database, tls: tls)
        } else {
            throw SyncServerError(.badRequest, "The PostgreSQL URL '\(url)' names no host; write postgres://USER@HOST[:PORT]/DATABASE.")
        }
        var pool: PostgresClient.Configuration
        if let socket = connection.unixSocketPath {
            pool = .init(unixSocketPath: socket, username: username, password: password, database: database)
        } else {
            let clientTLS: PostgresClient.Configuration.TLS = switch mode {
            case "disable": .disable
            case "prefer": .prefer(tlsConfiguration)
            default: .require(tlsConfiguration)
            }
            pool = .init(host: connection.host ?? "", port: connection.port ?? 5432, username: username, password: password, database: database, tls: clientTLS)
        }
        pool.options.maximumConnections = 40
        self.logger = logger
        // The pool logs each failed attempt to connect (about once a second while the database is
        // down) with a description that says nothing; the service logs the outage once instead
        // (see StorageCondition).
        var poolLogger = logger
        poolLogger.logLevel = .critical
        client = PostgresClient(configuration: pool, backgroundLogger: poolLogger)
    }

    /// How long a request waits for a connection before the database counts as out of reach.
    /// The pool itself would wait a minute, and a device with it.
    static let leaseTimeout = Duration.seconds(10)

    /// Returns once the pool can hand out a connection; throws ``DatabaseUnreachable`` when it
    /// cannot within ``leaseTimeout`` (the connection goes straight back, for the caller's
    /// query to take).
    func waitForConnection() async throws {
        let client = client
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await client.withConnection { _ in }
                return true
            }
            group.addTask {
                try await Task.sleep(for: Self.leaseTimeout)
                return false
            }
            defer { group.cancelAll() }
            let leased: Bool
            do {
                leased = try await group.next() ?? false
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw DatabaseUnreachable(reason: Self.reason(error) ?? "no connection to PostgreSQL can be made")
            }
            guard leased else {
                throw DatabaseUnreachable(reason: "no connection to PostgreSQL within \(Self.leaseTimeout)")
            }
        }
    }

    private static func context(_ configuration: TLSConfiguration, rootFile: String?) throws(SyncServerError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw SyncServerError(.badRequest, "TLS to PostgreSQL cannot be set up: \(rootFile.map { "sslrootcert '\($0)' holds no certificate (PEM) that can be read" } ?? "\(error)").")
        }
    }

    /// Runs `body` on one connection of its own (for set-up, before the pool runs).
    func withSetUpConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: connection, id: 0, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs `body` in a transaction on a pooled connection: committed when it returns,
    /// rolled back when it throws (its error is rethrown as it is).
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await waitForConnection()
        return try await client.withConnection { connection in
            try await Self.transaction(on: connection, logger: logger, body)
        }
    }

    /// Runs `body` in a transaction on `connection`.
    nonisolated(nonsending) static func transaction<T: Sendable>(
        on connection: PostgresConnection, logger: Logger, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        do {
            let result = try await body(connection)
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Runs one query on a pooled connection.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await waitForConnection()
        return try await client.query(query, logger: logger)
    }
}

extension PostgresDatabase {
    /// What went wrong talking to PostgreSQL, in words a person can act on (postgres-nio's own
    /// description hides everything, to keep secrets out of logs); `nil` for another error.
    public static func reason(_ error: any Error) -> String? {
        guard let error = error as? PSQLError else { return nil }
        if let info = error.serverInfo, let message = info[.message] {
            return "PostgreSQL says: \(message)" + (info[.hint].map { " (\($0))" } ?? "")
        }
        switch error.code {
        case .connectionError:
            return "cannot connect to PostgreSQL" + (error.underlying.map { " (\($0))" } ?? "")
        case .sslUnsupported:
            return "the PostgreSQL server does not offer TLS; add ?sslmode=disable to the URL if the network is trusted"
        case .authMechanismRequiresPassword:
            return "PostgreSQL asks for a password; put it in the URL (postgres://USER:PASSWORD@HOST/DATABASE)"
        case .unsupportedAuthMechanism, .saslError:
            return "PostgreSQL's way of logging in is not supported here (use scram-sha-256 or md5 password authentication)"
        case .serverClosedConnection, .uncleanShutdown:
            return "the PostgreSQL server closed the connection"
        default:
            return "PostgreSQL failed (\(error.code))"
        }
    }
}
