import Foundation
import GRDB

/// The local usage counters kept in the store.
enum Metric: String {
    case launches
    case notesCreated
    case syncEvents
}

enum Metrics {
    static func increment(_ db: Database, _ metric: Metric, by amount: Int = 1) throws {
        try db.cachedStatement(sql: """
            INSERT INTO metric (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value
            """).execute(arguments: [metric.rawValue, amount])
    }
}

extension NoteStore {
    /// Counts a program's start, purges notes that have been in the trash for over 30
    /// days, and thins the history when it was last thinned over a day ago: what a NoteTaker
    /// program that changes the store does once when it opens it. The count and the purge
    /// are one durable write; a program that only reads the store does none of this.
    public func recordLaunch(now date: Date? = nil) throws(NoteTakerError) {
        let now = date ?? sources.now
        let (_, hashes) = try write { db in
            try Metrics.increment(db, .launches)
            return try RecordWriter.purgeTrash(db, trashedBefore: now.addingTimeInterval(-Self.trashRetention))
        }
        try removeUnreferencedFiles(hashes)
        try pruneHistoryIfDue(now: now)
    }

    /// Usage counters and what the store holds.
    public func statistics() throws(NoteTakerError) -> StoreStatistics {
        try read { db in
            let metrics = try Dictionary(
                Row.fetchAll(db, sql: "SELECT name, value FROM metric").map { ($0["name"] as String, $0["value"] as Int) },
                uniquingKeysWith: { first, _ in first })
            func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int { try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
            return StoreStatistics(
                launches: metrics[Metric.launches.rawValue] ?? 0,
                notesCreated: metrics[Metric.notesCreated.rawValue] ?? 0,
                syncEvents: metrics[Metric.syncEvents.rawValue] ?? 0,
                notes: try count("SELECT COUNT(*) FROM note WHERE trashedAt IS NULL"),
                pinnedNotes: try count("SELECT COUNT(*) FROM note WHERE trashedAt IS NULL AND isPinned"),
                recentNotes: try count("SELECT COUNT(*) FROM note WHERE trashedAt IS NULL AND modifiedAt >= ?",
                                       [sources.now.addingTimeInterval(-NoteQuery.recentInterval).storageValue]),
                trashedNotes: try count("SELECT COUNT(*) FROM note WHERE trashedAt IS NOT NULL"),
                folders: try count("SELECT COUNT(*) FROM folder"),
                tags: try count("SELECT COUNT(*) FROM tag"),
                attachments: try count("SELECT COUNT(*) FROM attachment"),
                attachmentBytes: try Int64.fetchOne(db, sql: """
                    SELECT IFNULL(SUM(fileSize), 0) FROM (SELECT DISTINCT contentHash, fileSize FROM attachment)
                    """) ?? 0,
                pendingChanges: try Outbox.count(db))
        }
    }
}
