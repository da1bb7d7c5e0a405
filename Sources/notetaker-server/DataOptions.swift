import ArgumentParser
import Foundation
import NoteTakerServer

/// Where the server keeps its data, and where its settings come from: the options, else the
/// environment, else the settings file (see ``ServerSettings``), so that the server and
/// `account add` read the same place from one setting, and a unit file can keep it out of `ps`.
struct DataOptions: ParsableArguments {
    @Option(help: "Where the server keeps everything: sqlite:FOLDER (the default, in $XDG_DATA_HOME/notetaker-server) or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (several servers may share one). Also NOTETAKER_SERVER_DATABASE.")
    var database: String?
    @Option(help: "Folder for the server's SQLite database and attachment files (the same as --database sqlite:FOLDER). Also NOTETAKER_SERVER_DATA.")
    var data: String?
    @Option(name: .customLong("database-password-file"), help: "A file (mode 0600) holding the PostgreSQL password, so that it stays out of the URL and of `ps`; PGPASSWORD works too. Also NOTETAKER_SERVER_DATABASE_PASSWORD_FILE.")
    var passwordFile: String?
    @Option(help: "A settings file of NAME=value lines (systemd's EnvironmentFile form): any option as NOTETAKER_SERVER_<OPTION>, like NOTETAKER_SERVER_PORT=8471. The environment's variables win over the file, options over both. Also NOTETAKER_SERVER_CONFIG.")
    var config: String?

    /// The settings from the environment and the settings file.
    func settings() throws -> ServerSettings {
        try ServerSettings(config: config)
    }

    /// A configuration over the storage asked for, with the password from its file.
    func configuration() throws -> ServerConfiguration {
        let settings = try settings()
        var configuration = ServerConfiguration(database: try location(settings))
        configuration.databasePassword = try databasePassword(settings)
        return configuration
    }

    /// The PostgreSQL password from the file the option or a setting names, if any.
    func databasePassword(_ settings: ServerSettings) throws -> String? {
        try settings.resolve(passwordFile, "database-password-file").map(readPasswordFile)
    }

    /// The storage asked for: by an option, else by a setting, else the default folder.
    func location(_ settings: ServerSettings) throws -> ServerDatabase {
        if database == nil, data == nil {
            return try Self.location(
                database: settings.value("database")?.value, data: settings.value("data")?.value,
                bothSet: "Set either NOTETAKER_SERVER_DATABASE or NOTETAKER_SERVER_DATA, not both.")
        }
        return try Self.location(database: database, data: data, bothSet: "Give either --database or --data, not both.")
    }

    private static func location(database: String?, data: String?, bothSet: String) throws -> ServerDatabase {
        switch (database, data) {
        case (let database?, nil):
            do {
                return try ServerDatabase(argument: database)
            } catch {
                throw ValidationError(error.message)
            }
        case (nil, let data?):
            return .sqlite(URL(fileURLWithPath: data, isDirectory: true))
        case (nil, nil):
            return .sqlite(ServerConfiguration.defaultDataDirectory())
        case (_?, _?):
            throw ValidationError(bothSet)
        }
    }
}

/// The password in a file only its owner can read (its first line).
func readPasswordFile(_ path: String) throws -> String {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          let data = FileManager.default.contents(atPath: path) else {
        throw ValidationError("--database-password-file: '\(path)' cannot be read.")
    }
    if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
        throw ValidationError("--database-password-file: '\(path)' can be read by other users (mode \(String(mode, radix: 8))); run chmod 600 on it.")
    }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
}
