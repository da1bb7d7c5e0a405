import Foundation
import NoteTakerServerTestSupport
import Synchronization
import Testing

/// Several `notetaker-server` processes on one PostgreSQL database (the cluster
/// `scripts/test` starts; without it these are skipped).
@Suite("Several server nodes on PostgreSQL", .enabled(if: ProcessInfo.processInfo.environment["NOTETAKER_TEST_POSTGRES"] != nil))
struct MultiNodeTests {
    @Test("a change pushed through one node reaches a device listening on the other; a log-out on one ends the stream on the other")
    func pushAcrossNodes() async throws {
        let database = try await TestStorage.newDatabase()
        let first = try ServerProcess(database: database)
        let second = try ServerProcess(database: database)
        let laptop = CLIRunner()
        try laptop.ok(["account", "register", "--server", first.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        let token = try String(contentsOf: laptop.directory.appendingPathComponent("NoteTaker.sync-token"), encoding: .utf8)

        // A device listening on the second node, with the session made on the first.
        let listener = try EventStream(url: second.url.appendingPathComponent("v1/events"), token: token)
        let opening = try #require(listener.next(within: .seconds(10)), "the second node sent no first event")
        #expect(opening.contains("event: changes"))

        try laptop.ok(["new", "Written on the laptop"])
        try laptop.ok(["sync"])
        let pushed = try #require(listener.next(within: .seconds(10)), "the change made through the first node was not pushed by the second")
        #expect(pushed.contains("event: changes"))
        #expect(pushed != opening, "the pushed token must be newer than the first one")

        let phone = CLIRunner()
        try phone.ok(["account", "login", "--server", second.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        try phone.ok(["sync"])
        #expect(try phone.ok(["list"]).contains("Written on the laptop"))

        try laptop.ok(["account", "logout"])
        #expect(listener.ends(within: .seconds(10)), "the stream on the second node outlived the session ended on the first")
    }

    @Test("migrate brings a new database up to date; a database from a newer server is refused with a clear message")
    func migrations() async throws {
        let database = try await TestStorage.newDatabase()
        let tool = CLIRunner()
        let server = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        let migrated = try tool.run(["migrate", "--database", database], store: false, executable: server)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("up to date"))
        #expect(try tool.run(["migrate", "--database", database], store: false, executable: server).status == 0)

        try await TestStorage.execute(database, "INSERT INTO notetaker_schema (version) VALUES (999)")
        let refused = try tool.run(["migrate", "--database", database], store: false, executable: server)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("newer notetaker-server"), "\(refused.stderr)")
        let serve = try tool.run(["serve", "--database", database, "--port", "0"], store: false, executable: server)
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("newer notetaker-server"))

        let wrong = try tool.run(["migrate", "--database", "mysql://nobody@localhost/db"], store: false, executable: server)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("sqlite:FOLDER or postgres://"))
    }
}

/// A push stream read by curl: its events as they come, each read with a deadline.
final class EventStream: Sendable {
    private let process = Process()
    /// The events read and not yet taken.
    private final class Received: Sendable {
        let events = Mutex<[String]>([])
    }
    private let received = Received()

    init(url: URL, token: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--no-buffer", "-H", "Authorization: Bearer \(token)", url.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        let received = self.received
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            let text = String(decoding: data, as: UTF8.self)
            received.events.withLock { $0 += text.components(separatedBy: "\n\n").filter { $0.hasPrefix("event:") } }
        }
        try process.run()
    }

    /// The next event, or `nil` when none came in time.
    func next(within limit: Duration) -> String? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let event = received.events.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
            usleep(20_000)
        }
        return nil
    }

    /// Whether the server ended the stream in time.
    func ends(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        return !process.isRunning
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
