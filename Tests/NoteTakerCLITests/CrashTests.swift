import Foundation
import GRDB
@testable import NoteTakerKit
import Testing

@Suite("notetaker: killed mid-write")
struct CrashTests {
    let cli = CLIRunner()

    /// Runs `notetaker new` in a loop, kills the loop and the command it is running with
    /// SIGKILL, then checks that every note whose id was printed (acknowledged) is there
    /// and that the store is intact.
    @Test func aKilledWriterLosesNoAcknowledgedNoteAndCorruptsNothing() async throws {
        let acknowledged = cli.directory.appendingPathComponent("acknowledged.txt")
        let script = """
            for i in $(seq 1 2000); do
              "\(CLIRunner.executable.path)" new "note $i" --body "body $i" --tag crash --store "\(cli.storePath)" >> "\(acknowledged.path)" || exit 1
            done
            """
        let loop = Process()
        loop.executableURL = URL(fileURLWithPath: "/bin/sh")
        loop.arguments = ["-c", script]
        try loop.run()
        // Two seconds of the wall clock: a Task.sleep can last minutes while other tests hold
        // the cooperative threads, and the loop would write far more notes than meant.
        usleep(2_000_000)
        // Stop the loop so it starts nothing more, kill the command it is running, then the loop.
        kill(loop.processIdentifier, SIGSTOP)
        let killChildren = try Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-KILL", "-P", String(loop.processIdentifier)])
        killChildren.waitUntilExit()
        kill(loop.processIdentifier, SIGKILL)
        loop.waitUntilExit()

        let ids = try String(contentsOf: acknowledged, encoding: .utf8).split(separator: "\n").compactMap { UUID(uuidString: String($0)) }
        #expect(ids.count > 5)
        let store = try NoteStore.open(at: URL(fileURLWithPath: cli.storePath))
        for id in ids {
            #expect(throws: Never.self) { try store.note(id: id) }
        }
        let queue = try DatabaseQueue(path: cli.storePath, configuration: NoteStore.configuration())
        let check = try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
        try await queue.write { db in try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)") }
        // Each note is found by its own words ("body 17"), however many there are.
        for id in ids {
            let body = try store.note(id: id).body
            let found = try store.search(SearchQuery(body, tag: "crash", limit: 10)).map(\.note.id)
            #expect(found.contains(id), "note \(id.key) ('\(body)') is not found by its words")
        }
    }
}
