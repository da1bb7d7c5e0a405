import Foundation
import NoteTakerServerTestSupport
import Testing

extension CanaryTests {
    /// The canary through a share (docs/sharing.md §6): the marked folder shared with a member
    /// who edits it and attaches a file, a viewer invited and removed (the key rotates), an
    /// edit after the removal, the share's history read; then neither the marker nor its
    /// SHA-256 may appear anywhere the server's operator looks.
    @Test("a shared folder, its members' edits, files and history: the marker and its SHA-256 are nowhere on the server",
          arguments: RestoredServerTests.backends)
    func nothingReadableInAShare(backend: RestoredServerTests.Backend) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("canary-share-\(UUID()).log")
        let database = backend == .postgres ? try await TestStorage.newDatabase() : nil
        let server = try ServerProcess(database: database, logFile: log, logLevel: "trace")
        defer { try? FileManager.default.removeItem(at: log) }
        let m = Self.marker
        let (fileContent, memberFile) = ("\(m) the file's bytes", "\(m) the member's bytes")
        let (ada, bob, carol) = (CLIRunner(), CLIRunner(), CLIRunner())
        let (note, _) = try Self.markEverything(on: ada, fileContent: fileContent)
        try bob.ok(["sync", "settings", "--device-name", "\(m) member's phone", "--auto", "off"])
        for (runner, name) in [(ada, "ada"), (bob, "bob"), (carol, "carol")] {
            try runner.ok(["account", "register", "--server", server.url.absoluteString, "--user", name, "--password-stdin"],
                          stdin: "correct horse battery\n")
        }
        try ada.ok(["sync"])

        let shared = try #require(try ada.run(["share", "\(m) folder", "--with", "bob", "--json"]).json() as? [String: Any])
        let zone = try #require(shared["zone"] as? String)
        try bob.ok(["share", "accept", "ada"])
        try bob.ok(["edit", note, "--body", "\(m) the member's words", "--shared", zone])
        let file = bob.directory.appendingPathComponent("\(m) member's file.txt")
        try Data(memberFile.utf8).write(to: file)
        try bob.ok(["attach", note, file.path, "--shared", zone])
        try bob.ok(["sync"])
        try ada.ok(["sync"])
        #expect(try ada.ok(["show", note, "--shared", zone]).contains("\(m) the member's words"))

        // A viewer invited, then removed: the share's key rotates, and the next edit is sealed with the new one.
        try ada.ok(["share", zone, "--with", "carol", "--view"])
        try carol.ok(["share", "accept", "ada"])
        try ada.ok(["share", "remove", zone, "carol"])
        try ada.ok(["edit", note, "--title", "\(m) title, after the removal", "--shared", zone])
        try ada.ok(["sync"])
        try bob.ok(["sync"])
        #expect(try bob.ok(["show", note, "--shared", zone]).contains("\(m) title, after the removal"))
        let history = try bob.ok(["history", note, "--shared", zone])
        #expect(history.contains("\(m) laptop"), "the member reads the share's versions, with the device that wrote each: \(history)")

        try await Self.expectNothingReadable(server: server, database: database, log: log, texts: [m, fileContent, memberFile])
    }
}
