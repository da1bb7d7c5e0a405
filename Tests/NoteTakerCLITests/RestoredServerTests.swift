import Foundation
import NoteTakerServerTestSupport
import Testing

/// A server restored from a backup, as a self-hoster does it after losing a disk, with the
/// README's steps: every device heals, and nothing written after the backup is lost.
@Suite("A server restored from a backup")
struct RestoredServerTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// Where the server keeps its data, and how the README backs it up and restores it.
    struct Storage {
        let backend: Backend
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-restore-\(UUID().uuidString)")
        var backup: URL { folder.appendingPathExtension("bak") }
        var dump: URL { folder.appendingPathExtension("dump") }
        var database: String?

        func start(port: Int = 0) throws -> ServerProcess {
            try ServerProcess(dataDirectory: folder, database: database, port: port)
        }

        /// `cp -a DATA DATA.bak`, or `pg_dump --format=custom`.
        func backUp() throws {
            switch backend {
            case .sqlite: try FileManager.default.copyItem(at: folder, to: backup)
            case .postgres: try Self.postgresTool("pg_dump", ["--format=custom", "--file=\(dump.path)", "--dbname=\(database ?? "")"])
            }
        }

        /// Puts the backup in place of the data: the folder replaced, or `pg_restore --clean`.
        func restore() throws {
            switch backend {
            case .sqlite:
                try FileManager.default.removeItem(at: folder)
                try FileManager.default.copyItem(at: backup, to: folder)
            case .postgres:
                try Self.postgresTool("pg_restore", ["--clean", "--if-exists", "--single-transaction", "--no-owner",
                                                     "--dbname=\(database ?? "")", dump.path])
            }
        }

        /// Runs one of PostgreSQL's client programs, failing the test with what it printed.
        static func postgresTool(_ name: String, _ arguments: [String]) throws {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
            let bin = versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.last.map { "/usr/lib/postgresql/\($0)/bin" }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "\(try #require(bin, "PostgreSQL is not installed"))/\(name)")
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let printed = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(name) failed: \(printed)")
        }
    }

    static var backends: [Backend] {
        ProcessInfo.processInfo.environment["NOTETAKER_TEST_POSTGRES"] == nil ? [.sqlite] : Backend.allCases
    }

    private func stop(_ server: ServerProcess) {
        server.process.terminate()
        server.process.waitUntilExit()
    }

    private func login(_ device: CLIRunner, _ server: ServerProcess) throws {
        try device.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
    }

    private func expectWhole(_ device: CLIRunner, _ name: String, one: String, two: String) throws {
        #expect(try device.ok(["show", one, "--json"]).contains("v2 after backup"), "\(name) lost the edit made after the backup")
        #expect(try device.ok(["show", two, "--json"]).contains("made after backup"), "\(name) lost the note made after the backup")
        #expect(try device.ok(["conflicts"]) == "No conflicts.", "\(name)")
    }

    @Test("the README's restore: both devices and a new one end with the work done after the backup", arguments: backends)
    func restoreFromBackup(_ backend: Backend) async throws {
        var storage = Storage(backend: backend)
        if backend == .postgres { storage.database = try await TestStorage.newDatabase() }
        var server = try storage.start()
        let port = try #require(server.url.port)
        let laptop = CLIRunner()
        try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        let one = try laptop.ok(["new", "One", "--body", "v1"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try laptop.ok(["sync"])
        let phone = CLIRunner()
        try login(phone, server)
        try phone.ok(["sync"])

        stop(server)
        try storage.backUp()
        server = try storage.start(port: port)
        try laptop.ok(["edit", one, "--body", "v2 after backup"])
        let two = try laptop.ok(["new", "Two", "--body", "made after backup"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try laptop.ok(["sync"]).hasPrefix("Synced: sent 2"))
        try phone.ok(["sync"])

        stop(server)
        try storage.restore()
        server = try storage.start(port: port)
        defer { stop(server) }

        let healed = try laptop.ok(["sync"])
        #expect(healed.contains("restored from an older copy"), "\(healed)")
        #expect(healed.contains("2 notes"), "\(healed)")
        try expectWhole(laptop, "the laptop", one: one, two: two)
        #expect(try laptop.ok(["sync", "status"]).contains("restored from an older copy"))

        let phoneReport = try #require(try phone.run(["sync", "--json"]).json() as? [String: Any])
        #expect(phoneReport["serverRestored"] as? Bool == true, "\(phoneReport)")
        try expectWhole(phone, "the phone", one: one, two: two)

        let tablet = CLIRunner()
        try login(tablet, server)
        try tablet.ok(["sync"])
        try expectWhole(tablet, "a new device", one: one, two: two)
        // Everything settled: another round sends and fetches nothing.
        let again = try #require(try laptop.run(["sync", "--json"]).json() as? [String: Any])
        #expect(again["pushed"] as? Int == 0 && again["serverRestored"] as? Bool == false, "\(again)")
    }
}
