import Foundation
import NoteTakerServer
import PostgresNIO

extension TestStorage {
    /// Copies a stopped server's storage, as its operator backs it up: the SQLite data folder
    /// (`cp -a`), or a PostgreSQL database (a new database made from it as a template).
    /// Returns where the copy is.
    public static func backUp(_ database: ServerDatabase, into folder: URL) async throws -> ServerDatabase {
        switch database {
        case .sqlite(let directory):
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.copyItem(at: directory, to: folder)
            return .sqlite(folder)
        case .postgres(let url):
            return .postgres(try await copyDatabase(url))
        }
    }

    /// Puts a backup back for a stopped server; returns the storage the server then opens: a
    /// fresh copy of the backup (a folder beside the old one, or a new database), so that the
    /// backup stays as it is, and so that nothing the stopped server in this process still
    /// holds open is replaced under it (closing, SQLite removes its log by name). The
    /// README's restore, which replaces the folder itself, is tested through real processes.
    public static func restore(_ backup: ServerDatabase, over database: ServerDatabase) async throws -> ServerDatabase {
        switch (backup, database) {
        case (.sqlite(let copy), .sqlite(let directory)):
            let restored = directory.deletingLastPathComponent()
                .appendingPathComponent("restored \(UUID().uuidString)", isDirectory: true)  // not longer at each restore
            try FileManager.default.copyItem(at: copy, to: restored)
            return .sqlite(restored)
        case (.postgres(let copy), .postgres):
            return .postgres(try await copyDatabase(copy))
        default:
            throw TestStorageError("A backup restores only onto the storage it was taken from.")
        }
    }

    /// A new database in the test cluster made from the one at `url`. PostgreSQL copies a
    /// database only while nobody is connected to it: a server just stopped may take a
    /// moment to close its connections, so this tries again for up to 30 seconds.
    static func copyDatabase(_ url: String) async throws -> String {
        guard let admin = ProcessInfo.processInfo.environment["NOTETAKER_TEST_POSTGRES"],
              var components = URLComponents(string: url), components.path.count > 1 else {
            throw TestStorageError("NOTETAKER_TEST_POSTGRES is not set, or \(url) names no database.")
        }
        let source = String(components.path.dropFirst())
        let name = "notetaker_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                try await withConnection(admin) { connection, logger in
                    try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(source)"), logger: logger)
                }
                break
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55006" && ContinuousClock.now < deadline {
                // "source database is being accessed by other users"
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        components.path = "/" + name
        return components.string ?? url
    }
}
