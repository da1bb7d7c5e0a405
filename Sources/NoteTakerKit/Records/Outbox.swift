import Foundation
import GRDB

/// The outbox: local changes waiting to go up, appended inside the transaction that makes
/// them. Every statement that reads or writes the `outbox` table is here.
///
/// A change is *derived* when this device made it only because a deletion arrived from
/// elsewhere (a note losing a deleted tag, a subfolder moving up): it goes up like any
/// other, but it does not win over a concurrent deletion of the record itself, as an edit
/// does. A later edit of the record makes its entry an edit.
enum Outbox {
    /// A change the server refused this many times is marked `error` and left until retried by hand.
    static let maximumAttempts = 3

    /// One change waiting, as a push reads it.
    struct Entry {
        /// Grows with every change.
        var seq: Int64
        /// The record's type, as stored (`nil`: not one this app knows).
        var type: RecordType?
        /// The record's id, as stored.
        var recordId: String
        /// Save or delete.
        var operation: PendingChange.Operation
        /// Made only as a consequence of another change.
        var derived: Bool
        /// Sent again, unchanged since this version, to heal a restored server.
        var sentAgainFrom: String?

        /// Reads a row of `outbox` (`nil`: an operation this app does not know).
        init?(_ row: Row) {
            guard let operation = PendingChange.Operation(rawValue: row["operation"]) else { return nil }
            (seq, type, recordId, self.operation) = (row["seq"], RecordType(rawValue: row["recordType"]), row["recordId"], operation)
            (derived, sentAgainFrom) = (row["derived"], row["sentAgainFrom"])
        }
    }

    // MARK: Changes made here

    /// Records that a row was saved (and marks it `pending`), or deleted.
    static func record(_ db: Database, _ type: RecordType, _ id: String, _ operation: PendingChange.Operation = .save,
                       derived: Bool = false) throws {
        try append(db, type, id, operation, derived: derived)
        if operation == .save {
            try db.cachedStatement(sql: "UPDATE \(type.table) SET syncStatus = 'pending' WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Appends the change to the outbox only: for a row just inserted, which starts `pending`.
    ///
    /// A tag's save never takes the place of its deletion waiting: a tag's id follows from its
    /// name, so the tag was made again, and the deletion still goes up first, for the notes
    /// other devices tagged before it. Once it is done, the tag made again goes up over it
    /// (``SyncApply/forgetDeletion(_:_:_:tombstone:)``).
    static func append(_ db: Database, _ type: RecordType, _ id: String, _ operation: PendingChange.Operation = .save,
                       derived: Bool = false) throws {
        if type == .tag, operation == .save, try entry(db, type, id)?.operation == .delete { return }
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO outbox (recordType, recordId, operation, queuedAt, derived, sentAgainFrom)
            VALUES (?1, ?2, ?3, ?4, ?5 AND IFNULL((SELECT derived FROM outbox WHERE recordType = ?1 AND recordId = ?2), 1),
                    CASE WHEN ?5 AND ?3 = 'save' THEN (SELECT sentAgainFrom FROM outbox WHERE recordType = ?1 AND recordId = ?2) END)
            """).execute(arguments: [type.rawValue, id, operation.rawValue, Date().storageValue, derived])
    }

    /// Records a save of every row of `type` whose id the SQL `selection` returns.
    static func recordSaves(_ db: Database, _ type: RecordType, selection: String, arguments: StatementArguments = []) throws {
        let ids = try String.fetchAll(db, sql: selection, arguments: arguments)
        for id in ids {
            try record(db, type, id)
        }
    }

    /// Queues a save of every row of `type`, for a server that holds none of them.
    ///
    /// `sendingAgain`, for a server restored from an older copy: a row synced and not changed
    /// since (no change of it waiting) is marked sent again from the version it holds, which
    /// a deletion after it outranks (``ApplyDecision``, and the server's `RecordVersioning`).
    static func queueAll(_ db: Database, _ type: RecordType, sendingAgain: Bool = false) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO outbox (recordType, recordId, operation, queuedAt, sentAgainFrom)
            SELECT ?1, t.id, 'save', ?2,
                   CASE WHEN ?3 AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.recordType = ?1 AND o.recordId = t.id) THEN t.changeTag END
            FROM \(type.table) t
            """, arguments: [type.rawValue, Date().storageValue, sendingAgain])
    }

    /// Queues a save of every row of `type` the server holds (synced once) and no change of
    /// which waits, as a derived change: it goes up as it is and yields to any edit. Returns
    /// how many it queued.
    static func queueDerivedSaves(_ db: Database, _ type: RecordType) throws -> Int {
        try db.execute(sql: """
            INSERT OR IGNORE INTO outbox (recordType, recordId, operation, queuedAt, derived)
            SELECT ?, id, 'save', ?, 1 FROM \(type.table) WHERE changeTag IS NOT NULL
            """, arguments: [type.rawValue, Date().storageValue])
        let queued = db.changesCount
        try db.execute(sql: "UPDATE \(type.table) SET syncStatus = 'pending' WHERE syncStatus = 'synced' AND \(waitsSQL(type: "'\(type.rawValue)'", id: "\(type.table).id"))")
        return queued
    }

    /// Drops every deletion waiting.
    static func removeDeletions(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM outbox WHERE operation = 'delete'")
    }

    // MARK: What a push and its answers do

    /// The change of a record waiting, if there is one.
    static func entry(_ db: Database, _ type: RecordType, _ key: String) throws -> Entry? {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT seq, recordType, recordId, operation, derived, sentAgainFrom FROM outbox WHERE recordType = ? AND recordId = ?
            """), arguments: [type.rawValue, key])
        return row.flatMap(Entry.init)
    }

    /// Whether a change of the record waits.
    static func holds(_ db: Database, recordType: String, recordId: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM outbox WHERE recordType = ? AND recordId = ?"),
                          arguments: [recordType, recordId]) == true
    }

    /// Up to `limit` changes after sequence `cursor` that have not failed too often, oldest first.
    static func entries(_ db: Database, after cursor: Int64, limit: Int) throws -> [Entry] {
        try Row.fetchAll(db, sql: """
            SELECT seq, recordType, recordId, operation, derived, sentAgainFrom FROM outbox
            WHERE seq > ? AND attempts < ? ORDER BY seq LIMIT ?
            """, arguments: [cursor, maximumAttempts, limit]).compactMap(Entry.init)
    }

    /// Drops the change of a record.
    static func remove(_ db: Database, _ type: RecordType, _ key: String) throws {
        try db.cachedStatement(sql: "DELETE FROM outbox WHERE recordType = ? AND recordId = ?").execute(arguments: [type.rawValue, key])
    }

    /// Drops the change with this sequence.
    static func remove(_ db: Database, sequence: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq = ?").execute(arguments: [sequence])
    }

    /// Drops the changes whose sequences the JSON array `sequences` lists.
    static func remove(_ db: Database, sequences: String) throws {
        try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))").execute(arguments: [sequences])
    }

    /// Which of the sequences the JSON array `sequences` lists still wait: their records
    /// did not change since.
    static func waiting(_ db: Database, sequences: String) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT seq FROM outbox WHERE seq IN (SELECT value FROM json_each(?))"),
                               arguments: [sequences]))
    }

    /// Counts a failed attempt of a record's change, at least `attempts`, with the reason.
    static func countFailure(_ db: Database, _ type: RecordType, _ key: String, attempts: Int, message: String) throws {
        try db.execute(sql: "UPDATE outbox SET attempts = MAX(attempts + 1, ?), lastError = ? WHERE recordType = ? AND recordId = ?",
                       arguments: [attempts, message, type.rawValue, key])
    }

    /// Puts a record's change back in line, however often it failed: a version of the record
    /// arrived and merged with it (for a deletion: arrived), and the change goes up on top of
    /// that version now.
    static func resetFailure(_ db: Database, _ type: RecordType, _ key: String) throws {
        try db.cachedStatement(sql: "UPDATE outbox SET attempts = 0, lastError = NULL WHERE recordType = ? AND recordId = ? AND attempts > 0")
            .execute(arguments: [type.rawValue, key])
    }

    /// Puts every failed change back in line; returns the records they change.
    static func resetFailures(_ db: Database) throws -> [(type: RecordType, id: String)] {
        let failed = try Row.fetchAll(db, sql: "SELECT recordType, recordId FROM outbox WHERE attempts >= ?", arguments: [maximumAttempts])
        try db.execute(sql: "UPDATE outbox SET attempts = 0, lastError = NULL")
        return failed.compactMap { row in RecordType(rawValue: row["recordType"]).map { ($0, row["recordId"]) } }
    }

    // MARK: Counts

    /// How many changes wait, failed or not.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
    }

    /// How many changes may be sent: those not failed too often.
    static func pushableCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE attempts < ?", arguments: [maximumAttempts]) ?? 0
    }

    /// Whether any change may be sent.
    static func hasPushable(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM outbox WHERE attempts < ? LIMIT 1", arguments: [maximumAttempts]) ?? false
    }

    /// How many changes of notes, and of other records, wait.
    static func countsByKind(_ db: Database) throws -> (notes: Int, others: Int) {
        var counts = (notes: 0, others: 0)
        for row in try Row.fetchAll(db, sql: "SELECT recordType = 'note', COUNT(*) FROM outbox GROUP BY recordType = 'note'") {
            if row[0] as Bool { counts.notes = row[1] } else { counts.others = row[1] }
        }
        return counts
    }

    /// The newest sequence (0 for an empty outbox): it grows with every local change.
    static func lastSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) FROM outbox") ?? 0
    }

    /// The changes that failed too often, oldest first, each with a label for its record.
    static func failures(_ db: Database) throws -> [SyncFailure] {
        try Row.fetchAll(db, sql: """
            SELECT o.recordType, o.recordId, o.lastError, o.attempts,
                COALESCE((SELECT title FROM note WHERE id = o.recordId), (SELECT name FROM folder WHERE id = o.recordId),
                         (SELECT name FROM tag WHERE id = o.recordId), (SELECT fileName FROM attachment WHERE id = o.recordId)) AS label
            FROM outbox o WHERE o.attempts >= ? ORDER BY o.seq
            """, arguments: [maximumAttempts]).compactMap { row -> SyncFailure? in
            guard let id = row.uuid("recordId") else { return nil }
            return SyncFailure(recordType: row["recordType"], recordId: id, label: row["label"],
                               message: row["lastError"] ?? "Unknown error", attempts: row["attempts"])
        }
    }

    // MARK: In other statements

    /// An SQL condition, true when a change waits for the record whose type is the SQL
    /// expression `type` and whose id is `id`; `editsOnly`: a change not derived.
    static func waitsSQL(type: String, id: String, editsOnly: Bool = false) -> String {
        "EXISTS (SELECT 1 FROM outbox o WHERE o.recordType = \(type) AND o.recordId = \(id)\(editsOnly ? " AND NOT o.derived" : ""))"
    }
}

extension NoteStore {
    /// The changes waiting to be sent to the sync server, oldest first.
    public func pendingChanges() throws(NoteTakerError) -> [PendingChange] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq").compactMap { row in
                guard let type = RecordType(rawValue: row["recordType"]),
                      let id = row.uuid("recordId"),
                      let operation = PendingChange.Operation(rawValue: row["operation"])
                else { return nil }
                return PendingChange(
                    sequence: row["seq"], recordType: type, recordId: id, operation: operation,
                    queuedAt: row.date("queuedAt") ?? Date())
            }
        }
    }
}
