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
/// Kept in `sync_state` as a JSON object: each save's record kind and id, and the SHA-256
/// (base64) of its fields' canonical text as sent; until the conversion's last step is done.
enum ForgottenSaves {
    /// Remembers the saves of `batches`, in plain text, of records that are not tags (a tag's
    /// old id is deleted at the conversion's last step).
    static func keep(_ db: Database, _ batches: [PushBatch]) throws {
        var kept = try load(db)
        for change in batches.flatMap(\.request.changes) where change.operation == .save {
            guard let fields = change.fields, !fields.isSealed, change.recordType != RecordType.tag.rawValue else { continue }
            kept[key(change.recordType, change.recordId)] = digest(fields.wireJSON)
        }
        try SyncState.set(db, .forgottenSaves, kept.isEmpty ? nil : String(decoding: try JSONEncoder().encode(kept), as: UTF8.self))
    }

    /// Those of `records` in plain text that are saves this device sent and forgot, exactly
    /// as it sent them, each with its fields as this device names them now (the tags it names
    /// under their old ids renamed).
    static func own(_ db: Database, among records: [SyncRecord]) throws -> [UUID: RecordFields] {
        let kept = try load(db)
        guard !kept.isEmpty else { return [:] }
        let renamed = try DerivedIdentity.oldTagIDs(db)
        var own: [UUID: RecordFields] = [:]
        for record in records where !record.deleted && !record.fields.isSealed {
            let text = record.fields.wireJSON
            guard kept[key(record.recordType, record.recordId)] == digest(text),
                  let fields = try? RecordFields(wireJSON: Array(DerivedIdentity.renamingTags(text, renamed).utf8)) else { continue }
            own[record.recordId] = fields
        }
        return own
    }

    /// Forgets them all: the server holds nothing in plain text any more.
    static func forget(_ db: Database) throws {
        try SyncState.set(db, .forgottenSaves, nil)
    }

    private static func load(_ db: Database) throws -> [String: String] {
        guard let text = try SyncState.get(db, .forgottenSaves) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }

    private static func key(_ recordType: String, _ id: UUID) -> String { "\(recordType)/\(id.key)" }

    private static func digest(_ text: String) -> String { Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() }
}
