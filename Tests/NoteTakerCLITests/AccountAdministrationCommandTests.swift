import Foundation
import Testing

/// The operator's `notetaker-server account` commands and the user's `notetaker account
/// password`, as real processes against a running server on the same data folder.
@Suite("Account administration commands")
struct AccountAdministrationCommandTests {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-admin-\(UUID().uuidString)")
    let serverTool = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("notetaker-server")

    /// Runs `notetaker-server ARGUMENTS` on the test's data folder.
    private func admin(_ arguments: [String], stdin: String? = nil) throws -> CLIRunner.Result {
        try CLIRunner().run(arguments, stdin: stdin, environment: ["NOTETAKER_SERVER_DATA": data.path], store: false, executable: serverTool)
    }

    @Test("list, quota, reset-password and delete, on a running server's data")
    func operatorCommands() throws {
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(try admin(["account", "list"]).stdout.contains("No accounts yet"))
        #expect(try admin(["account", "add", "ada", "--password-stdin"], stdin: "correct horse battery\n").status == 0)
        #expect(try admin(["account", "add", "bob", "--password-stdin"], stdin: "another horse battery\n").status == 0)
        let server = try ServerProcess(arguments: ["--registration", "closed", "--quota-mb", "100"], dataDirectory: data)
        let laptop = CLIRunner(), phone = CLIRunner()
        for device in [laptop, phone] {
            try device.ok(["account", "login", "--unencrypted", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                          stdin: "correct horse battery")
        }
        try laptop.ok(["new", "Diary", "--body", "dear diary"])
        try laptop.ok(["sync"])

        let listed = try admin(["account", "list"])
        #expect(listed.status == 0)
        let adaLine = try #require(listed.lines.first { $0.hasPrefix("ada ") }, "\(listed.stdout)")
        #expect(adaLine.contains("server's") && adaLine.split(separator: " ").contains("2"), "\(adaLine)")
        #expect(try admin(["account", "quota", "ada", "5"]).stdout.contains("ada may now use 5 MB"))
        let json = try admin(["account", "list", "--json"])
        let accounts = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(accounts.map { $0["username"] as? String } == ["ada", "bob"])
        #expect(accounts[0]["quotaBytes"] as? Int == 5_242_880 && accounts[0]["sessions"] as? Int == 2)
        #expect(accounts[1]["quotaBytes"] is NSNull)
        #expect(try admin(["account", "quota", "ada", "lots"]).stderr.contains("a number of megabytes"))
        #expect(try admin(["account", "quota", "ada", "default"]).stdout.contains("the server's quota again"))

        // The user changes the password from one device: the other is logged out.
        let change = try laptop.run(["account", "password", "--password-stdin"], stdin: "correct horse battery\nstaple horse battery\n")
        #expect(change.status == 0, "\(change.stderr)")
        try laptop.ok(["sync"])
        let loggedOut = try phone.run(["sync"])
        #expect(loggedOut.status == 1 && loggedOut.stderr.lowercased().contains("log in again"), "\(loggedOut.stderr)")
        let wrong = try laptop.run(["account", "password", "--password-stdin"], stdin: "not the password\nwhatever horse battery\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("current password is wrong"), "\(wrong.stderr)")
        #expect(try laptop.run(["account", "password"]).status != 0, "the passwords come on standard input only")

        // The operator sets a new password (the user forgot it): every device is logged out.
        #expect(try admin(["account", "reset-password", "ada", "--password-stdin"], stdin: "operator's new password\n").status == 0)
        #expect(try laptop.run(["sync"]).status == 1)
        try phone.ok(["account", "login", "--unencrypted", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"],
                     stdin: "operator's new password")
        try phone.ok(["sync"])
        #expect(try phone.ok(["list"]).contains("Diary"))

        // Deleting asks for --yes, then removes the account; the device keeps its notes.
        let unsure = try admin(["account", "delete", "ada"])
        #expect(unsure.status != 0 && unsure.stderr.contains("--yes"))
        #expect(try admin(["account", "delete", "ada", "--yes"]).stdout.contains("Deleted account ada"))
        #expect(try phone.run(["sync"]).status == 1)
        #expect(try phone.ok(["list"]).contains("Diary"))
        #expect(try admin(["account", "list", "--json"]).stdout.contains("\"bob\""))
        #expect(!(try admin(["account", "list", "--json"]).stdout.contains("\"ada\"")))
        let missing = try admin(["account", "delete", "ada", "--yes"])
        #expect(missing.status == 1 && missing.stderr.contains("There is no account named 'ada'"), "\(missing.stderr)")
    }

    @Test("an account the operator made is encrypted by its owner, with a new password; one with notes is converted from a device that syncs with it")
    func encryptAnOperatorsAccount() throws {
        defer { try? FileManager.default.removeItem(at: data) }
        for name in ["ada", "bob"] {
            #expect(try admin(["account", "add", name, "--password-stdin"], stdin: "given by the operator\n").status == 0)
        }
        let server = try ServerProcess(arguments: ["--registration", "closed"], dataDirectory: data)
        let url = server.url.absoluteString
        let laptop = CLIRunner()
        let same = try laptop.run(["account", "encrypt", "--server", url, "--user", "ada", "--password-stdin"],
                                  stdin: "given by the operator\ngiven by the operator\n")
        #expect(same.status == 1 && same.stderr.contains("Choose a new password"), "\(same.stderr)")
        let encrypted = try laptop.ok(["account", "encrypt", "--server", url, "--user", "ada", "--password-stdin"],
                                      stdin: "given by the operator\nmine alone, long enough\n")
        #expect(encrypted.contains("end-to-end encrypted now") && encrypted.contains("recovery code"), "\(encrypted)")
        #expect((try laptop.run(["account", "status", "--json"]).json() as? [String: Any])?["encrypted"] as? Bool == true)
        try laptop.ok(["new", "Sealed", "--body", "for ada's devices only"])
        try laptop.ok(["sync"])
        let phone = CLIRunner()
        let operatorsPassword = try phone.run(["account", "login", "--unencrypted", "--server", url, "--user", "ada", "--password-stdin"],
                                              stdin: "given by the operator\n")
        #expect(operatorsPassword.status == 1, "the operator's password no longer opens it")
        try phone.ok(["account", "login", "--server", url, "--user", "ada", "--password-stdin"], stdin: "mine alone, long enough\n")
        try phone.ok(["sync"])
        #expect(try phone.ok(["list"]).contains("Sealed"))

        // An account that holds notes is converted only by a device that syncs with it.
        let other = CLIRunner()
        try other.ok(["account", "login", "--unencrypted", "--server", url, "--user", "bob", "--password-stdin"], stdin: "given by the operator\n")
        try other.ok(["new", "Plain", "--body", "readable until now", "--tag", "Medical"])
        try other.ok(["sync"])
        let refused = try CLIRunner().run(["account", "encrypt", "--server", url, "--user", "bob", "--password-stdin"],
                                          stdin: "given by the operator\nmine alone, long enough\n")
        #expect(refused.status == 1 && refused.stderr.contains("from a device that syncs with it"), "\(refused.stderr)")
        let converted = try other.ok(["account", "encrypt", "--server", url, "--user", "bob", "--password-stdin"],
                                     stdin: "given by the operator\nmine alone, long enough\n")
        #expect(converted.contains("sends every note") && converted.contains("recovery code"), "\(converted)")
        #expect(converted.contains("The conversion is finished"), "\(converted)")
        let reader = CLIRunner()
        let oldPassword = try reader.run(["account", "login", "--unencrypted", "--server", url, "--user", "bob", "--password-stdin"],
                                         stdin: "given by the operator\n")
        #expect(oldPassword.status == 1, "the old password no longer opens it")
        try reader.ok(["account", "login", "--server", url, "--user", "bob", "--password-stdin"], stdin: "mine alone, long enough\n")
        try reader.ok(["sync"])
        #expect(try reader.ok(["list"]).contains("Plain"))
        #expect(try reader.ok(["tag", "list"]).contains("Medical"))
    }
}
