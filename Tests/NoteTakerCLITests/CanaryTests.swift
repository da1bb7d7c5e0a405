import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerServerTestSupport
import Testing

/// The canary of issue 41: a marker in every field of every kind of record, in a folder's,
/// a tag's, a file's and a device's name and in a file's bytes, synced by an end-to-end
/// encrypted account from two devices, through edits, a password change, a key rotation and
/// a history fetch; then neither the marker nor its SHA-256 may appear anywhere the server's
/// operator looks: its data folder (SQLite, files, backups), its PostgreSQL database
/// (`pg_dump`), its log at its most talkative and `/metrics`.
@Suite("What the server's operator can read of an encrypted account")
struct CanaryTests {
    static let marker = "Zebracanary4417"

    /// The spellings of `text` and of its SHA-256 an operator could search for.
    static func traces(of text: String) -> [String: Data] {
        let digest = Data(SHA256.hash(data: Data(text.utf8)))
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        return [
            "\(text)": Data(text.utf8), "\(text) (lower case)": Data(text.lowercased().utf8),
            "SHA-256 of \(text) (hex)": Data(hex.utf8), "SHA-256 of \(text) (HEX)": Data(hex.uppercased().utf8),
            "SHA-256 of \(text) (bytes)": digest, "SHA-256 of \(text) (base64)": Data(digest.base64EncodedString().utf8),
            "SHA-256 of \(text) (base64url)": Data(digest.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "").utf8),
        ]
    }

    @Test("the marker and its SHA-256 are nowhere on the server", arguments: RestoredServerTests.backends)
    func nothingReadable(backend: RestoredServerTests.Backend) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("canary-server-\(UUID()).log")
        let database = backend == .postgres ? try await TestStorage.newDatabase() : nil
        let server = try ServerProcess(database: database, logFile: log, logLevel: "trace")
        defer { try? FileManager.default.removeItem(at: log) }
        let url = server.url.absoluteString
        let m = Self.marker
        let fileContent = "\(m) the file's bytes"
        let laptop = CLIRunner()
        let (note, other) = try Self.markEverything(on: laptop, fileContent: fileContent)
        try laptop.ok(["account", "register", "--server", url, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try laptop.ok(["sync"])

        // Edits kept as versions on the server; a second device; a new password; the history fetched.
        try laptop.ok(["edit", note, "--body", "\(m) body, second version"])
        try laptop.ok(["sync"])
        let phone = CLIRunner()
        try phone.ok(["sync", "settings", "--device-name", "\(m) phone", "--auto", "off"])
        try phone.ok(["account", "login", "--server", url, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try phone.ok(["sync"])
        try phone.ok(["edit", note, "--title", "\(m) title, from the phone"])
        try phone.ok(["sync"])
        try laptop.ok(["account", "password", "--password-stdin"], stdin: "correct horse battery\n\(m) is not the password either\n")
        try phone.ok(["account", "login", "--server", url, "--user", "ada", "--password-stdin"], stdin: "\(m) is not the password either\n")
        try phone.ok(["sync"])
        // A rotation: every record goes up again sealed with the new key, and the phone learns it.
        try laptop.ok(["account", "rotate-keys", "--password-stdin"], stdin: "\(m) is not the password either\n")
        try laptop.ok(["edit", other, "--body", "\(m) linked body, after the rotation"])
        try laptop.ok(["sync"])
        try phone.ok(["sync"])
        #expect(try phone.ok(["show", other]).contains("\(m) linked body, after the rotation"))
        let history = try phone.ok(["history", note])
        #expect(history.contains("\(m) laptop"), "the devices read the versions the server holds: \(history)")
        #expect(try phone.ok(["show", note]).contains("\(m) body, second version"))
        #expect(try laptop.ok(["account", "sessions"]).contains("\(m) phone"), "the devices read their names")
        // A published page of the note, its picture inlined: sealed here, its key only in the link.
        #expect(try laptop.ok(["publish", note]).contains("/p/"))

        try await Self.expectNothingReadable(server: server, database: database, log: log, texts: [m, fileContent])
    }

    /// Puts the marker in every kind of record `device` holds, in every field a person
    /// writes, in its device name, a file's name and `fileContent`, a file's bytes; returns
    /// the note with the file and the note it links to.
    static func markEverything(on device: CLIRunner, fileContent: String) throws -> (note: String, other: String) {
        let m = marker
        try device.ok(["sync", "settings", "--device-name", "\(m) laptop", "--auto", "off"])
        try device.ok(["folder", "new", "\(m) folder"])
        let other = try device.ok(["new", "\(m) linked note", "--body", "\(m) linked body"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let note = try device.ok([
            "new", "\(m) title", "--body", "\(m) body, and [\(m) link](note:\(other))", "--tag", "\(m)-tag", "--folder", "\(m) folder", "--pin",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        let file = device.directory.appendingPathComponent("\(m) file.txt")
        try Data(fileContent.utf8).write(to: file)
        try device.ok(["attach", note, file.path])
        let trashed = try device.ok(["new", "\(m) trashed", "--body", "\(m) gone"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try device.ok(["rm", trashed])
        return (note, other)
    }

    /// Reads every place the server's operator looks (its data folder, its PostgreSQL
    /// database, `/metrics`, then its log, once it is stopped) and records an issue for each
    /// trace of `texts` found.
    static func expectNothingReadable(server: ServerProcess, database: String?, log: URL, texts: [String]) async throws {
        var places: [(String, Data)] = []
        if let files = FileManager.default.enumerator(at: server.dataDirectory, includingPropertiesForKeys: nil) {
            for case let path as URL in files where (try? path.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                places.append((path.path, try Data(contentsOf: path)))
            }
        }
        if let database {
            let dump = FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID()).sql")
            defer { try? FileManager.default.removeItem(at: dump) }
            try RestoredServerTests.Storage.postgresTool("pg_dump", ["--format=plain", "--file=\(dump.path)", "--dbname=\(database)"])
            places.append(("pg_dump", try Data(contentsOf: dump)))
        }
        let (metrics, _) = try await URLSession.shared.data(from: server.url.appendingPathComponent("metrics"))
        places.append(("/metrics", metrics))
        server.process.interrupt()
        server.process.waitUntilExit()
        places.append(("the server's log", try Data(contentsOf: log)))
        // What the server may learn is there to be found: the search reads the right bytes.
        let learned = [("the server's log", "route=/v1/records/modify"), ("/metrics", "notetaker_"), (database == nil ? "NoteTakerServer.sqlite" : "pg_dump", "ada")]
        for (place, text) in learned {
            #expect(places.contains { $0.0.contains(place) && $0.1.range(of: Data(text.utf8)) != nil }, "\(place) holds \(text)")
        }

        let traces = texts.reduce(into: [String: Data]()) { all, text in all.merge(Self.traces(of: text)) { first, _ in first } }
        for (trace, bytes) in traces {
            for (place, data) in places where data.range(of: bytes) != nil {
                Issue.record("\(trace) is readable in \(place)")
            }
        }
    }
}
