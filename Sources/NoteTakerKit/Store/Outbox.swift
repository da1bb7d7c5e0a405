import Foundation
import GRDB

/// The kinds of record that sync.
public enum RecordType: String, Sendable, Codable, CaseIterable {
    /// A ``Note``.
    case note
    /// A ``Folder``.
    case folder
    /// A ``Tag``.
    case tag
    /// An ``Attachment``'s metadata.
    case attachment

    /// The table that holds records of this type.
    var table: String { rawValue }

    /// Every type, those that others refer to first: the order of applying fetched records,
    /// and of queueing a whole store to go up (so that other devices receive folders and tags
    /// before the notes in them).
    static let parentsFirst = allCases.sorted { $0.applyOrder < $1.applyOrder }

    /// The order in which fetched records are applied: what others refer to comes first.
    var applyOrder: Int {
        switch self {
        case .folder: 0
        case .tag: 1
        case .note: 2
        case .attachment: 3
        }
    }
}

/// A local change waiting in the outbox to go up to the sync server.
public struct PendingChange: Sendable, Hashable {
    /// Whether the record was saved or deleted.
    public enum Operation: String, Sendable, Codable {
        /// The record was created or changed: send its current state.
        case save
        /// The record was deleted: send a tombstone.
        case delete
    }

    /// Grows with every change; a change made during a push has a higher one.
    public var sequence: Int64
    /// What kind of record changed.
    public var recordType: RecordType
    /// The record's id.
    public var recordId: UUID
    /// Save or delete.
    public var operation: Operation
    /// When the change was made.
    public var queuedAt: Date
}

/// Appends local changes to the outbox, always inside the transaction that makes them.
///
/// A change is *derived* when this device made it only because a deletion arrived from
/// elsewhere (a note losing a deleted tag, a subfolder moving up): it goes up like any
/// other, but it does not win over a concurrent deletion of the record itself, as an edit
/// does. A later edit of the record makes its entry an edit.
enum Outbox {
    /// A change the server refused this many times is marked `error` and left until retried by hand.
    static let maximumAttempts = 3

    /// Records that a row was saved (and marks it `pending`), or deleted.
    static func record(_ db: Database, _ type: RecordType, _ id: String, _ operation: PendingChange.Operation = .save,
                       derived: Bool = false) throws {
        try append(db, type, id, operation, derived: derived)
        if operation == .save {
            try db.cachedStatement(sql: "UPDATE \(type.table) SET syncStatus = 'pending' WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Appends the change to the outbox only: for a row just inserted, which starts `pending`.
    static func append(_ db: Database, _ type: RecordType, _ id: String, _ operation: PendingChange.Operation = .save,
                       derived: Bool = false) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO outbox (recordType, recordId, operation, queuedAt, derived)
            VALUES (?1, ?2, ?3, ?4, ?5 AND IFNULL((SELECT derived FROM outbox WHERE recordType = ?1 AND recordId = ?2), 1))
            """).execute(arguments: [type.rawValue, id, operation.rawValue, Date().storageValue, derived])
    }

    /// How many changes may be sent: those not failed too often.
    static func pushableCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE attempts < ?", arguments: [maximumAttempts]) ?? 0
    }

    /// Records a save of every row of `type` whose id the SQL `selection` returns.
    static func recordSaves(_ db: Database, _ type: RecordType, selection: String, arguments: StatementArguments = []) throws {
        let ids = try String.fetchAll(db, sql: selection, arguments: arguments)
        for id in ids {
            try record(db, type, id)
        }
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
