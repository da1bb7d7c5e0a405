import Crypto
import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Backing up an SQLite server folder while the server runs, and restoring a backup
/// (`notetaker-server backup` and `restore`). A backup is itself a server folder: the
/// database, copied page by page by SQLite's online backup (one consistent snapshot, writers
/// carry on), and the attachment files that snapshot names, each checked against its SHA-256
/// as it is copied.
public enum ServerBackup {
    /// What a backup or a restore holds.
    public struct Summary: Sendable, Equatable {
        /// Accounts, records and attachment files, and the files' bytes.
        public var accounts = 0, records = 0, files = 0, fileBytes: Int64 = 0
    }

    static let databaseName = "NoteTakerServer.sqlite"

    /// Backs up the server folder `source` (its server may be running) into `destination`,
    /// a new or empty folder.
    public static func backUp(from source: URL, to destination: URL) throws -> Summary {
        try copy(from: source, to: destination, waitForUploads: true)
    }

    /// Restores the backup `backup` into `target`, a new or empty folder for a server to start
    /// on. Everything is checked first: the database's integrity and every file's SHA-256.
    public static func restore(from backup: URL, to target: URL) throws -> Summary {
        try copy(from: backup, to: target, waitForUploads: false)
    }

    private static func copy(from source: URL, to destination: URL, waitForUploads: Bool) throws -> Summary {
        let sourceFile = source.appendingPathComponent(databaseName)
        guard FileManager.default.fileExists(atPath: sourceFile.path) else {
            throw SyncServerError(.notFound, "There is no server database in \(source.path) (no \(databaseName)).")
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? []
        guard existing.isEmpty else {
            throw SyncServerError(.badRequest, "\(destination.path) is not empty: give a new or empty folder, so that nothing in it is overwritten.")
        }
        try OwnerOnly.createDirectory(at: destination)
        let destinationFile = destination.appendingPathComponent(databaseName)
        do {
            return try copyInto(destination, destinationFile, from: source, sourceFile, waitForUploads: waitForUploads)
        } catch {
            // Half a backup is no backup: nothing is left to be taken for one.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? [] {
                try? FileManager.default.removeItem(at: destination.appendingPathComponent(name))
            }
            throw error
        }
    }

    private static func copyInto(
        _ destination: URL, _ destinationFile: URL, from source: URL, _ sourceFile: URL, waitForUploads: Bool
    ) throws -> Summary {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(10)
        let from = try DatabasePool(path: sourceFile.path, configuration: readOnly)
        guard OwnerOnly.createFile(at: destinationFile) else {
            throw SyncServerError(.internalError, "Could not create \(destinationFile.path).")
        }
        let to = try DatabaseQueue(path: destinationFile.path)
        try from.backup(to: to)
        var summary = try to.read { db in
            guard try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok" else {
                throw SyncServerError(.internalError, "The database in \(sourceFile.path) is damaged (SQLite's integrity check failed); nothing was copied.")
            }
            return Summary(
                accounts: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account WHERE zoneOwner IS NULL") ?? 0,
                records: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0)
        }
        // A file only end-to-end encrypted accounts hold is sealed, under a keyed address that
        // is not its SHA-256 (docs/encryption.md §5): its devices authenticate it, not the server.
        let files = try to.read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.hash, MIN(k.keys IS NOT NULL) AS sealed FROM asset a JOIN account k ON k.id = a.accountId
                GROUP BY a.hash ORDER BY a.hash
                """).map { (hash: $0["hash"] as String, sealed: $0["sealed"] as Bool) }
        }
        try to.close()
        let assets = FileAssetStore(directory: source.appendingPathComponent("assets", isDirectory: true))
        let copies = FileAssetStore(directory: destination.appendingPathComponent("assets", isDirectory: true))
        for file in files where UploadCheck.isValidHash(file.hash) {
            summary.fileBytes += try copyFile(assets.url(for: file.hash), to: copies.url(for: file.hash), hash: file.hash,
                                              checkingHash: !file.sealed, waitForUpload: waitForUploads)
            summary.files += 1
        }
        return summary
    }

    /// Copies one attachment file, checking its SHA-256 (unless it is sealed); returns its size.
    /// An upload the snapshot already counts may still be moving into place: it is waited for
    /// a few seconds.
    private static func copyFile(_ source: URL, to destination: URL, hash: String, checkingHash: Bool, waitForUpload: Bool) throws -> Int64 {
        var attempts = 0
        while !FileManager.default.fileExists(atPath: source.path) {
            attempts += 1
            guard waitForUpload, attempts <= 50 else {
                throw SyncServerError(.notFound, "The attachment file \(hash) is missing from \(source.deletingLastPathComponent().deletingLastPathComponent().path); nothing was copied.")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
        guard OwnerOnly.createFile(at: destination) else {
            throw SyncServerError(.internalError, "Could not create \(destination.path).")
        }
        let input = try FileHandle(forReadingFrom: source)
        let output = try FileHandle(forWritingTo: destination)
        defer {
            try? input.close()
            try? output.close()
        }
        var digest = SHA256()
        var size: Int64 = 0
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            digest.update(data: chunk)
            try output.write(contentsOf: chunk)
            size += Int64(chunk.count)
        }
        try output.synchronize()
        guard !checkingHash || digest.finalize().lowercaseHex == hash else {
            throw SyncServerError(.hashMismatch, "The attachment file \(hash) in \(source.path) does not match its SHA-256: it is damaged; nothing was copied.")
        }
        return size
    }
}
