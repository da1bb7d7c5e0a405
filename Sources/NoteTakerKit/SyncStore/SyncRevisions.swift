import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The highest revision of each sealed record this device has opened or had saved
/// (docs/encryption.md §3.1, §3.4): a save goes up one above it, and a record from the server
/// below it is a replay. Only an account with end-to-end encryption keeps any; a record's is
/// forgotten once it is deleted here.
///
/// Only revisions above 1 are kept: no record comes below 1, so a 1 seen is never a replay's
/// mark, and a change sent against a version of the server's is of a record seen at 1 at
/// least (the engine counts it so). A first sync, every record at 1, writes none.
///
/// Forgotten with everything else this device knew of a server (``NoteStore/requeueEverything(_:keepingDeletions:)``):
/// a different server, or one restored from an older copy, holds older revisions, which this
/// device then takes as the base of its merges, knowingly.
enum SyncRevisions {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_revision (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                revision INTEGER NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID
            """)
    }

    /// The revisions seen of `records`, those there are.
    static func fetch(_ db: Database, _ records: [RecordRevision.Key]) throws -> [RecordRevision.Key: Int] {
        guard !records.isEmpty else { return [:] }
        // None kept (no record here was seen above revision 1, as through a first sync): no
        // look-up at all.
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_revision)")) == true else { return [:] }
        // One look-up by the primary key each: a batch's few hundred records, in a table of
        // every record of the account.
        let statement = try db.cachedStatement(sql: "SELECT revision FROM sync_revision WHERE recordType = ? AND recordId = ?")
        var seen: [RecordRevision.Key: Int] = [:]
        for record in records {
            if let revision = try Int.fetchOne(statement, arguments: [record.recordType, record.recordId.key]) { seen[record] = revision }
        }
        return seen
    }

    /// Forgets what was seen of those of `records` that are deleted here: no row, nothing of
    /// them waiting to go up, and nothing staged.
    static func forgetDeleted(_ db: Database, _ records: [RecordRevision.Key]) throws {
        for record in records {
            guard let type = RecordType(rawValue: record.recordType) else { continue }
            try db.execute(sql: """
                DELETE FROM sync_revision WHERE recordType = ?1 AND recordId = ?2
                  AND NOT EXISTS (SELECT 1 FROM \(type.table) WHERE id = ?2)
                  AND NOT \(Outbox.waitsSQL(type: "?1", id: "?2"))
                  AND NOT EXISTS (SELECT 1 FROM sync_inbox WHERE recordType = ?1 AND recordId = ?2)
                """, arguments: [record.recordType, record.recordId.key])
        }
    }

    /// Raises each record's revision seen to the one given, where it is higher (and above 1).
    static func raise(_ db: Database, _ revisions: [RecordRevision]) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO sync_revision (recordType, recordId, revision) VALUES (?, ?, ?)
            ON CONFLICT (recordType, recordId) DO UPDATE SET revision = MAX(revision, excluded.revision)
            """)
        for revision in revisions where revision.revision > 1 {
            try statement.execute(arguments: [revision.key.recordType, revision.key.recordId.key, revision.revision])
        }
    }
}

/// What opening a sealed page or a push's answer found (docs/encryption.md §3.4): the
/// revisions seen, and the records held with why. Written in the transaction that applies or
/// stages the page or the answer, so that a record's revision seen is never behind the
/// version this device merges with.
package struct SealedChanges: Sendable {
    /// The revisions seen: opened from the server, or saved there.
    package var revisions: [RecordRevision]
    /// Records from the server this device will not apply, as they came, each with why.
    package var held: [(record: SyncRecord, reason: String)]

    /// Records the server refused a change with in plain text that this device takes as its
    /// own (its saves, their answer lost before it adopted the account's encryption; or, after
    /// a restore, what it sends again over such a version): each goes up again, sealed.
    package var resealing: [RecordRevision.Key]

    /// Nothing sealed: an account without encryption.
    package static let none = SealedChanges(revisions: [], held: [])

    /// What opening found.
    package init(revisions: [RecordRevision], held: [(record: SyncRecord, reason: String)], resealing: [RecordRevision.Key] = []) {
        self.revisions = revisions
        self.held = held
        self.resealing = resealing
    }

    /// Holds the records and remembers the revisions.
    func write(_ db: Database) throws {
        for (record, reason) in held {
            try SyncQuarantine.hold(db, recordType: record.recordType, recordId: record.recordId.key, changeTag: record.changeTag,
                                    deleted: record.deleted, fields: record.fields.wireJSON, reason: reason)
        }
        if !revisions.isEmpty { try SyncRevisions.raise(db, revisions) }
    }

    /// Once the answer they came with is applied: queues each record ``resealing`` names
    /// to go up again, sealed (a derived save, as a conversion's are).
    func queueResealing(_ db: Database) throws {
        for key in resealing {
            guard let type = RecordType(rawValue: key.recordType), try Outbox.entry(db, type, key.recordId.key) == nil,
                  try SyncRecords.fields(db, type, key.recordId.key) != nil else { continue }
            try Outbox.record(db, type, key.recordId.key, derived: true)
        }
    }
}

/// A sealed record's revision (docs/encryption.md §3.1).
package struct RecordRevision: Sendable, Hashable {
    /// Which record: its kind and id.
    package struct Key: Sendable, Hashable {
        /// The record's kind, as on the wire.
        package var recordType: String
        /// The record's id.
        package var recordId: UUID

        /// Names a record.
        package init(recordType: String, recordId: UUID) {
            self.recordType = recordType
            self.recordId = recordId
        }
    }

    /// The record.
    package var key: Key
    /// Its revision.
    package var revision: Int

    /// A record's revision.
    package init(_ key: Key, revision: Int) {
        self.key = key
        self.revision = revision
    }
}

extension NoteStore {
    /// The highest revisions this device has seen of `records`, those it has seen.
    package func seenRevisions(_ records: [RecordRevision.Key]) throws(NoteTakerError) -> [RecordRevision.Key: Int] {
        try read { db in try SyncRevisions.fetch(db, records) }
    }

    /// Those of `records`, in plain text, that are this device's own saves as it sent them in
    /// a batch forgotten at a conversion to encryption (its answer lost), with their fields as
    /// this device names them now: the server made each of exactly the fields this device
    /// sent, so it is no server's invention (``ForgottenSaves``).
    package func ownPlaintextSaves(among records: [SyncRecord]) throws(NoteTakerError) -> [UUID: RecordFields] {
        try read { db in try ForgottenSaves.own(db, among: records) }
    }

    /// The ids of those of `changes` whose record this device had seen sealed when it found
    /// the server restored (``SealedBeforeRestore``).
    package func sealedBeforeRestore(among changes: [RecordChange]) throws(NoteTakerError) -> Set<UUID> {
        try read { db in try SealedBeforeRestore.among(db, changes) }
    }

    /// Forgets the revisions of those of `records` (deleted by the server or by this device)
    /// that are deleted here: gone, with nothing waiting to go up and nothing staged. A
    /// record this device brought back (its edit outranked the deletion) keeps its own.
    package func forgetRevisions(ofDeleted records: [RecordRevision.Key]) throws(NoteTakerError) {
        guard !records.isEmpty else { return }
        try write { db in try SyncRevisions.forgetDeleted(db, records) }
    }

}
