import Foundation
import NoteTakerSyncProtocol

/// The rule every storage applies to one change of a batch: apply it only when the client's
/// base change tag is the record's current one. A pure function, so that every storage
/// (SQLite, PostgreSQL) decides the same way.
enum RecordVersioning {
    /// What to do with a change.
    enum Decision: Equatable {
        /// Store the change as the record's next version.
        case apply
        /// Nothing to store: the record is already deleted and the change deletes it.
        case alreadyApplied(changeTag: String)
        /// The client's base is stale: answer with the server's copy.
        case conflict(SyncRecord)
    }

    /// Decides a change against the record the server holds now (`nil` if none), whose last
    /// edit, a change not ``RecordChange/derived``, was change `editSequence` (0: none, the
    /// software alone saved it); `editedBySender`: the device sending the change made that edit.
    ///
    /// A deletion whose base is stale still applies when nothing since its base was an edit:
    /// what the software changed on its own (a subfolder moved up because another device
    /// deleted its folder) never outranks a person's deletion. Any edit since does. So a
    /// deletion against no version applies to a record no one ever edited (a tag a conversion
    /// sent again under its keyed id). The deletion of a device that made the record's last
    /// edit itself applies too, whatever its base:
    /// that device's edit was applied over every edit before it, so it has seen them all
    /// (its base is stale, or missing, when the answer to its edit was lost).
    ///
    /// A record the server no longer holds is made by a save, but for a derived save based on
    /// a version of it (``RecordChange/baseLive``) from before `purgedThrough` (the newest
    /// tombstone the account's purges removed): that record was deleted and its tombstone
    /// purged, and what the software changed on its own (a rotation's re-seal, a folder moved
    /// up) yields to the deletion here as it would to the tombstone. It is answered with a
    /// deletion. (A tag made again over its deletion is based on the deletion: it is applied.)
    /// So is any save of a batch the server applied once (`appliedBefore`, its answer
    /// forgotten since) of a record it no longer holds, once it has purged tombstones: that
    /// batch made the record or found it, and a deletion came after; made again, the record
    /// would come back over it.
    ///
    /// A derived save against no version (a tag made by tagging a note) meets a deletion the
    /// sending device had fetched past (`senderFetched`, its change token's position) without
    /// learning of it: the tombstone was purged then, and a server restored from a copy taken
    /// before the purge holds it again. The device made the record after that deletion, as it
    /// would have without the restore (the server then held nothing of it): it is applied
    /// (restoring seed 4138: a tag deleted long before, made again, went with the old tombstone).
    ///
    /// A save a device sends again, unchanged, to heal a restored server
    /// (``RecordChange/sentAgainFrom``) of a record the server holds nothing of, whose
    /// deletion it purged (`purged`, the tombstone as it was) after the version the device
    /// held, is answered with that deletion: the device never learned of it (restoring seed
    /// 4,466: a folder deleted and purged came back from a device whose listing the restore
    /// cut short). So is a person's edit of a version from before that deletion: the edit
    /// outranks the deletion and goes up again against it, but the device learns the deletion
    /// first, in an end-to-end encrypted account its revision, and seals above it (converting
    /// seed 3,014,332: a note brought back by a device away through the purge was sealed
    /// below a revision other devices had seen, and held there as a replay).
    static func decide(
        _ change: RecordChange, current: SyncRecord?, editSequence: Int64? = nil, editedBySender: Bool = false, purgedThrough: Int64 = 0,
        appliedBefore: Bool = false, senderFetched: Int64 = 0, purged: SyncRecord? = nil
    ) -> Decision {
        guard let current else {
            if change.operation == .save, let purged, let deletion = Int64(purged.changeTag) {
                if let held = change.sentAgainFrom.flatMap({ Int64($0) }), held < deletion { return .conflict(purged) }
                if change.derived != true, let base = change.baseChangeTag.flatMap({ Int64($0) }), base < deletion { return .conflict(purged) }
            }
            if appliedBefore, change.operation == .save, purgedThrough > 0 {
                return .conflict(purgedDeletion(recordType: change.recordType, recordId: change.recordId, purgedThrough: purgedThrough))
            }
            guard change.derived == true, change.baseLive == true, change.operation == .save,
                  let base = change.baseChangeTag.flatMap({ Int64($0) }), base < purgedThrough
            else { return .apply }
            return .conflict(purgedDeletion(recordType: change.recordType, recordId: change.recordId, purgedThrough: purgedThrough))
        }
        if change.operation == .delete, current.deleted {
            return .alreadyApplied(changeTag: current.changeTag)
        }
        if change.baseChangeTag == current.changeTag { return .apply }
        if change.operation == .save, change.derived == true, change.baseChangeTag == nil, current.deleted,
           let deletion = Int64(current.changeTag), deletion <= senderFetched {
            return .apply
        }
        if change.operation == .delete {
            // No edit at all (only the software saved it), or none the sender had not seen.
            if editedBySender || editSequence == 0 { return .apply }
            if let base = change.baseChangeTag.flatMap({ Int64($0) }), let edited = editSequence ?? Int64(current.changeTag), edited <= base {
                return .apply
            }
        }
        return .conflict(current)
    }

    /// The deletion of a record the server no longer holds, as it answers a change of it that
    /// yields to that deletion: a tombstone at `purgedThrough`, the newest one purged, which
    /// is as late as the record's own could have been.
    static func purgedDeletion(recordType: String, recordId: UUID, purgedThrough: Int64) -> SyncRecord {
        SyncRecord(recordType: recordType, recordId: recordId, changeTag: String(purgedThrough), deleted: true, fields: [:])
    }

    /// The last edit of a record after `change`, sent by `device`, is stored as change
    /// `sequence`: this change and its device, unless it is derived from another (then the
    /// record's last edit stays `previous`'s, or is none, 0, for a record the software made
    /// on its own: a tag a conversion to encryption sent again under its keyed id).
    static func lastEdit(
        after change: RecordChange, sequence: Int64, device: String?, previous: BatchPlan.StoredRecord?
    ) -> (sequence: Int64, author: String?) {
        guard change.derived == true, change.operation == .save else { return (sequence, device) }
        guard let previous else { return (0, nil) }
        return (previous.editSequence, previous.editAuthor)
    }

    /// What a tombstone keeps of a deletion a device sent again to heal a restored server: the
    /// change the deletion had in the history the restore lost, which a save sent again from a
    /// version of that history compares with (``SyncRecord/sentAgainFrom``). `nil` for any
    /// other change, and for a number that is not a change's.
    static func deletionSentAgainFrom(_ change: RecordChange) -> Int64? {
        guard change.operation == .delete, let held = change.sentAgainFrom.flatMap({ Int64($0) }), held > 0 else { return nil }
        return held
    }

    /// Checks what the server can check of a change before applying anything; with
    /// `sealedOnly` (an end-to-end encrypted account), that a change with fields is sealed.
    static func validate(_ change: RecordChange, sealedOnly: Bool) throws(SyncServerError) {
        guard SyncRecordType(rawValue: change.recordType) != nil else {
            let known = SyncRecordType.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("Unknown record type '\(change.recordType)'; the server accepts \(known).")
        }
        if change.operation == .save, change.fields == nil {
            throw .badRequest("The save of record \(change.recordId.key) has no fields.")
        }
        // An end-to-end encrypted account keeps no plaintext: a save from a device that does
        // not seal (an older one, or one that missed the encryption) is refused, not kept.
        if sealedOnly, let fields = change.fields, !fields.isEmpty, !fields.isSealed {
            throw .badRequest("This account is end-to-end encrypted and keeps only sealed records; record \(change.recordId.key) was sent unencrypted. Nothing in the batch was saved: log in again on this device.")
        }
    }

    /// The JSON of a record's fields as stored, with its size checked: `written`, the text
    /// the request carried them in, when there is one; else written here.
    static func storedFields(_ change: RecordChange, written: String?) throws -> String {
        let text = written ?? (change.fields ?? [:]).wireJSON
        let size = text.utf8.count
        if size > SyncLimits.maxRecordBytes {
            throw SyncServerError(.tooLarge, "Record \(change.recordId.key) is \(size) bytes; the limit is \(SyncLimits.maxRecordBytes) bytes. Nothing in the batch was saved.")
        }
        return text
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, so equal values encode to equal bytes.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
