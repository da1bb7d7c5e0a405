import ArgumentParser
import Foundation
import NoteTakerServer

/// `notetaker-server migrate`: brings the storage's schema up to date and stops (what
/// `serve` also does on start), for upgrading before the nodes restart.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Bring the storage's tables up to date, then stop (serve does this on start too).")

    @OptionGroup var dataOptions: DataOptions

    func run() async throws {
        let configuration = try dataOptions.configuration()
        _ = try await openBackend(configuration)
        print("The storage at \(configuration.database) is up to date.")
    }
}

/// `notetaker-server migrate-data --from sqlite:DIR --to postgres://…`: moves a server's
/// data to PostgreSQL without devices noticing.
struct MigrateDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-data",
        abstract: "Copy a server's data from its SQLite folder into an empty PostgreSQL database; devices keep their tokens and do not sync again from scratch.",
        discussion: "Stop the server first; start it again with --database set to the PostgreSQL URL.")

    @Option(help: "The SQLite storage to copy from: sqlite:FOLDER.") var from: String
    @Option(help: "The empty PostgreSQL database to copy into: postgres://USER@HOST[:PORT]/DATABASE.") var to: String
    @Option(name: .customLong("database-password-file"), help: "A file (mode 0600) holding the PostgreSQL password; PGPASSWORD works too.")
    var passwordFile: String?

    func run() async throws {
        let source: ServerDatabase, target: ServerDatabase
        do {
            (source, target) = (try ServerDatabase(argument: from), try ServerDatabase(argument: to))
        } catch {
            throw ValidationError(error.message)
        }
        guard case .sqlite(let folder) = source, case .postgres(let url) = target else {
            throw ValidationError("migrate-data copies from sqlite:FOLDER to postgres://…")
        }
        let summary = try await reportingFailure("the copy failed and nothing was kept in \(target)") {
            try await StorageCopy.copy(from: folder, to: try PostgresDatabase(url: url, password: try passwordFile.map(readPasswordFile)))
        }
        print("Copied \(summary.accounts) accounts, \(summary.records) records and \(summary.files) files to \(target).")
        let password = target.holdsPassword || passwordFile != nil ? " (with the password in PGPASSWORD or --database-password-file)" : ""
        print("Start the server with --database '\(target.argumentWithoutPassword)'\(password); devices carry on where they were.")
    }
}
