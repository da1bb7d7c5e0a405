import Crypto
import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The saves of the batches a device forgot when it adopted its account's keyed ids at a
/// conversion to end-to-end encryption (``PushBatch/forgetKeepingCreations(_:)``), whose
/// answers never came: the server may have applied them, in plain text, before it took the
/// keys. Sent again sealed, such a save is refused with that plain-text version, which this
/// device would otherwise hold as a version the server could have written. One that is
/// exactly the fields this device sent is its own: it is taken, and the record goes up again
/// sealed against it (docs/encryption.md §2.4).
///
/// An edit among them (a save against a version) may have been applied, and the record sealed
/// again since by another device: its fields as sent are kept too, until the record next
/// merges with the server's version or syncs. That merge moves the record's base on to them
/// where the server holds what they hold, as for a batch sent again whose answer was lost
/// (``RecordMerge/base(_:afterSending:server:)``): a later edit here undoing the forgotten
/// one then reads as a change, and wins (converting seed 486).
///
/// Kept in `sync_state` as JSON objects by each save's record kind and id: the SHA-256
/// (base64) of its fields' canonical text as sent, until the conversion's last step is done;
/// an edit's text as sent.
enum ForgottenSaves {
    /// Remembers the saves of `batches`, in plain text, of records that are not tags (a tag's
    /// old id is deleted at the conversion's last step).
    static func keep(_ db: Database, _ batches: [PushBatch]) throws {
        var kept = try load(db, .forgottenSaves)
        var edits = try load(db, .forgottenEdits)
        for change in batches.flatMap(\.request.changes) where change.operation == .save {
            guard let fields = change.fields, !fields.isSealed, change.recordType != RecordType.tag.rawValue else { continue }
            let text = fields.wireJSON
            kept[key(change.recordType, change.recordId.key)] = digest(text)
            // Batches come oldest first: a later edit of the record holds its fields whole.
            if change.baseChangeTag != nil { edits[key(change.recordType, change.recordId.key)] = text }
        }
        try store(db, .forgottenSaves, kept)
        try store(db, .forgottenEdits, edits)
    }

    /// Whether edits forgotten wait for their records' next merge (``takeEdit(_:_:_:)``).
    static func holdsEdits(_ db: Database) throws -> Bool {
        try SyncState.get(db, .forgottenEdits) != nil
    }

    /// The fields this device sent in a forgotten edit of the record, as it names them now
    /// (the tags it names under their old ids renamed), and forgets them.
    static func takeEdit(_ db: Database, _ type: RecordType, _ id: String) throws -> RecordFields? {
        var edits = try load(db, .forgottenEdits)
        guard let text = edits.removeValue(forKey: key(type.rawValue, id)) else { return nil }
        try store(db, .forgottenEdits, edits)
        return try? RecordFields(wireJSON: Array(DerivedIdentity.renamingTags(text, DerivedIdentity.oldTagIDs(db)).utf8))
    }

    /// Those of `records` in plain text that are saves this device sent and forgot, exactly
    /// as it sent them, each with its fields as this device names them now (the tags it names
    /// under their old ids renamed).
    static func own(_ db: Database, among records: [SyncRecord]) throws -> [UUID: RecordFields] {
        let kept = try load(db, .forgottenSaves)
        guard !kept.isEmpty else { return [:] }
        let renamed = try DerivedIdentity.oldTagIDs(db)
        var own: [UUID: RecordFields] = [:]
        for record in records where !record.deleted && !record.fields.isSealed {
            let text = record.fields.wireJSON
            guard kept[key(record.recordType, record.recordId.key)] == digest(text),
                  let fields = try? RecordFields(wireJSON: Array(DerivedIdentity.renamingTags(text, renamed).utf8)) else { continue }
            own[record.recordId] = fields
        }
        return own
    }

    /// Forgets the saves' digests: the server holds nothing in plain text any more.
    static func forget(_ db: Database) throws {
        try SyncState.set(db, .forgottenSaves, nil)
    }

    /// Forgets the edits' fields: every record here goes up again against no base.
    static func forgetEdits(_ db: Database) throws {
        try SyncState.set(db, .forgottenEdits, nil)
    }

    private static func load(_ db: Database, _ state: SyncState.Key) throws -> [String: String] {
        guard let text = try SyncState.get(db, state) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }

    private static func store(_ db: Database, _ state: SyncState.Key, _ entries: [String: String]) throws {
        try SyncState.set(db, state, entries.isEmpty ? nil : String(decoding: try JSONEncoder().encode(entries), as: UTF8.self))
    }

    private static func key(_ recordType: String, _ id: String) -> String { "\(recordType)/\(id)" }

    private static func digest(_ text: String) -> String { Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() }
}
