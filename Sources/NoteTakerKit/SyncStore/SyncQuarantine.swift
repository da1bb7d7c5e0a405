import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Records from the server this device could not apply, kept exactly as they came, with
/// why: a record another device (or a damaged server) wrote wrong never stops a sync, never
/// touches a local row, and is never silently dropped.
///
/// A newer version of the record (or its deletion) replaces a held one. Held records are
/// tried again when this app reads records by newer rules than when they were held (see
/// ``readerVersion``), so an update that learns to read them gets them back.
enum SyncQuarantine {
    /// The version of the rules for reading records from the server. Raise it whenever a
    /// release accepts records an earlier one refused: held records are then tried again.
    static let readerVersion = 1

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_quarantine (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                changeTag TEXT NOT NULL,
                deleted INTEGER NOT NULL,
                fields TEXT NOT NULL,
                reason TEXT NOT NULL,
                readerVersion INTEGER NOT NULL,
                heldAt REAL NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID
            """)
    }

    /// Holds a record this device could not apply, replacing an older held version.
    static func hold(_ db: Database, recordType: String, recordId: String, changeTag: String, deleted: Bool, fields: String, reason: String) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO sync_quarantine (recordType, recordId, changeTag, deleted, fields, reason, readerVersion, heldAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [recordType, recordId, changeTag, deleted, fields, reason, readerVersion, Date().storageValue])
    }

    /// Forgets a held version: a newer one arrived, or this device's own went up.
    static func release(_ db: Database, recordType: String, recordId: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_quarantine WHERE recordType = ? AND recordId = ?")
            .execute(arguments: [recordType, recordId])
    }

    /// Stages again the records held under older reading rules; returns how many. A sealed
    /// record stays held: it was held because it did not open (docs/encryption.md §3.4), which
    /// the store's reading rules do not change, and staged as it is it would reach the store
    /// unopened.
    @discardableResult
    static func restage(_ db: Database) throws -> Int {
        let rows = try Row.fetchAll(db, sql: """
            SELECT recordType, recordId, changeTag, deleted, fields FROM sync_quarantine WHERE readerVersion < ? AND \(notSealed)
            """, arguments: [readerVersion])
        for row in rows {
            let type: String = row["recordType"]
            try db.execute(sql: """
                INSERT INTO sync_inbox (priority, recordType, recordId, changeTag, deleted, fields) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [RecordType(rawValue: type)?.applyOrder ?? 9, type, row["recordId"], row["changeTag"], row["deleted"], row["fields"]])
        }
        try db.execute(sql: "DELETE FROM sync_quarantine WHERE readerVersion < ? AND \(notSealed)", arguments: [readerVersion])
        return rows.count
    }

    /// Holds the saves staged in plain text (a pull cut short, fetched while the account was
    /// not encrypted) as a fetch would hold them now, when this device takes up the account's
    /// encryption (docs/encryption.md §2.4): staged, they would be applied without the opening
    /// every record from the server now passes, under the ids they had before. The conversion
    /// sends each again sealed, which replaces it. Deletions stay staged: the store reads no
    /// deletion's fields. Returns how many were held.
    @discardableResult
    static func holdStagedPlaintext(_ db: Database) throws -> Int {
        let staged = try Row.fetchAll(db, sql: """
            SELECT seq, recordType, recordId, changeTag, fields FROM sync_inbox WHERE deleted = 0 AND \(notSealed) ORDER BY seq
            """)
        for row in staged {
            try hold(db, recordType: row["recordType"], recordId: row["recordId"], changeTag: row["changeTag"], deleted: false,
                     fields: row["fields"], reason: stagedPlaintextReason)
            try db.execute(sql: "DELETE FROM sync_inbox WHERE seq = ?", arguments: [row["seq"] as Int64])
        }
        return staged.count
    }

    /// Why a save staged in plain text is held at the account's encryption.
    static let stagedPlaintextReason =
        "It came from the server without encryption before this device took up the account's; the encrypted version replaces it."

    /// Forgets every record held in plain text, once the server deleted what it held so at the
    /// end of a conversion to encryption (docs/encryption.md §2.4): each was sealed since, or
    /// deleted, or a tag's unkeyed copy the server dropped. Returns how many.
    @discardableResult
    static func forgetPlaintext(_ db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM sync_quarantine WHERE \(notSealed)")
        return db.changesCount
    }

    /// The names of the tags held in plain text under unkeyed ids (a version 5 UUID): the
    /// server's copies of tags as they were before a conversion to encryption, not applied. A
    /// name is read only to know what to wait for, never applied.
    static func plaintextTagNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT fields FROM sync_quarantine
            WHERE recordType = 'tag' AND deleted = 0 AND substr(recordId, 15, 1) = '5' AND \(notSealed)
            """).compactMap { text in
            (try? RecordFields(wireJSON: Array(text.utf8)))?[TagRecord.Field.name.rawValue]?.string
        }
    }

    /// A held record's fields are not an envelope: the canonical JSON of an envelope's fields
    /// begins with its marker, the first of its keys in byte order.
    private static let notSealed = "fields NOT LIKE '{\"\(RecordFields.sealedMarker)\":%'"

    /// Every held record, oldest first.
    static func fetchAll(_ db: Database) throws -> [HeldRecord] {
        try Row.fetchAll(db, sql: "SELECT recordType, recordId, reason, heldAt FROM sync_quarantine ORDER BY heldAt").map { row in
            HeldRecord(recordType: row["recordType"], recordId: row["recordId"], reason: row["reason"],
                       heldAt: Date(timeIntervalSince1970: row["heldAt"]))
        }
    }
}

/// A change from the server this device could not apply, held as it came (see
/// `sync status`): the local data it would have changed is untouched.
public struct HeldRecord: Sendable, Equatable, Codable {
    /// The record's type, as the server sent it.
    public var recordType: String
    /// The record's id, as the server sent it (not necessarily a valid UUID).
    public var recordId: String
    /// Why it could not be applied.
    public var reason: String
    /// When it was held.
    public var heldAt: Date
}
