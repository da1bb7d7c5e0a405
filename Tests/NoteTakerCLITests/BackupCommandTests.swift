import Foundation
import Testing

/// The README's backup and restore, step by step, with real processes: a backup taken while
/// the server runs, a restore after the server lost its folder, and devices that heal.
@Suite("Backing up and restoring the server")
struct BackupCommandTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-backup-\(UUID().uuidString)")
    let tool = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")

    private func server(_ arguments: [String]) throws -> CLIRunner.Result {
        try CLIRunner().run(arguments, store: false, executable: tool)
    }

    @Test("a backup while the server runs, then a restore the devices heal from")
    func backupAndRestore() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("server"), backup = root.appendingPathComponent("backup")
        var running = try ServerProcess(dataDirectory: data)
        let port = try #require(running.url.port)
        let laptop = CLIRunner()
        try laptop.ok(["account", "register", "--server", running.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        let plan = try laptop.ok(["new", "Before the backup", "--body", "the plan"])
        let picture = laptop.directory.appendingPathComponent("plan.png")
        try Data("a picture's bytes, for the backup".utf8).write(to: picture)
        try laptop.ok(["attach", plan, picture.path])
        try laptop.ok(["sync"])

        let backedUp = try server(["backup", backup.path, "--data", data.path])
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        #expect(backedUp.stdout.contains("Backed up 1 accounts, 2 records and 1 files"), "\(backedUp.stdout)")
        let again = try server(["backup", backup.path, "--data", data.path])
        #expect(again.status == 1 && again.stderr.contains("is not empty"), "a backup never overwrites: \(again.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: backup.path)[.posixPermissions] as? Int
        #expect(mode == 0o700, "the backup is its owner's alone")

        try laptop.ok(["new", "After the backup"])
        try laptop.ok(["sync"])

        // The server's folder is lost: stop it, move what is left aside, restore, start again.
        running.process.terminate()
        running.process.waitUntilExit()
        try FileManager.default.moveItem(at: data, to: root.appendingPathComponent("server.lost"))
        let restored = try server(["restore", backup.path, "--data", data.path])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("Restored 1 accounts, 2 records and 1 files"), "\(restored.stdout)")
        #expect(try server(["restore", backup.path, "--data", data.path]).stderr.contains("is not empty"))

        running = try ServerProcess(dataDirectory: data, port: port)
        let healed = try laptop.ok(["sync"])
        #expect(healed.contains("restored from an older copy"), "\(healed)")
        let phone = CLIRunner()
        try phone.ok(["account", "login", "--server", running.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery")
        try phone.ok(["sync"])
        let list = try phone.ok(["list"])
        #expect(list.contains("Before the backup") && list.contains("After the backup"), "\(list)")
        #expect(try phone.ok(["attachments", plan]).contains("plan.png"))
    }

    @Test("a damaged backup is refused, and nothing is left in the folder")
    func damagedBackup() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("server"), backup = root.appendingPathComponent("backup")
        let running = try ServerProcess(dataDirectory: data)
        let laptop = CLIRunner()
        // A file of an account without encryption is kept under its SHA-256, which a restore
        // checks; an encrypted account's sealed files are its devices' to check.
        try laptop.ok(["account", "register", "--unencrypted", "--server", running.url.absoluteString, "--user", "ada", "--password-stdin"],
                      stdin: "correct horse battery")
        let note = try laptop.ok(["new", "With a file"])
        let file = laptop.directory.appendingPathComponent("scan.pdf")
        try Data("scanned pages".utf8).write(to: file)
        try laptop.ok(["attach", note, file.path])
        try laptop.ok(["sync"])
        #expect(try server(["backup", backup.path, "--data", data.path]).status == 0)

        let copies = try #require(FileManager.default.enumerator(at: backup.appendingPathComponent("assets"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.lastPathComponent.count == 64 })
        try Data("scanned pagez".utf8).write(to: copies)
        let target = root.appendingPathComponent("restored")
        let refused = try server(["restore", backup.path, "--data", target.path])
        #expect(refused.status == 1 && refused.stderr.contains("does not match its SHA-256"), "\(refused.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []).isEmpty, "a refused restore leaves nothing")
        let missing = try server(["restore", root.appendingPathComponent("nowhere").path, "--data", target.path])
        #expect(missing.status == 1 && missing.stderr.contains("There is no server database"), "\(missing.stderr)")
        let postgres = try server(["backup", backup.path, "--database", "postgres://notes@db.example.com/notetaker"])
        #expect(postgres.status != 0 && postgres.stderr.contains("pg_dump --format=custom"), "\(postgres.stderr)")
    }
}
