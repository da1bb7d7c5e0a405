import Foundation

/// How `notetaker-server` runs: where its data lives, where it listens, TLS, limits.
public struct ServerConfiguration: Sendable {
    /// Where everything the server keeps lives.
    public var database: ServerDatabase
    /// The PostgreSQL password, when it is given apart from the URL (read from a file);
    /// otherwise the URL's, or `PGPASSWORD`.
    public var databasePassword: String?
    /// The address to listen on (loopback by default).
    public var host: String
    /// The port to listen on; 0 picks a free one (tests).
    public var port: Int
    /// A PEM certificate (chain) file: with ``tlsKeyPath``, the server speaks HTTPS only.
    public var tlsCertificatePath: String?
    /// The PEM private key of ``tlsCertificatePath``.
    public var tlsKeyPath: String?
    /// The most bytes of records and assets one account may keep.
    public var quotaBytes: Int64
    /// How passwords are hashed.
    public var passwordHasher: PasswordHasher
    /// Whether anyone who reaches the server may create an account (`--registration`).
    public var registrationOpen: Bool
    /// Whether registering takes only end-to-end encrypted accounts (`--require-encryption`).
    public var requiresEncryption = false
    /// How long a connection may sit idle, or with a request's headers half sent, before the
    /// server closes it (idle connections must not pile up to the file limit).
    public var idleTimeoutSeconds: Int64 = 60
    /// How long a request's head may take to arrive, counted from the connection's start or
    /// the previous answer's end: a client trickling its headers a byte at a time (which an
    /// idle timeout never notices) is closed after it.
    public var headerTimeoutSeconds: Int64 = 30
    /// The slowest a request's body may arrive: after the head, a body has
    /// ``headerTimeoutSeconds`` plus a second for every this many bytes received (see
    /// `RequestDeadline`), so one sent a byte at a time is closed.
    public var minimumBodyBytesPerSecond = 1024
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` headers name the client (see
    /// ``ClientAddressRule``); none by default, so no client can name itself.
    public var trustedProxies: [AddressBlock] = []
    /// The most connections one client address (an IPv6 /64) may hold at once; trusted
    /// proxies are not limited. A household behind one address keeps a few per device.
    public var connectionsPerAddress = 100
    /// Where `/metrics` answers instead of beside the API (for example 127.0.0.1, for a
    /// Prometheus on the same machine): the API's address then has no `/metrics`.
    public var metricsHost: String?
    /// The port of ``metricsHost``.
    public var metricsPort = 9471
    /// How long sessions live.
    public var sessionLifetime = SessionLifetime.standard
    /// How long deleted records' tombstones are kept at least.
    public var tombstoneRetention = TombstoneRetention.standard

    /// The default port.
    public static let defaultPort = 8471
    /// The default per-account quota: 10 GB.
    public static let defaultQuota: Int64 = 10 * 1024 * 1024 * 1024

    /// Creates a configuration over an SQLite folder; only the folder is required.
    public init(
        dataDirectory: URL, host: String = "127.0.0.1", port: Int = defaultPort,
        tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil,
        quotaBytes: Int64 = defaultQuota, passwordHasher: PasswordHasher = .standard, registrationOpen: Bool = true
    ) {
        self.init(
            database: .sqlite(dataDirectory), host: host, port: port, tlsCertificatePath: tlsCertificatePath, tlsKeyPath: tlsKeyPath,
            quotaBytes: quotaBytes, passwordHasher: passwordHasher, registrationOpen: registrationOpen)
    }

    /// Creates a configuration; only the database is required.
    public init(
        database: ServerDatabase, host: String = "127.0.0.1", port: Int = defaultPort,
        tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil,
        quotaBytes: Int64 = defaultQuota, passwordHasher: PasswordHasher = .standard, registrationOpen: Bool = true
    ) {
        self.database = database
        self.host = host
        self.port = port
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.quotaBytes = quotaBytes
        self.passwordHasher = passwordHasher
        self.registrationOpen = registrationOpen
    }

    /// The default data folder: `$XDG_DATA_HOME/notetaker-server` (or `~/.local/share/notetaker-server`).
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        return base.appendingPathComponent("notetaker-server", isDirectory: true)
    }

    /// Opens the storage (running PostgreSQL's migrations) and builds the service this
    /// configuration describes, with what must run beside the HTTP server.
    public func openBackend() async throws -> ServerBackend {
        switch database {
        case .sqlite(let directory):
            return ServerBackend(service: try sqliteService(directory), services: [])
        case .postgres(let url):
            let database = try PostgresDatabase(url: url, password: databasePassword)
            let storage = try await PostgresSyncStorage.open(database)
            let broadcast = PostgresChangeBroadcast(database: database)
            let service = SyncService(
                storage: storage, assets: PostgresAssetStore(database: database), broadcast: broadcast,
                throttle: PostgresLoginThrottle(database: database),
                quotaBytes: quotaBytes, hasher: passwordHasher, registrationOpen: registrationOpen, requiresEncryption: requiresEncryption,
                sessionLifetime: sessionLifetime, tombstoneRetention: tombstoneRetention)
            return ServerBackend(service: service, services: [database.client, BroadcastListening(service: service, broadcast: broadcast)])
        }
    }

    /// Opens an SQLite storage, which needs nothing running beside it (tests and tools).
    public func makeService() throws -> SyncService {
        guard case .sqlite(let directory) = database else {
            throw SyncServerError(.internalError, "A PostgreSQL storage is opened with openBackend(), which runs its connection pool.")
        }
        return try sqliteService(directory)
    }

    private func sqliteService(_ directory: URL) throws -> SyncService {
        let storage = try SQLiteSyncStorage(url: directory.appendingPathComponent("NoteTakerServer.sqlite"))
        return SyncService(
            storage: storage, assets: FileAssetStore(directory: directory.appendingPathComponent("assets", isDirectory: true)),
            quotaBytes: quotaBytes, hasher: passwordHasher, registrationOpen: registrationOpen, requiresEncryption: requiresEncryption,
                sessionLifetime: sessionLifetime, tombstoneRetention: tombstoneRetention)
    }
}
