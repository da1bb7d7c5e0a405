import Foundation
import NoteTakerSyncProtocol
import Testing

/// `account`, `sync` and `conflicts` as a user runs them: two stores (two devices) and the
/// real server executable.
@Suite("Sync commands")
struct SyncCommandTests {
    @Test("register on one device, log in on another, sync a note across, see the status")
    func twoDevices() throws {
        let server = try ServerProcess()
        let laptop = CLIRunner()
        let phone = CLIRunner()
        let registered = try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                       stdin: "correct horse battery\n")
        #expect(registered.contains("Registered ada"))
        try phone.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")

        // The token lives in a file only its owner can read, never in the database.
        let tokenFile = laptop.directory.appendingPathComponent("NoteTaker.sync-token").path
        let permissions = try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        let id = try laptop.ok(["new", "From the laptop", "--body", "hello"])
        let pending = try laptop.run(["sync", "status", "--json"]).json() as? [String: Any]
        #expect(pending?["pending"] as? Int == 1)
        #expect(try laptop.ok(["sync"]).hasPrefix("Synced: sent 1"))
        #expect(try phone.ok(["sync", "--json"]).contains("\"pulled\" : 1"))
        #expect(try phone.ok(["show", id, "--json"]).contains("From the laptop"))

        let status = try phone.run(["account", "status", "--json"]).json() as? [String: Any]
        #expect(status?["username"] as? String == "ada")
        #expect(status?["loggedIn"] as? Bool == true)
        #expect((status?["serverAccount"] as? [String: Any])?["recordCount"] as? Int == 1)
        #expect(try phone.ok(["conflicts"]) == "No conflicts.")

        #expect(try phone.ok(["sync", "settings", "--policy", "server-wins", "--auto", "off"]).contains("server-wins"))
        let watch = try phone.run(["sync", "--watch"])
        #expect(watch.status == 1)
        #expect(watch.stderr.contains("Automatic sync is off"))

        try phone.ok(["account", "logout"])
        let after = try phone.run(["sync"])
        #expect(after.status == 1)
        #expect(after.stderr.contains("No sync account"))
    }

    @Test("logging in again on a device that is logged in works every time, and the token file stays 0600")
    func loggingInAgain() throws {
        let server = try ServerProcess()
        let device = CLIRunner()
        try device.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        let tokenFile = device.directory.appendingPathComponent("NoteTaker.sync-token").path
        var tokens: Set<String> = []
        for _ in 0..<3 {
            let result = try device.run(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                        stdin: "correct horse battery\n")
            #expect(result.status == 0 && result.stdout.contains("Logged in as ada"), "\(result.stderr)")
            tokens.insert(try String(contentsOfFile: tokenFile, encoding: .utf8))
            #expect(try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int == 0o600)
        }
        #expect(tokens.count == 3, "each log-in saved its own session")
        #expect(try device.ok(["sync"]).hasPrefix("Synced"))
    }

    @Test("account sessions lists each device by its name and logs out another; that device must log in again")
    func sessions() throws {
        let server = try ServerProcess()
        let laptop = CLIRunner()
        let phone = CLIRunner()
        try laptop.ok(["sync", "settings", "--device-name", "Ada's laptop"])
        try phone.ok(["sync", "settings", "--device-name", "Ada's phone"])
        try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try phone.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")

        let listing = try laptop.ok(["account", "sessions"])
        #expect(listing.contains("Ada's laptop (this device)") && listing.contains("Ada's phone"), "\(listing)")
        let list = try JSONDecoder().decode(SessionList.self, from: Data(try laptop.ok(["account", "sessions", "--json"]).utf8))
        let phoneSession = try #require(list.sessions.first { $0.deviceName == "Ada's phone" })
        #expect(!phoneSession.current)

        let unknown = try laptop.run(["account", "sessions", "--end", "zz"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no session 'zz'"), "\(unknown.stderr)")
        let typed = String(phoneSession.id.prefix(6)).uppercased()
        #expect(try laptop.ok(["account", "sessions", "--end", typed]).contains("Ended session \(phoneSession.id) (Ada's phone)"))
        let refused = try phone.run(["sync"])
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(try laptop.ok(["account", "sessions", "--json"]).contains("Ada's laptop"))
        #expect(try !laptop.ok(["account", "sessions"]).contains("Ada's phone"))
    }

    @Test("bad input: a clear error, nothing changed")
    func badInput() throws {
        let runner = CLIRunner()
        let noPassword = try runner.run(["account", "login", "--server", "http://127.0.0.1:1", "--user", "ada"])
        #expect(noPassword.status == 2)
        #expect(noPassword.stderr.contains("--password-stdin"))
        let insecure = try runner.run(["account", "login", "--server", "http://notes.example.com", "--user", "ada", "--password-stdin"], stdin: "secret12")
        #expect(insecure.status == 1)
        #expect(insecure.stderr.contains("unencrypted"))
        let unreachable = try runner.run(["account", "login", "--server", "http://127.0.0.1:1", "--user", "ada", "--password-stdin"], stdin: "secret12")
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("cannot be reached"))
        #expect(try runner.run(["sync"]).stderr.contains("No sync account"))
        #expect(try runner.run(["sync", "settings", "--policy", "coin-toss"]).status == 2)
        let id = try runner.ok(["new", "Local"])
        #expect(try runner.run(["conflicts", "resolve", id, "--keep", "mine"]).status == 2)
        #expect(try runner.run(["conflicts", "resolve", id, "--keep", "local"]).stderr.contains("no sync conflict"))
        let status = try runner.run(["account", "status", "--json"]).json() as? [String: Any]
        #expect(status?["loggedIn"] as? Bool == false)
    }

    @Test("the server shuts down on SIGTERM even while a device listens to its push channel")
    func shutdownWithListener() throws {
        let server = try ServerProcess()
        let runner = CLIRunner()
        try runner.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        let token = try String(contentsOf: runner.directory.appendingPathComponent("NoteTaker.sync-token"), encoding: .utf8)
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        listener.arguments = ["--silent", "--no-buffer", "-H", "Authorization: Bearer \(token)", server.url.appendingPathComponent("v1/events").absoluteString]
        let events = Pipe()
        listener.standardOutput = events
        try listener.run()
        defer { listener.terminate() }
        let first = String(decoding: events.fileHandleForReading.availableData, as: UTF8.self)
        #expect(first.contains("event: changes"))
        server.process.terminate()
        // A hung shutdown would leave the process running: give it a generous while, then look.
        for _ in 0..<300 where server.process.isRunning { usleep(100_000) }
        #expect(!server.process.isRunning)
    }

    @Test("notetaker-server refuses a storage it cannot use, and migrate-data a copy it cannot make, with a clear error and nothing made")
    func badStorageArguments() throws {
        let tool = CLIRunner()
        let server = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-missing-\(UUID().uuidString)")
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-pgpass-\(UUID().uuidString)")
        try Data("secret\n".utf8).write(to: shared)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: shared.path)
        defer { try? FileManager.default.removeItem(at: shared) }
        let cases: [([String], String)] = [
            (["migrate", "--database", "postgres://nobody@127.0.0.1:1/db", "--database-password-file", shared.path], "can be read by other users"),
            (["migrate", "--database", "postgres://nobody@127.0.0.1:1/db", "--database-password-file", missing.path], "cannot be read"),
            (["serve", "--data", missing.path, "--trusted-proxy", "the-proxy"], "--trusted-proxy takes an address"),
            (["serve", "--data", missing.path, "--session-idle-days", "0"], "--session-idle-days and --session-max-days take"),
            (["serve", "--data", missing.path, "--session-max-days", "1e300"], "--session-idle-days and --session-max-days take"),
            (["serve", "--data", missing.path, "--metrics-port", "70000"], "--metrics-port takes"),
            (["serve", "--data", missing.path, "--tombstone-days", "1e9"], "--tombstone-days takes"),
            (["migrate", "--database", "sqlite:"], "sqlite:FOLDER or postgres://"),
            (["migrate", "--database", "mysql://nobody@localhost/db"], "sqlite:FOLDER or postgres://"),
            (["migrate", "--database", "sqlite:\(missing.path)", "--data", missing.path], "either --database or --data"),
            (["migrate", "--database", "postgres://nobody@127.0.0.1:1/db?sslmode=sometimes"], "sslmode 'sometimes' is not known"),
            (["migrate", "--database", "postgres://nobody@127.0.0.1:1/db?sslmode=disable"], "cannot connect to PostgreSQL"),
            (["migrate-data", "--from", "postgres://nobody@127.0.0.1:1/a", "--to", "sqlite:\(missing.path)"], "copies from sqlite:FOLDER to postgres://"),
            (["migrate-data", "--from", "sqlite:\(missing.path)", "--to", "postgres://nobody@127.0.0.1:1/db"], "There is no server database in"),
        ]
        for (arguments, message) in cases {
            let result = try tool.run(arguments, store: false, executable: server)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path), "a refused command made the folder")
    }

    @Test("a server with registration closed takes only accounts added on its machine")
    func closedRegistration() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-closed-\(UUID().uuidString)")
        let admin = CLIRunner()
        let serverTool = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        let added = try admin.run(["account", "add", "ada", "--password-stdin", "--data", data.path], stdin: "correct horse battery\n",
                                  store: false, executable: serverTool)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Created account ada"))
        let again = try admin.run(["account", "add", "ada", "--password-stdin", "--data", data.path], stdin: "another password\n",
                                  store: false, executable: serverTool)
        #expect(again.status == 1)
        #expect(!again.stderr.isEmpty)

        let server = try ServerProcess(arguments: ["--registration", "closed"], dataDirectory: data)
        let device = CLIRunner()
        let register = try device.run(["account", "register", "--server", server.url.absoluteString, "--user", "eve", "--password-stdin"],
                                      stdin: "correct horse battery")
        #expect(register.status == 1)
        #expect(register.stderr.contains("does not take new accounts"))
        // An account the operator made has no encryption: its owner says to log in all the same.
        try device.ok(["account", "login", "--unencrypted", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                      stdin: "correct horse battery")
    }

    @Test("account add reads the server's folder from NOTETAKER_SERVER_DATA, as the server does, and says where it wrote")
    func dataFromTheEnvironment() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let admin = CLIRunner()
        let serverTool = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")
        let added = try admin.run(["account", "add", "ada", "--password-stdin"], stdin: "correct horse battery\n",
                                  environment: ["NOTETAKER_SERVER_DATA": data.path], store: false, executable: serverTool)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Created account ada in \(data.path)"), "\(added.stdout)")

        let both = try admin.run(["account", "add", "bob", "--password-stdin"], stdin: "correct horse battery\n",
                                 environment: ["NOTETAKER_SERVER_DATA": data.path, "NOTETAKER_SERVER_DATABASE": "sqlite:\(data.path)"],
                                 store: false, executable: serverTool)
        #expect(both.status != 0)
        #expect(both.stderr.contains("Set either NOTETAKER_SERVER_DATABASE or NOTETAKER_SERVER_DATA, not both."), "\(both.stderr)")

        // The server started on that folder serves the account.
        let server = try ServerProcess(dataDirectory: data)
        try CLIRunner().ok(["account", "login", "--unencrypted", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                           stdin: "correct horse battery")
    }

    @Test("notetaker-server serves HTTPS with --tls-cert and --tls-key")
    func tls() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        #expect(openssl.terminationStatus == 0)

        let server = try ServerProcess(arguments: ["--tls-cert", cert, "--tls-key", key], scheme: "https")
        #expect(server.url.scheme == "https")
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["--silent", "--show-error", "--cacert", cert, server.url.appendingPathComponent("v1/health").absoluteString]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let body = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        #expect(body.contains("\"status\":\"ok\""))
        // Plain HTTP to the HTTPS port gets nothing useful.
        let plain = Process()
        plain.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        plain.arguments = ["--silent", "--max-time", "5", server.url.absoluteString.replacingOccurrences(of: "https:", with: "http:") + "/v1/health"]
        let plainOutput = Pipe()
        plain.standardOutput = plainOutput
        try plain.run()
        let plainBody = String(decoding: plainOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        plain.waitUntilExit()
        #expect(!plainBody.contains("\"status\":\"ok\""))
    }

    @Test("--metrics-host serves /metrics on its own address only")
    func metricsOnItsOwnAddress() throws {
        let port = try freeLoopbackPort()
        let server = try ServerProcess(arguments: ["--metrics-host", "127.0.0.1", "--metrics-port", String(port)])
        let api = try curlStatus(server.url.appendingPathComponent("metrics").absoluteString)
        #expect(api.status == 404, "the API's address has no /metrics")
        var metrics = (status: 0, body: "")
        for _ in 0..<50 where metrics.status != 200 {
            metrics = try curlStatus("http://127.0.0.1:\(port)/metrics")
            if metrics.status != 200 { usleep(100_000) }
        }
        #expect(metrics.status == 200 && metrics.body.contains("notetaker_http_requests_total"), "\(metrics)")
        #expect(try curlStatus("http://127.0.0.1:\(port)/v1/health").status == 404, "the metrics address serves nothing else")
    }

    /// A GET through curl: the status (0 when nothing answered) and the body.
    private func curlStatus(_ address: String) throws -> (status: Int, body: String) {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["--silent", "--max-time", "10", "--write-out", "\n%{http_code}", address]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// A loopback port nothing listens on now.
    private func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The report that opened issue 12, as a user meets it: another client writes records with
/// numbers out of range; every device still syncs, and says what it could not apply.
@Suite("Sync with bad records on the server")
struct BadRecordCommandTests {
    @Test("records with out-of-range numbers are held, listed, and never crash a sync")
    func outOfRangeNumbers() throws {
        let server = try ServerProcess()
        let laptop = CLIRunner()
        let phone = CLIRunner()
        // Another client writes plaintext records: the account has no encryption (an encrypted
        // one holds every record not sealed, whatever its numbers).
        try laptop.ok(["account", "register", "--unencrypted", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                      stdin: "correct horse battery")
        try phone.ok(["account", "login", "--unencrypted", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                     stdin: "correct horse battery")
        let folder = try laptop.ok(["folder", "new", "Projects"])
        let note = try laptop.ok(["new", "Plans", "--body", "kept", "--folder", folder])
        try laptop.ok(["sync"])
        let before = try laptop.ok(["show", note, "--json"])

        let token = try String(contentsOf: laptop.directory.appendingPathComponent("NoteTaker.sync-token"), encoding: .utf8)
        let date = 1_795_000_000
        let batch = """
            {"requestId": "\(UUID().uuidString)", "changes": [
              {"recordType": "folder", "recordId": "\(UUID().uuidString)", "operation": "save", "fields":
                {"name": "Evil", "icon": null, "sortOrder": 1e19, "createdAt": \(date), "modifiedAt": \(date), "parentId": null}},
              {"recordType": "note", "recordId": "\(UUID().uuidString)", "operation": "save", "fields":
                {"title": "Far future", "body": "", "createdAt": \(date), "modifiedAt": 1e300, "isPinned": false, "folderId": null, "tagIds": [], "trashedAt": null}},
              {"recordType": "attachment", "recordId": "\(UUID().uuidString)", "operation": "save", "fields":
                {"noteId": "\(note)", "kind": "file", "fileName": "big.bin", "fileSize": 1e19, "contentHash": "\(String(repeating: "ab", count: 32))", "createdAt": \(date)}}
            ]}
            """
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["--silent", "--fail", "-o", "/dev/null", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                          "--data", batch, server.url.appendingPathComponent("v1/records/modify").absoluteString]
        try curl.run()
        curl.waitUntilExit()
        #expect(curl.terminationStatus == 0)

        for device in [laptop, phone] {
            let sync = try device.run(["sync"])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("3 changes from the server could not be applied"))
            let status = try device.run(["sync", "status", "--json"]).json() as? [String: Any]
            #expect((status?["held"] as? [[String: Any]])?.count == 3)
            #expect(try device.ok(["sync", "status"]).contains("nothing here was changed by them"))
        }
        #expect(try laptop.ok(["show", note, "--json"]) == before)
        // An ordinary note still goes both ways.
        let later = try phone.ok(["new", "Afterwards"])
        try phone.ok(["sync"])
        try laptop.ok(["sync"])
        #expect(try laptop.ok(["show", later, "--json"]).contains("Afterwards"))
    }
}
