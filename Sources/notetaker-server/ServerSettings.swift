import ArgumentParser
import Foundation

/// The server's settings from outside its command line: every option `--NAME` may also be
/// given as `NOTETAKER_SERVER_NAME` (upper case, `_` for `-`) in the environment or in a
/// settings file (`--config FILE` or `NOTETAKER_SERVER_CONFIG`), so that secrets stay out of
/// `ps` and unit files. An option on the command line wins over the environment, which wins
/// over the file.
///
/// The file has systemd's `EnvironmentFile` form: `NAME=value` lines, `#` comments, a value
/// optionally in single or double quotes. A name it does not know is refused, so a typo never
/// leaves a setting silently unset.
struct ServerSettings {
    /// The prefix of every setting's name.
    static let prefix = "NOTETAKER_SERVER_"
    /// The variable naming the settings file.
    static let configVariable = prefix + "CONFIG"

    private let environment: [String: String]
    private let file: [String: String]
    private let fileName: String?

    /// Every long option of `notetaker-server`'s commands that a setting may stand for.
    static let options: Set<String> = [
        "database", "data", "database-password-file",
        "host", "port", "tls-cert", "tls-key", "quota-mb", "registration", "require-encryption", "trusted-proxy",
        "metrics-host", "metrics-port", "session-idle-days", "session-max-days", "tombstone-days",
        "log-level", "log-format",
    ]

    /// The settings from `environment` and the file `config` names (or the environment does).
    /// A `NOTETAKER_SERVER_` variable or a name in the file that stands for no option of the
    /// server's is refused.
    init(environment: [String: String] = ProcessInfo.processInfo.environment, config: String?) throws {
        let names = Set(Self.options.map(Self.variable)).union([Self.configVariable])
        self.environment = environment.filter { $0.key.hasPrefix(Self.prefix) && !$0.value.isEmpty }
        if let unknown = self.environment.keys.sorted().first(where: { !names.contains($0) }) {
            throw ValidationError("\(unknown) is set in the environment, but this command has no such setting. Settings: \(names.sorted().joined(separator: ", ")).")
        }
        fileName = config ?? self.environment[Self.configVariable]
        guard let fileName else {
            file = [:]
            return
        }
        guard let data = FileManager.default.contents(atPath: fileName) else {
            throw ValidationError("The settings file '\(fileName)' cannot be read.")
        }
        file = try Self.parse(String(decoding: data, as: UTF8.self), named: fileName, known: names)
    }

    /// The variable that stands for the long option `name`: `tls-cert` is
    /// `NOTETAKER_SERVER_TLS_CERT`.
    static func variable(_ name: String) -> String {
        prefix + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The raw value of the long option `name` from the environment, else the file, with
    /// where it came from (for messages).
    func value(_ name: String) -> (value: String, source: String)? {
        let variable = Self.variable(name)
        if let value = environment[variable] { return (value, "\(variable) in the environment") }
        if let value = file[variable], let fileName { return (value, "\(variable) in \(fileName)") }
        return nil
    }

    /// `given` when the command line has it, else the setting parsed as the option would be,
    /// else `fallback`.
    func resolve<T: ExpressibleByArgument>(_ given: T?, _ name: String, default fallback: T) throws -> T {
        try resolve(given, name) ?? fallback
    }

    /// `given` when the command line has it, else the setting parsed as the option would be.
    func resolve<T: ExpressibleByArgument>(_ given: T?, _ name: String) throws -> T? {
        if let given { return given }
        guard let (text, source) = value(name) else { return nil }
        guard let parsed = T(argument: text) else {
            throw ValidationError("\(source): '\(text)' is not a valid value for --\(name).")
        }
        return parsed
    }

    /// A list option: the command line's values, else the setting's, separated by spaces or commas.
    func resolve(_ given: [String], _ name: String) -> [String] {
        guard given.isEmpty, let (text, _) = value(name) else { return given }
        return text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    /// Reads `NAME=value` lines; linear in the text.
    static func parse(_ text: String, named fileName: String, known: Set<String>) throws -> [String: String] {
        var values: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ValidationError("\(fileName), line \(index + 1): expected NAME=value.")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard known.contains(name), name != configVariable else {
                throw ValidationError("\(fileName), line \(index + 1): \(name) is not a setting of this command. Settings: \(known.subtracting([configVariable]).sorted().joined(separator: ", ")).")
            }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[name] = value
        }
        return values
    }
}
