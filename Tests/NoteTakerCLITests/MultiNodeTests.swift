import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
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

    @Test("migrate-data moves a server from SQLite to PostgreSQL without a device noticing")
    func moveToPostgres() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-move-\(UUID().uuidString)")
        var server = try ServerProcess(dataDirectory: folder)
        let port = try #require(server.url.port)
        let laptop = CLIRunner()
        try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        let id = try laptop.ok(["new", "Written before the move"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let picture = laptop.directory.appendingPathComponent("plan.png")
        try Data("not really a picture, but bytes all the same".utf8).write(to: picture)
        try laptop.ok(["attach", id, picture.path])
        try laptop.ok(["sync"])
        try laptop.ok(["edit", id, "--title", "Edited before the move"])
        try laptop.ok(["sync"])
        // A published page, kept sealed by the server.
        let publishedJSON = try #require(try laptop.run(["publish", id, "--json"]).json() as? [String: Any])
        let page = try #require((publishedJSON["link"] as? String).flatMap(URL.init(string:))?.lastPathComponent)
        let pageBlob = { (base: URL) async throws -> (Data, Int?) in
            let (data, response) = try await URLSession.shared.data(from: base.appendingPathComponent("v1/published/\(page)"))
            return (data, (response as? HTTPURLResponse)?.statusCode)
        }
        let published = try await pageBlob(server.url)
        #expect(published.1 == 200)
        // An end-to-end encrypted account, and the made-up parameters of a name nobody has.
        let keys = AccountKeys(
            kdf: .scrypt(salt: Data(repeating: 7, count: 16)),
            wrappedByPassword: Base64URL.encode(Data(repeating: 1, count: 60)), wrappedByRecovery: Base64URL.encode(Data(repeating: 2, count: 60)),
            idKey: Base64URL.encode(Data(repeating: 3, count: 60)), dataKeys: [Base64URL.encode(Data(repeating: 4, count: 60))])
        var register = URLRequest(url: server.url.appendingPathComponent("v1/accounts"))
        register.httpMethod = "POST"
        register.setValue("application/json", forHTTPHeaderField: "Content-Type")
        register.httpBody = try JSONEncoder().encode(Credentials(username: "grace", password: "a login secret, long enough", keys: keys))
        let (_, registered) = try await URLSession.shared.data(for: register)
        #expect((registered as? HTTPURLResponse)?.statusCode == 201)
        let loginParameters = { (base: URL, name: String) async throws -> LoginParameters in
            let (data, _) = try await URLSession.shared.data(from: URL(string: "\(base.absoluteString)/v1/login-parameters?username=\(name)")!)
            return try JSONDecoder().decode(LoginParameters.self, from: data)
        }
        let decoy = try await loginParameters(server.url, "nobody")
        server.process.terminate()
        server.process.waitUntilExit()

        let database = try await TestStorage.newDatabase()
        let tool = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        #expect(try laptop.run(["account", "quota", "ada", "3", "--data", folder.path], store: false, executable: tool).status == 0)
        let moved = try laptop.run(["migrate-data", "--from", "sqlite:\(folder.path)", "--to", database], store: false, executable: tool)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("Copied 2 accounts, 2 records and 1 files"), "\(moved.stdout)")
        // The advice can be pasted as it is: no masked password in it.
        #expect(moved.stdout.contains("Start the server with --database 'postgres") && !moved.stdout.contains("***"), "\(moved.stdout)")
        let again = try laptop.run(["migrate-data", "--from", "sqlite:\(folder.path)", "--to", database], store: false, executable: tool)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already holds accounts"))
        let accounts = try laptop.run(["account", "list", "--json", "--database", database], store: false, executable: tool)
        #expect(accounts.stdout.contains("\"quotaBytes\" : 3145728"), "an account's own quota moves too: \(accounts.stdout)")

        server = try ServerProcess(database: database, port: port)
        #expect(try await loginParameters(server.url, "grace") == keys.kdf, "an account's key material moves too")
        #expect(try await loginParameters(server.url, "nobody") == decoy, "a name nobody has gets the parameters it got before the move")
        let movedPage = try await pageBlob(server.url)
        #expect(movedPage.1 == 200 && movedPage.0 == published.0, "the published page came across")
        // The laptop's token and change token still hold: nothing to fetch again.
        let report = try #require(try laptop.run(["sync", "--json"]).json() as? [String: Any])
        #expect(report["pulled"] as? Int == 0, "\(report)")
        #expect(report["pushed"] as? Int == 0, "\(report)")
        try laptop.ok(["new", "Written after the move"])
        try laptop.ok(["sync"])

        let phone = CLIRunner()
        try phone.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        let first = try #require(try phone.run(["sync", "--json"]).json() as? [String: Any])
        #expect(first["downloadedFiles"] as? Int == 1, "\(first)")
        let list = try phone.ok(["list"])
        #expect(list.contains("Edited before the move") && list.contains("Written after the move"))
        let history = try #require(try phone.run(["history", id, "--json"]).json() as? [[String: Any]])
        #expect(history.contains { $0["title"] as? String == "Written before the move" }, "the server's note versions came across: \(history)")
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

        var missing = try #require(URLComponents(string: database))
        missing.path = "/no_such_database"
        let absent = try tool.run(["migrate", "--database", try #require(missing.string)], store: false, executable: server)
        #expect(absent.status == 1)
        #expect(absent.stderr.contains(#"PostgreSQL says: database "no_such_database" does not exist"#), "\(absent.stderr)")

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
