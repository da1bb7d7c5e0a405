import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The deletions of notes, folders and attachments this device made that the server saved,
/// kept for ``kept`` after their answer: a server restored from a copy older than one of them
/// holds the record again, and a heal sends the deletion again (`NoteStore+RestoredServer.swift`).
///
/// Sent again against no version, a deletion applies where the record's last edit on the
/// server is this device's, or no one's (only the software saved it since); where another
/// device edited it, the server refuses it and the record comes back here, as an edit outranks
/// a deletion. So a person's deletion survives the restore, unless someone edited the record
/// since, which brings it back as it would have without the restore. (Converting seed
/// 3,015,801: a note deleted and purged after a backup taken during the account's conversion
/// came back from the copy in plain text, which no device held, so the conversion never ended.)
///
/// Tags are left out: a tag's id follows from its name, so a tag deleted and made again is
/// the same record, which its own rules keep (``TagTombstones``).
enum SentDeletions {
    /// How long a deletion is kept after its answer: longer than an operator keeps backups.
    static let kept: TimeInterval = 90 * 86_400

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_sent_deletion (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                answeredAt REAL NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID
            """)
    }

    /// Remembers that the server saved this device's deletion of a record, `now`.
    static func remember(_ db: Database, _ type: RecordType, _ id: String, now: Date) throws {
        guard type != .tag else { return }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_sent_deletion (recordType, recordId, answeredAt) VALUES (?, ?, ?)")
            .execute(arguments: [type.rawValue, id, now.storageValue])
    }

    /// Queues again, against no version, the deletions answered within ``kept`` of `now` of
    /// records that are not here (not made again, nothing of them waiting to go up), and
    /// forgets the older ones: the heal of a server restored from an older copy.
    static func queueAgain(_ db: Database, now: Date) throws {
        try db.execute(sql: "DELETE FROM sync_sent_deletion WHERE answeredAt < ?", arguments: [now.addingTimeInterval(-kept).storageValue])
        for type in RecordType.parentsFirst where type != .tag {
            let ids = try String.fetchAll(db, sql: """
                SELECT d.recordId FROM sync_sent_deletion d
                WHERE d.recordType = ?1 AND NOT EXISTS (SELECT 1 FROM \(type.table) WHERE id = d.recordId)
                  AND NOT EXISTS (SELECT 1 FROM outbox WHERE recordType = ?1 AND recordId = d.recordId)
                """, arguments: [type.rawValue])
            for id in ids { try Outbox.record(db, type, id, .delete) }
        }
    }

    /// Forgets them all: this device starts over with another server or account.
    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_sent_deletion")
    }
}
