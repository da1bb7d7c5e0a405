import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The deletions of notes, folders and attachments this device made that the server saved,
/// each with the change tag it was saved at, kept for ``kept`` after their answer: a server
/// restored from a copy older than one of them holds the record again, and a heal sends the
/// deletion again (`NoteStore+RestoredServer.swift`).
///
/// Sent again against no version, a deletion applies where the record's last edit on the
/// server is this device's, or no one's (only the software saved it since); where another
/// device edited it, the server refuses it and the record comes back here, as an edit outranks
/// a deletion. It goes up naming its tag (``RecordChange/sentAgainFrom``), which the server
/// keeps with the tombstone: another device's save sent again from a version of the history
/// the restore lost compares with that tag, not with the restored server's numbering, so an
/// edit that brought the record back after the deletion still wins over it (plain seed 24,999),
/// and a version from before it still yields (converting seed 3,015,801: a note deleted and
/// purged after a backup taken during the account's conversion came back from the copy in
/// plain text, which no device held, so the conversion never ended).
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
                changeTag TEXT NOT NULL,
                answeredAt REAL NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID;
            CREATE INDEX sync_sent_deletion_answered ON sync_sent_deletion (answeredAt);
            """)
    }

    /// Remembers that the server saved this device's deletion of a record at change
    /// `changeTag`, `now`, and forgets those answered longer than ``kept`` ago (found by the
    /// index: none, mostly).
    static func remember(_ db: Database, _ type: RecordType, _ id: String, changeTag: String, now: Date) throws {
        guard type != .tag, !changeTag.isEmpty else { return }
        try forget(db, answeredBefore: now)
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_sent_deletion (recordType, recordId, changeTag, answeredAt) VALUES (?, ?, ?, ?)")
            .execute(arguments: [type.rawValue, id, changeTag, now.storageValue])
    }

    /// Queues again, against no version and naming the tag each had, the deletions answered
    /// within ``kept`` of `now` of records that are not here (not made again, nothing of them
    /// waiting to go up): the heal of a server restored from an older copy.
    static func queueAgain(_ db: Database, now: Date) throws {
        try forget(db, answeredBefore: now)
        for type in RecordType.parentsFirst where type != .tag {
            try db.execute(sql: """
                INSERT INTO outbox (recordType, recordId, operation, queuedAt, sentAgainFrom)
                SELECT ?1, d.recordId, 'delete', ?2, d.changeTag FROM sync_sent_deletion d
                WHERE d.recordType = ?1 AND NOT EXISTS (SELECT 1 FROM \(type.table) WHERE id = d.recordId)
                  AND NOT EXISTS (SELECT 1 FROM outbox WHERE recordType = ?1 AND recordId = d.recordId)
                """, arguments: [type.rawValue, now.storageValue])
        }
    }

    private static func forget(_ db: Database, answeredBefore now: Date) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_sent_deletion WHERE answeredAt < ?").execute(arguments: [now.addingTimeInterval(-kept).storageValue])
    }

    /// Forgets them all: this device starts over with another server or account.
    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_sent_deletion")
    }
}
