import Foundation
import GRDB

/// Looks at an existing file, read-only, before the store opens it for writing: a file that
/// is not a NoteTaker store, is damaged, or was written by a newer version is refused here,
/// before anything could change it.
enum StoreInspection {
    /// The 16 bytes every SQLite database file starts with.
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Refuses a file that cannot be opened as a store. When the store needs no upgrade and
    /// `readingWith` is given, returns it open read-only with that configuration.
    @discardableResult
    static func check(
        path: String, migrator: DatabaseMigrator, readingWith configuration: Configuration? = nil
    ) throws(NoteTakerError) -> DatabaseQueue? {
        let header: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            header = Array(try handle.read(upToCount: sqliteHeader.count) ?? Data())
        } catch {
            throw .storeUnreadable(path: path, reason: error.localizedDescription)
        }
        // SQLite treats an empty file as an empty database: it becomes a new store.
        if header.isEmpty { return nil }
        guard header == sqliteHeader else {
            throw .storeUnreadable(path: path, reason: "the file is not an SQLite database")
        }

        var config = configuration ?? Configuration()
        config.readonly = true
        config.busyMode = .timeout(NoteStore.busyTimeout)
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            let isCurrent = try queue.read { db in
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                if tables.isEmpty { return false }
                let applied = tables.contains("grdb_migrations") ? try migrator.appliedIdentifiers(db) : []
                guard applied.contains(NoteStore.firstMigration) else {
                    throw NoteTakerError.notANoteTakerStore(path: path)
                }
                if try migrator.hasBeenSuperseded(db) {
                    throw NoteTakerError.storeFromNewerVersion(path: path)
                }
                return try migrator.hasCompletedMigrations(db)
            }
            guard isCurrent, configuration != nil else {
                try queue.close()
                return nil
            }
            return queue
        } catch let error as NoteTakerError {
            throw error
        } catch {
            throw .storeUnreadable(path: path, reason: NoteTakerError(databaseError: error).message)
        }
    }
}
