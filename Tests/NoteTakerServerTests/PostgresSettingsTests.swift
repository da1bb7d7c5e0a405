import Foundation
import Logging
@testable import NoteTakerServer
import Testing

/// How a PostgreSQL URL is read: where the password comes from, TLS's settings, and the
/// warnings an operator needs (nothing here connects).
@Suite("PostgreSQL settings")
struct PostgresSettingsTests {
    @Test("the password comes from the caller's file, else the URL, else PGPASSWORD")
    func passwordSources() throws {
        let environment = ["PGPASSWORD": "from-environment"]
        #expect(try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=require", environment: environment).password == "from-environment")
        #expect(try PostgresDatabase(url: "postgres://notes:in%40url@db.example/n?sslmode=require", environment: environment).password == "in@url")
        #expect(try PostgresDatabase(url: "postgres://notes:in-url@db.example/n?sslmode=require", password: "from-file", environment: environment).password == "from-file")
        #expect(try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=require", environment: [:]).password == nil)
    }

    @Test("sslmode takes verify-full; sslrootcert must be readable; an unknown mode names the ones there are")
    func tlsSettings() throws {
        _ = try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=verify-full", environment: [:])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ca = try makeCertificateAuthority(in: folder, name: "Test CA"), garbage = folder.appendingPathComponent("garbage.pem")
        _ = try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=verify-full&sslrootcert=\(ca.path)", environment: [:])
        try Data("not a certificate".utf8).write(to: garbage)
        #expect { _ = try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=verify-full&sslrootcert=\(garbage.path)", environment: [:]) }
            throws: { ($0 as? SyncServerError)?.message.contains("holds no certificate") == true }
        #expect { _ = try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem", environment: [:]) }
            throws: { ($0 as? SyncServerError)?.message.contains("sslrootcert names '/nonexistent/ca.pem'") == true }
        #expect { _ = try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=sometimes", environment: [:]) }
            throws: { ($0 as? SyncServerError)?.message.contains("verify-full") == true }
    }

    @Test("an unencrypted connection to another machine, and a password in the URL, are logged as warnings")
    func warnings() throws {
        let recorder = RecordedLog()
        let logger = Logger(label: "test") { _ in recorder }
        _ = try PostgresDatabase(url: "postgres://notes:secret@db.example/n?sslmode=disable", environment: [:], logger: logger)
        let lines = recorder.lines
        #expect(lines.contains { $0.contains("is not encrypted") && $0.contains("db.example") })
        #expect(lines.contains { $0.contains("password is in the database URL") && !$0.contains("secret") })
        let quiet = RecordedLog()
        _ = try PostgresDatabase(url: "postgres://notes@127.0.0.1/n?sslmode=disable", environment: [:], logger: Logger(label: "test") { _ in quiet })
        _ = try PostgresDatabase(url: "postgres://notes@db.example/n?sslmode=verify-full", environment: [:], logger: Logger(label: "test") { _ in quiet })
        #expect(quiet.lines.isEmpty, "loopback, or verified TLS: nothing to warn about")
    }
}

/// A log handler that keeps each message.
private final class RecordedLog: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [String] { lock.withLock { kept } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { kept.append("\(event.message)") }
    }
}
