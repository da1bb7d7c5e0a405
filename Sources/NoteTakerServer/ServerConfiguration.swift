import Foundation

/// How `notetaker-server` runs: where its data lives, where it listens, TLS, limits.
public struct ServerConfiguration: Sendable {
    /// The folder holding `NoteTakerServer.sqlite` and the `assets/` folder.
    public var dataDirectory: URL
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
    /// How long a connection may sit idle, or with a request's headers half sent, before the
    /// server closes it (idle connections must not pile up to the file limit).
    public var idleTimeoutSeconds: Int64 = 60
    /// How long a request's head may take to arrive, counted from the connection's start or
    /// the previous answer's end: a client trickling its headers a byte at a time (which an
    /// idle timeout never notices) is closed after it.
    public var headerTimeoutSeconds: Int64 = 30

    /// The default port.
    public static let defaultPort = 8471
    /// The default per-account quota: 10 GB.
    public static let defaultQuota: Int64 = 10 * 1024 * 1024 * 1024

    /// Creates a configuration; only the data folder is required.
    public init(
        dataDirectory: URL, host: String = "127.0.0.1", port: Int = defaultPort,
        tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil,
        quotaBytes: Int64 = defaultQuota, passwordHasher: PasswordHasher = .standard, registrationOpen: Bool = true
    ) {
        self.dataDirectory = dataDirectory
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

    /// Opens the storage and builds the service this configuration describes.
    public func makeService() throws -> SyncService {
        let storage = try SQLiteSyncStorage(url: dataDirectory.appendingPathComponent("NoteTakerServer.sqlite"))
        return SyncService(
            storage: storage, assetsDirectory: dataDirectory.appendingPathComponent("assets", isDirectory: true),
            quotaBytes: quotaBytes, hasher: passwordHasher, registrationOpen: registrationOpen)
    }
}
