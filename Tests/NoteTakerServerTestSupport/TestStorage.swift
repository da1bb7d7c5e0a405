import Foundation
import Logging
import NoteTakerServer
import PostgresNIO

/// The storage the server and sync tests run on: SQLite in a fresh folder by default, or a
/// fresh PostgreSQL database when `NOTETAKER_TEST_STORAGE=postgres` (with
/// `NOTETAKER_TEST_POSTGRES` the URL of a cluster the tests may create databases in, as
/// `scripts/test` sets both for its second run of these suites).
public enum TestStorage {
    /// Whether the tests run on PostgreSQL.
    public static var usesPostgres: Bool {
        ProcessInfo.processInfo.environment["NOTETAKER_TEST_STORAGE"] == "postgres"
    }

    /// A configuration over fresh storage: `directory` for SQLite, else a new database.
    public static func configuration(
        directory: URL, port: Int = ServerConfiguration.defaultPort, quotaBytes: Int64 = ServerConfiguration.defaultQuota,
        registrationOpen: Bool = true
    ) async throws -> ServerConfiguration {
        var configuration = ServerConfiguration(
            dataDirectory: directory, port: port, quotaBytes: quotaBytes, passwordHasher: .fastForTests, registrationOpen: registrationOpen)
        if usesPostgres { configuration.database = .postgres(try await newDatabase()) }
        return configuration
    }

    /// Creates an empty database in the test cluster and returns its URL.
    public static func newDatabase() async throws -> String {
        guard let admin = ProcessInfo.processInfo.environment["NOTETAKER_TEST_POSTGRES"],
              var components = URLComponents(string: admin) else {
            throw TestStorageError("NOTETAKER_TEST_POSTGRES is not set: scripts/test starts a PostgreSQL cluster and sets it.")
        }
        let name = "notetaker_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await withConnection(admin) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        components.path = "/" + name
        return components.string ?? admin
    }

    /// Runs the backend's services (PostgreSQL's pool, the broadcast listener) in the
    /// background, for tests that drive the service without serving HTTP, until the task
    /// returned is cancelled (or the test process ends).
    @discardableResult
    public static func start(_ backend: ServerBackend) -> Task<Void, Never> {
        let services = backend.services
        return Task {
            await withDiscardingTaskGroup { group in
                for service in services {
                    group.addTask { try? await service.run() }
                }
            }
        }
    }

    /// The bytes the storage keeps about accounts and sessions, to look for secrets in: the
    /// SQLite file and its log, or every row of PostgreSQL's account and session tables.
    public static func storedAccountBytes(_ configuration: ServerConfiguration) async throws -> Data {
        switch configuration.database {
        case .sqlite(let directory):
            let file = try Data(contentsOf: directory.appendingPathComponent("NoteTakerServer.sqlite"))
            let log = (try? Data(contentsOf: directory.appendingPathComponent("NoteTakerServer.sqlite-wal"))) ?? Data()
            return file + log
        case .postgres(let url):
            return try await rows(url, "SELECT t::text FROM account t UNION ALL SELECT t::text FROM session t")
        }
    }

    /// How many attachment files are stored, finished or not.
    public static func storedFileCount(_ configuration: ServerConfiguration) async throws -> Int {
        switch configuration.database {
        case .sqlite(let directory):
            let files = FileManager.default.enumerator(at: directory.appendingPathComponent("assets"), includingPropertiesForKeys: [.isRegularFileKey])
            return files?.compactMap { ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile } }
                .filter { $0 }.count ?? 0
        case .postgres(let url):
            return try await rows(url, "SELECT id::text FROM asset_blob").split(separator: UInt8(ascii: "\n")).count
        }
    }

    /// Runs one SQL statement in the database at `url`.
    public static func execute(_ url: String, _ sql: String) async throws {
        try await withConnection(url) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            return ()
        }
    }

    private static func rows(_ url: String, _ sql: String) async throws -> Data {
        try await withConnection(url) { connection, logger in
            var data = Data()
            for try await text in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String.self) {
                data += Data((text + "\n").utf8)
            }
            return data
        }
    }

    static func withConnection<T: Sendable>(
        _ url: String, _ body: (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw TestStorageError("'\(url)' is not a PostgreSQL URL.")
        }
        let logger = Logger(label: "notetaker-tests.postgres")
        let configuration = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: components.password,
            database: String(components.path.dropFirst()), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let result = try await body(connection, logger)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// A test storage that cannot be set up.
public struct TestStorageError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
