import ArgumentParser
import Foundation
import Testing

@testable import notetaker_server

/// Every option of `notetaker-server` from the environment or a settings file: the command
/// line wins over the environment, which wins over the file; a name that is no setting, or a
/// value an option would refuse, is an error that says where it came from.
@Suite struct ServerSettingsTests {
    private func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-settings-\(UUID().uuidString).env")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func theCommandLineWinsOverTheEnvironmentWhichWinsOverTheFile() throws {
        let path = try file("""
            # the server's settings
            NOTETAKER_SERVER_PORT=9000
            NOTETAKER_SERVER_HOST = "10.0.0.11"
            NOTETAKER_SERVER_REGISTRATION='closed'
            NOTETAKER_SERVER_TRUSTED_PROXY=127.0.0.1, 10.0.0.0/24

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let settings = try ServerSettings(environment: ["NOTETAKER_SERVER_PORT": "9100", "HOME": "/root"], config: path)
        #expect(try settings.resolve(Int?.none, "port", default: 8471) == 9100)
        #expect(try settings.resolve(Int?.some(9200), "port", default: 8471) == 9200)
        #expect(try settings.resolve(String?.none, "host", default: "127.0.0.1") == "10.0.0.11")
        #expect(try settings.resolve(Registration?.none, "registration", default: .open) == .closed)
        #expect(settings.resolve([], "trusted-proxy") == ["127.0.0.1", "10.0.0.0/24"])
        #expect(settings.resolve(["192.168.1.1"], "trusted-proxy") == ["192.168.1.1"])
        #expect(try settings.resolve(Double?.none, "tombstone-days", default: 90) == 90)
    }

    @Test func theFileCanBeNamedByTheEnvironment() throws {
        let path = try file("NOTETAKER_SERVER_DATA=/srv/notes\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let settings = try ServerSettings(environment: ["NOTETAKER_SERVER_CONFIG": path], config: nil)
        #expect(settings.value("data")?.value == "/srv/notes")
        #expect(settings.value("data")?.source == "NOTETAKER_SERVER_DATA in \(path)")
    }

    @Test func mistakesAreRefusedSayingWhere() throws {
        let typo = try file("NOTETAKER_SERVER_PROT=9000\n")
        let noEquals = try file("NOTETAKER_SERVER_PORT 9000\n")
        defer { for path in [typo, noEquals] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(throws: ValidationError.self) { try ServerSettings(environment: [:], config: typo) }
        #expect(throws: ValidationError.self) { try ServerSettings(environment: [:], config: noEquals) }
        #expect(throws: ValidationError.self) { try ServerSettings(environment: ["NOTETAKER_SERVER_REGISTRATON": "closed"], config: nil) }
        #expect(throws: ValidationError.self) { try ServerSettings(environment: [:], config: "/nonexistent/server.env") }
        do {
            _ = try ServerSettings(environment: [:], config: typo)
        } catch let error as ValidationError {
            #expect(error.message.contains("line 1") && error.message.contains("NOTETAKER_SERVER_PROT"), "\(error.message)")
        }
        let settings = try ServerSettings(environment: ["NOTETAKER_SERVER_PORT": "eighty"], config: nil)
        do {
            _ = try settings.resolve(Int?.none, "port", default: 8471)
            Issue.record("a port that is no number was taken")
        } catch let error as ValidationError {
            #expect(error.message == "NOTETAKER_SERVER_PORT in the environment: 'eighty' is not a valid value for --port.")
        }
    }

    @Test func everyOptionOfServeHasASetting() {
        let help = ServeCommand.helpMessage(columns: 10_000)
        let longOptions = Set(help.matches(of: /--([a-z][a-z-]+)/).map { String($0.1) }).subtracting(["help", "version"])
        #expect(longOptions.subtracting(ServerSettings.options).subtracting(["config"]).isEmpty,
                "options without a setting: \(longOptions.subtracting(ServerSettings.options))")
    }
}
