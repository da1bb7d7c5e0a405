import Foundation
import Testing

/// End-to-end encryption as a user meets it on the command line: `account register` makes an
/// encrypted account and shows its recovery code once, another device logs in and reads the
/// notes the server holds sealed, the password changes, the recovery code sets a new one, and
/// an account without encryption is logged in to only when the person says so.
@Suite("Encrypted accounts on the command line")
struct EncryptedAccountCommandTests {
    @Test("register, log in elsewhere, change the password, recover with the code")
    func encryptedAccount() throws {
        let server = try ServerProcess()
        let laptop = CLIRunner()
        let registered = try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                       stdin: "correct horse battery\n")
        #expect(registered.contains("Registered ada") && registered.contains("end-to-end encrypted"))
        #expect(registered.contains("If you lose both your password and this recovery code, your notes cannot be read by anyone, us included."))
        let code = try #require(registered.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 65 && $0.split(separator: "-").count == 11 }, "the recovery code is shown: \(registered)")
        let keys = laptop.directory.appendingPathComponent("NoteTaker.sync-keys").path
        #expect(try FileManager.default.attributesOfItem(atPath: keys)[.posixPermissions] as? Int == 0o600)
        let status = try laptop.run(["account", "status", "--json"]).json() as? [String: Any]
        #expect(status?["encrypted"] as? Bool == true)
        #expect(try laptop.ok(["account", "status"]).contains("end to end"))

        let id = try laptop.ok(["new", "Sealed Marker 7f3e", "--body", "only devices read this"])
        try laptop.ok(["sync"])
        for file in try FileManager.default.subpathsOfDirectory(atPath: server.dataDirectory.path) {
            let bytes = try Data(contentsOf: server.dataDirectory.appendingPathComponent(file))
            #expect(bytes.range(of: Data("Sealed Marker 7f3e".utf8)) == nil, "\(file) holds the title")
        }

        let phone = CLIRunner()
        let loggedIn = try phone.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                    stdin: "correct horse battery\n")
        #expect(loggedIn.contains("end-to-end encrypted"))
        try phone.ok(["sync"])
        #expect(try phone.ok(["show", id]).contains("only devices read this"))

        try laptop.ok(["account", "password", "--password-stdin"], stdin: "correct horse battery\nanother long password\n")
        let ended = try phone.run(["sync"])
        #expect(ended.status == 1 && ended.stderr.contains("Log in again"), "\(ended.stderr)")

        let spare = CLIRunner()
        // The first character mistyped: it is all key (the last one's lowest three bits are
        // padding, so a change there can read as the same code, which a run in 4 met).
        let mistyped = try spare.run(["account", "recover", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                     stdin: "\(code.hasPrefix("X") ? "Y" : "X")\(code.dropFirst())\na third password\n")
        #expect(mistyped.status == 1 && mistyped.stderr.contains("recovery code is not right"), "\(mistyped.stderr)")
        let recovered = try spare.ok(["account", "recover", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                     stdin: "\(code)\na third password\n")
        #expect(recovered.contains("changed with the recovery code"))
        try spare.ok(["sync"])
        #expect(try spare.ok(["show", id]).contains("only devices read this"))

        // The code seen by someone else: a new one, for the password; the old one no longer works.
        let replaced = try spare.ok(["account", "recovery-code", "--password-stdin"], stdin: "a third password\n")
        #expect(replaced.contains("A new recovery code is made"))
        // A new key: the notes go up again sealed with it, and so do the versions the server
        // keeps (one, of the edit below) and the files; a device that never saw the key reads them.
        try spare.ok(["edit", id, "--body", "only devices read this, still"])
        let photo = spare.directory.appendingPathComponent("photo.jpg")
        try Data("a photo only devices see".utf8).write(to: photo)
        try spare.ok(["attach", id, photo.path])
        try spare.ok(["sync"])
        let wrongKey = try spare.run(["account", "rotate-keys", "--password-stdin"], stdin: "not the password\n")
        #expect(wrongKey.status == 1, "\(wrongKey.stdout)")
        let rotated = try spare.ok(["account", "rotate-keys", "--password-stdin"], stdin: "a third password\n")
        #expect(rotated.contains("sealed with key 2"), "\(rotated)")
        let resealed = try spare.ok(["sync"])
        #expect(resealed.contains("1 kept version sealed with the new key") && resealed.contains("1 file sealed with the new key"), "\(resealed)")
        let reader = CLIRunner()
        try reader.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "a third password\n")
        try reader.ok(["sync"])
        #expect(try reader.ok(["show", id]).contains("only devices read this"))
        #expect(try reader.ok(["attachments", id]).contains("photo.jpg"))
        let newCode = try #require(replaced.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 65 && $0.split(separator: "-").count == 11 }, "the new code is shown: \(replaced)")
        let stale = try CLIRunner().run(["account", "recover", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                                        stdin: "\(code)\na fourth password\n")
        #expect(stale.status == 1, "\(stale.stdout)")
        try CLIRunner().ok(["account", "recover", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                           stdin: "\(newCode)\na fourth password\n")
    }

    @Test("an account without encryption is logged in to only with --unencrypted")
    func unencryptedAccount() throws {
        let server = try ServerProcess()
        let laptop = CLIRunner()
        let registered = try laptop.ok(["account", "register", "--unencrypted", "--server", server.url.absoluteString, "--user", "bob",
                                        "--password-stdin"], stdin: "correct horse battery\n")
        #expect(!registered.contains("recovery code"))
        let status = try laptop.run(["account", "status", "--json"]).json() as? [String: Any]
        #expect(status?["encrypted"] as? Bool == false)

        let phone = CLIRunner()
        let refused = try phone.run(["account", "login", "--server", server.url.absoluteString, "--user", "bob", "--password-stdin"],
                                    stdin: "correct horse battery\n")
        #expect(refused.status == 1 && refused.stderr.contains("not end-to-end encrypted") && refused.stderr.contains("--unencrypted"),
                "\(refused.stderr)")
        try phone.ok(["account", "login", "--unencrypted", "--server", server.url.absoluteString, "--user", "bob", "--password-stdin"],
                     stdin: "correct horse battery\n")
    }

    @Test("a server started with --require-encryption refuses an account without encryption, in words")
    func requiredEncryption() throws {
        let server = try ServerProcess(arguments: ["--require-encryption"])
        let laptop = CLIRunner()
        let refused = try laptop.run(["account", "register", "--unencrypted", "--server", server.url.absoluteString, "--user", "bob",
                                      "--password-stdin"], stdin: "correct horse battery\n")
        #expect(refused.status == 1 && refused.stderr.contains("only end-to-end encrypted accounts"), "\(refused.stderr)")
        try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "bob", "--password-stdin"],
                      stdin: "correct horse battery\n")
    }

    @Test("lock this device, keep working, unlock it with the password")
    func lockAndUnlock() throws {
        let server = try ServerProcess()
        let laptop = CLIRunner()
        try laptop.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        let id = try laptop.ok(["new", "Locked plan", "--body", "before"])
        try laptop.ok(["sync"])

        #expect(try laptop.ok(["account", "lock"]).contains("Locked this device"))
        let status = try laptop.run(["account", "status", "--json"]).json() as? [String: Any]
        #expect(status?["locked"] as? Bool == true && status?["encrypted"] as? Bool == true)
        #expect(try laptop.ok(["account", "status"]).contains("this device is locked"))
        try laptop.ok(["edit", id, "--body", "written while locked"])
        let refused = try laptop.run(["sync"])
        #expect(refused.status == 1 && refused.stderr.contains("notetaker account unlock"), "\(refused.stderr)")
        let wrong = try laptop.run(["account", "unlock", "--password-stdin"], stdin: "not the password\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("does not open"), "\(wrong.stderr)")

        #expect(try laptop.ok(["account", "unlock", "--password-stdin"], stdin: "correct horse battery\n").contains("Unlocked"))
        let unlocked = try laptop.run(["account", "status", "--json"]).json() as? [String: Any]
        #expect(unlocked?["locked"] as? Bool == false)
        try laptop.ok(["sync"])
        let phone = CLIRunner()
        try phone.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try phone.ok(["sync"])
        #expect(try phone.ok(["show", id]).contains("written while locked"))
        let plain = CLIRunner()
        #expect(try plain.run(["account", "lock"]).status == 1, "no account: nothing to lock")
    }

    @Test("account verify: two people see the same safety number, and each device keeps the other's keys")
    func safetyNumber() throws {
        let server = try ServerProcess()
        let (ada, bob) = (CLIRunner(), CLIRunner())
        for (runner, name) in [(ada, "ada"), (bob, "bob")] {
            try runner.ok(["account", "register", "--server", server.url.absoluteString, "--user", name, "--password-stdin"], stdin: "correct horse battery\n")
        }
        let seen = try ada.ok(["account", "verify", "bob"])
        #expect(seen.contains("Safety number with bob:") && seen.contains("notetaker account verify ada"), "\(seen)")
        #expect(seen.contains("kept on this device from now on"), "\(seen)")
        let number = try #require(seen.firstMatch(of: /[0-9]{5}( [0-9]{5}){5}/).map { String($0.output.0) }, "\(seen)")
        let fromBob = try bob.run(["account", "verify", "ADA", "--json"]).json() as? [String: Any]
        #expect(fromBob?["safetyNumber"] as? String == number && fromBob?["keys"] as? String == "first" && fromBob?["account"] as? String == "ada")
        #expect(fromBob?.keys.contains("keptAt") == true && fromBob?["keptAt"] is NSNull)
        let again = try ada.run(["account", "verify", "bob", "--json"]).json() as? [String: Any]
        #expect(again?["keys"] as? String == "same")

        let nobody = try ada.run(["account", "verify", "nobody"])
        #expect(nobody.status != 0 && nobody.stderr.contains("nobody"), "\(nobody.stderr)")
        let plain = CLIRunner()
        try plain.ok(["account", "register", "--unencrypted", "--server", server.url.absoluteString, "--user", "carol", "--password-stdin"],
                     stdin: "correct horse battery\n")
        let refused = try plain.run(["account", "verify", "ada"])
        #expect(refused.status != 0 && refused.stderr.contains("not end-to-end encrypted"), "\(refused.stderr)")
    }
}
