import Foundation
import NoteTakerKit
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
