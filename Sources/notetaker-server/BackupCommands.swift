import ArgumentParser
import Foundation
import NoteTakerServer

/// `notetaker-server backup DEST`: a consistent copy of an SQLite server while it runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the server's data into a new folder while it runs: one consistent snapshot of the database, and the attachment files it names, each checked.",
        discussion: "For PostgreSQL, use pg_dump (see the README); this command says how.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "A new or empty folder for the backup.") var destination: String

    func run() async throws {
        let database = try dataOptions.location(try dataOptions.settings())
        guard case .sqlite(let folder) = database else {
            throw ValidationError(
                "A PostgreSQL server is backed up by PostgreSQL: pg_dump --format=custom --file=notetaker.dump --dbname='\(database.argumentWithoutPassword)' (one consistent snapshot while the nodes run); restore it with pg_restore --clean --if-exists --single-transaction --no-owner.")
        }
        let target = URL(fileURLWithPath: destination, isDirectory: true)
        let summary = try await reportingFailure("the backup failed; nothing was kept in \(target.path)") {
            try ServerBackup.backUp(from: folder, to: target)
        }
        print("Backed up \(describe(summary)) from \(folder.path) to \(target.path).")
        print("Restore it with: notetaker-server restore \(target.path) --data FOLDER (a new or empty folder), then start the server on FOLDER.")
    }
}

/// `notetaker-server restore BACKUP`: a backup, checked, into the folder a server will use.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new or empty data folder (--data, or NOTETAKER_SERVER_DATA), after checking the database and every file.",
        discussion: "Stop the server, move its folder aside, restore into the folder it uses, start it. Devices notice the older copy at their next sync and send up again what they hold that it lacks.")

    @OptionGroup var dataOptions: DataOptions
    @Argument(help: "The backup's folder (made by notetaker-server backup).") var backup: String

    func run() async throws {
        guard case .sqlite(let folder) = try dataOptions.location(try dataOptions.settings()) else {
            throw ValidationError("restore writes an SQLite data folder (--data); a PostgreSQL database is restored with pg_restore (see the README).")
        }
        let source = URL(fileURLWithPath: backup, isDirectory: true)
        let summary = try await reportingFailure("the restore failed; nothing was kept in \(folder.path)") {
            try ServerBackup.restore(from: source, to: folder)
        }
        print("Restored \(describe(summary)) into \(folder.path). Start the server on it; each device notices the older copy at its next sync and sends up again what it holds that the copy lacks.")
    }
}

/// "2 accounts, 340 records and 12 files (8.4 MB)".
private func describe(_ summary: ServerBackup.Summary) -> String {
    "\(summary.accounts) accounts, \(summary.records) records and \(summary.files) files (\(ByteCountFormatter.string(fromByteCount: summary.fileBytes, countStyle: .file)))"
}
