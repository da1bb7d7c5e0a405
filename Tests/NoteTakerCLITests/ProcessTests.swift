import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@Suite("notetaker: the process")
struct ProcessTests {
    let cli = CLIRunner()

    @Test func exitStatusesSayWhoIsAtFault() throws {
        #expect(try cli.run(["--help"], store: false).status == 0)
        #expect(try cli.run(["--help"], store: false).stdout.contains("USAGE: notetaker"))
        #expect(try cli.run(["frobnicate"]).status == 2)
        #expect(try cli.run(["new"]).status == 2)
        #expect(try cli.run(["new", "x", "--body", "a", "--stdin"]).status == 2)
        let user = try cli.run(["show", "abc"])
        #expect(user.status == 1)
        #expect(user.stderr.hasPrefix("error: "))
    }

    @Test("--version prints the same version for notetaker, notetaker-full and notetaker-server")
    func versions() throws {
        let folder = CLIRunner.executable.deletingLastPathComponent()
        for executable in ["notetaker", "notetaker-full", "notetaker-server"] {
            let result = try cli.run(["--version"], store: false, executable: folder.appendingPathComponent(executable))
            #expect(result.status == 0, "\(executable): \(result.stderr)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == NoteTakerVersion.current, "\(executable): \(result.stdout)")
        }
    }

    @Test func companionCommandsRunInNotetakerFull() throws {
        let help = try cli.run(["--help"], store: false).stdout
        for command in ["account", "sync", "history", "export", "import", "serve", "search", "tour"] {
            #expect(help.contains("  \(command) "), "notetaker --help does not list \(command)")
        }
        // Options only notetaker-full knows, and errors that only it words.
        #expect(try cli.run(["serve", "--help"], store: false).stdout.contains("--port <port>"))
        #expect(try cli.run(["help", "import"], store: false).stdout.contains("USAGE: notetaker import"))
        let refused = try cli.run(["import", cli.directory.appendingPathComponent("missing.json").path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: "), "\(refused.stderr)")
        #expect(try cli.run(["serve", "--port", "70000"]).status == 2)
        let exposed = try cli.run(["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(exposed.status == 1 && exposed.stderr.contains("in the clear"), "\(exposed.stderr)")
        #expect(try cli.run(["serve", "--tls-cert", "cert.pem"]).status == 2, "a certificate needs its key")
    }

    @Test func aNotetakerWithoutItsCompanionSaysWhatToInstall() throws {
        let alone = cli.directory.appendingPathComponent("bin/notetaker")
        try FileManager.default.createDirectory(at: alone.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLIRunner.executable, to: alone)
        try #require(try cli.run(["new", "Still here"], executable: alone).status == 0)
        let result = try cli.run(["sync"], executable: alone)
        #expect(result.status == 1)
        #expect(result.stderr.contains("notetaker-full, which is not beside notetaker"), "\(result.stderr)")
        #expect(try cli.run(["list"], executable: alone).stdout.contains("Still here"))
    }

    @Test func storeMayComeBeforeTheCommand() throws {
        let result = try cli.run(["--store", cli.storePath, "new", "First"], store: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.run(["--store=\(cli.storePath)", "list"], store: false).stdout.contains("First"))
        #expect(try cli.run(["list"]).stdout.contains("First"))
    }

    @Test func storeComesFromTheEnvironmentOrXDG() throws {
        let custom = cli.directory.appendingPathComponent("custom.sqlite").path
        try #require(try cli.run(["new", "env"], environment: ["NOTETAKER_STORE": custom], store: false).status == 0)
        #expect(FileManager.default.fileExists(atPath: custom))
        try #require(try cli.run(["new", "xdg"], store: false).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.directory.appendingPathComponent("xdg/notetaker/NoteTaker.sqlite").path))
    }

    @Test func aFileThatIsNotAStoreIsLeftAlone() throws {
        let path = cli.directory.appendingPathComponent("diary.txt").path
        let text = Data("Dear diary".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        let result = try cli.run(["list", "--store", path], store: false)
        #expect(result.status == 1)
        #expect(result.stderr.contains("not an SQLite database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func aLiveQuerySeesAnotherProcessWrite() async throws {
        let store = try NoteStore.open(at: URL(fileURLWithPath: cli.storePath))
        let stream = store.observeNotes()
        async let seen: [Note]? = {
            for try await notes in stream where notes.contains(where: { $0.title == "From the CLI" }) {
                return notes
            }
            return nil
        }()
        try await Task.sleep(for: .milliseconds(300))
        try cli.ok(["new", "From the CLI"])
        #expect(try await seen?.count == 1)
    }

    @Test func theTourRunsOnATemporaryStore() throws {
        let result = try cli.run(["tour"], store: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("$ notetaker search creme"))
        #expect(result.stdout.contains("[crème]"))
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appendingPathComponent("xdg").path))
    }
}
