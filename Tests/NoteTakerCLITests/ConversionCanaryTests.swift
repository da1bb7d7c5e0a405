import Foundation
import NoteTakerServerTestSupport
import Testing

/// The canary of issue 41 through a conversion: an account without encryption holds the marker
/// in every field of every kind of record, a tag's, a file's and a device's name, a file's
/// bytes and an earlier version; a second device has an edit unsent. Once the account is
/// converted (`notetaker account encrypt` on a device that syncs with it) and the other device
/// logged in again and synced, the server's operator finds neither the marker nor its SHA-256
/// anywhere: not in the freed pages of its database either.
@Suite("What the server's operator can read of an account converted to encryption")
struct ConversionCanaryTests {
    @Test("after a conversion the marker and its SHA-256 are nowhere on the server", arguments: RestoredServerTests.backends)
    func nothingReadableAfterConversion(backend: RestoredServerTests.Backend) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("conversion-canary-\(UUID()).log")
        let database = backend == .postgres ? try await TestStorage.newDatabase() : nil
        let server = try ServerProcess(database: database, logFile: log, logLevel: "trace")
        defer { try? FileManager.default.removeItem(at: log) }
        let url = server.url.absoluteString
        let m = CanaryTests.marker
        let fileContent = "\(m) the file's bytes, before the conversion"

        let laptop = CLIRunner()
        let (note, _) = try CanaryTests.markEverything(on: laptop, fileContent: fileContent)
        try laptop.ok(["account", "register", "--unencrypted", "--server", url, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try laptop.ok(["sync"])
        try laptop.ok(["edit", note, "--body", "\(m) body, second version"])
        try laptop.ok(["sync"])
        let phone = CLIRunner()
        try phone.ok(["sync", "settings", "--device-name", "\(m) phone", "--auto", "off"])
        try phone.ok(["account", "login", "--unencrypted", "--server", url, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try phone.ok(["sync"])
        try phone.ok(["edit", note, "--title", "\(m) title, from the phone"])

        let converted = try laptop.ok(["account", "encrypt", "--server", url, "--user", "ada", "--password-stdin"],
                                      stdin: "correct horse battery\n\(m) is not the password\n")
        #expect(converted.contains("The conversion is finished"), "\(converted)")
        #expect(try phone.run(["sync"]).status == 1, "the phone's session ended")
        try phone.ok(["account", "login", "--server", url, "--user", "ada", "--password-stdin"], stdin: "\(m) is not the password\n")
        try phone.ok(["sync"])
        try laptop.ok(["sync"])
        #expect(try laptop.ok(["show", note]).contains("\(m) title, from the phone"), "the phone's unsent edit came through")
        let history = try phone.ok(["history", note])
        #expect(history.contains("\(m) laptop"), "the versions kept before the conversion still open: \(history)")

        try await CanaryTests.expectNothingReadable(server: server, database: database, log: log, texts: [m, fileContent])
    }
}
