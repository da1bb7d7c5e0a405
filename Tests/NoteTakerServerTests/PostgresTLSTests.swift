import Foundation
import NoteTakerServerTestSupport
@testable import NoteTakerServer
import PostgresNIO
import Testing

/// The CA that signed the test cluster's certificate (scripts/test sets it).
private let testClusterCA = ProcessInfo.processInfo.environment["NOTETAKER_TEST_POSTGRES_CA"]

/// TLS to a real PostgreSQL: the test cluster (scripts/postgres-cluster) takes TLS with a
/// certificate its own CA signed, named `NOTETAKER_TEST_POSTGRES_CA`.
@Suite("PostgreSQL over TLS", .enabled(if: testClusterCA != nil))
struct PostgresTLSTests {
    /// The test cluster's URL with `query` in place of its own.
    private func url(_ query: String, host: String = "127.0.0.1") throws -> String {
        let admin = try #require(ProcessInfo.processInfo.environment["NOTETAKER_TEST_POSTGRES"])
        var components = try #require(URLComponents(string: admin))
        components.host = host
        components.query = query
        return try #require(components.string)
    }

    /// Whether the connection `url` makes is encrypted, as the database sees it.
    private func encrypted(_ url: String) async throws -> Bool {
        let database = try PostgresDatabase(url: url, environment: [:])
        return try await database.withSetUpConnection { connection in
            let rows = try await connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: database.logger)
            for try await ssl in rows.decode(Bool.self) { return ssl }
            return false
        }
    }

    @Test("verify-full with the CA that signed the database's certificate: encrypted, by address or by name")
    func verified() async throws {
        let ca = try #require(testClusterCA)
        #expect(try await encrypted(try url("sslmode=verify-full&sslrootcert=\(ca)")))
        #expect(try await encrypted(try url("sslmode=verify-full&sslrootcert=\(ca)", host: "localhost")))
        #expect(try await !encrypted(try url("sslmode=disable")), "the same cluster, plainly, for contrast")
        // The default: encrypted when offered, even with a certificate nobody here trusts (as
        // with Debian's self-signed one), instead of refusing to connect.
        #expect(try await encrypted(try url("")))
    }

    @Test("verify-full refuses a certificate another CA signed, and the system's roots do not know the test CA")
    func refused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("other-ca-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = try makeCertificateAuthority(in: folder, name: "Another CA")
        for query in ["sslmode=verify-full&sslrootcert=\(other.path)", "sslmode=verify-full"] {
            await #expect(throws: (any Error).self, "\(query)") { _ = try await encrypted(try url(query)) }
        }
    }
}
