import Foundation
import NoteTakerSyncProtocol

/// What applying one batch changes, decided from the records it touches before anything is
/// written: the same decisions for every storage (SQLite, PostgreSQL), which then only carry
/// the ``Step``s out in order inside one transaction.
struct BatchPlan {
    /// A record as a storage holds it, with the bytes its fields take and the sequence and
    /// device of its last edit (see ``RecordVersioning/decide(_:current:editSequence:editedBySender:purgedThrough:appliedBefore:senderFetched:purged:)``).
    struct StoredRecord {
        var record: SyncRecord
        var size: Int64
        var editSequence: Int64
        /// The device that made the last edit (`nil`: not known).
        var editAuthor: String?
    }

    /// Identifies a record within an account.
    struct RecordKey: Hashable {
        var recordId: String
        var recordType: String
    }

    /// A record's next version, to be stored in place of the current one.
    struct Write {
        var key: RecordKey
        var sequence: Int64
        var deleted: Bool
        var fields: String
        var size: Int64
        /// The change that last edited the record: `sequence`, unless this change is derived.
        var editSequence: Int64
        /// The device that made that edit (`nil`: not known).
        var editAuthor: String?
        /// A deletion sent again to heal a restored server: the change it had in the history
        /// the restore lost (``SyncRecord/sentAgainFrom``).
        var sentAgainFrom: Int64?
    }

    /// One thing to do to the storage, in order.
    enum Step {
        /// Store a record's next version.
        case write(Write)
        /// Keep the note text a write replaces, as the version of change `sequence`.
        case keepVersion(recordId: String, sequence: Int64, fields: String)
        /// The note is deleted: drop every version kept of it.
        case dropVersions(recordId: String)
    }

    /// The answer for each change, in the batch's order.
    private(set) var results: [RecordResult] = []
    /// What to store, in order.
    private(set) var steps: [Step] = []
    /// The account's newest sequence after the batch.
    private(set) var sequence: Int64
    /// How many bytes the account's records grow by (negative when they shrink).
    private(set) var addedBytes: Int64 = 0

    /// Decides every change of `request` against the records the account holds now
    /// (`current`, the batch's records fetched beforehand), its newest sequence and the
    /// newest tombstone its purges removed (`purgedThrough`).
    /// `fieldsJSON`, when it has an entry for each change, holds their fields as the request
    /// wrote them, stored as they are instead of written again.
    /// With `appliedBefore`, the server applied this batch once and has forgotten its answer
    /// (see ``markerRetention``). `serverId` reads how far the sender had fetched from its
    /// change token. `purged` holds the tombstone a purge removed, as the storage keeps it, of
    /// each record the batch saves that it does not hold and may have deleted
    /// (``ModifyRequest/keysMaybePurged(notIn:)``).
    init(
        _ request: ModifyRequest, fieldsJSON: [String?], sequence: Int64, purgedThrough: Int64, appliedBefore: Bool = false,
        serverId: String = "", current: [RecordKey: StoredRecord], purged: [RecordKey: SyncRecord] = [:]
    ) throws {
        self.sequence = sequence
        var current = current
        let sender = request.deviceId?.key
        let fetched = request.changeToken.flatMap { HistoryMark.parse($0, serverId: serverId)?.sequence } ?? 0
        for (change, text) in zip(request.changes, request.fieldsTexts(fieldsJSON)) {
            let key = RecordKey(recordId: change.recordId.key, recordType: change.recordType)
            let held = current[key]
            let editedBySender = sender != nil && held?.editAuthor == sender
            switch RecordVersioning.decide(
                change, current: held?.record, editSequence: held?.editSequence, editedBySender: editedBySender, purgedThrough: purgedThrough,
                appliedBefore: appliedBefore, senderFetched: fetched, purged: purged[key]) {
            case .conflict(let serverRecord):
                results.append(RecordResult(
                    recordId: change.recordId, recordType: change.recordType, outcome: .serverRecordChanged, serverRecord: serverRecord))
            case .alreadyApplied(let tag):
                results.append(RecordResult(recordId: change.recordId, recordType: change.recordType, outcome: .saved, changeTag: tag))
            case .apply:
                if change.recordType == SyncRecordType.note.rawValue, let held {
                    steps += Self.versionSteps(key: key, held: held, replacedBy: change)
                }
                self.sequence += 1
                // A deletion keeps fields only when a device sends them: an encrypted account's
                // sealed revision (docs/encryption.md §3.3).
                let fields = change.operation == .save || change.fields != nil ? try RecordVersioning.storedFields(change, written: text) : "{}"
                let edit = RecordVersioning.lastEdit(after: change, sequence: self.sequence, device: sender, previous: held)
                let write = Write(
                    key: key, sequence: self.sequence, deleted: change.operation == .delete, fields: fields,
                    size: Self.storedSize(fields), editSequence: edit.sequence, editAuthor: edit.author,
                    sentAgainFrom: RecordVersioning.deletionSentAgainFrom(change))
                addedBytes += write.size - (held?.size ?? 0)
                steps.append(.write(write))
                current[key] = StoredRecord(
                    record: SyncRecord(
                        recordType: change.recordType, recordId: change.recordId, changeTag: String(self.sequence),
                        deleted: write.deleted, fields: change.fields ?? [:], sentAgainFrom: write.sentAgainFrom.map(String.init)),
                    size: write.size, editSequence: write.editSequence, editAuthor: write.editAuthor)
                results.append(RecordResult(
                    recordId: change.recordId, recordType: change.recordType, outcome: .saved, changeTag: String(self.sequence)))
            }
        }
    }

    /// A deletion drops the note's versions; a change of its title or body keeps the text it
    /// replaces (title, body, date and device). A sealed note's every save keeps the envelope
    /// it replaces whole: the server cannot tell what changed, and the devices open it. But a
    /// derived save, which never changes a note's text (a move out of a deleted folder, the
    /// re-seal after a key rotation), keeps nothing: the note's new version holds that text.
    private static func versionSteps(key: RecordKey, held: StoredRecord, replacedBy change: RecordChange) -> [Step] {
        if change.operation == .delete { return [.dropVersions(recordId: key.recordId)] }
        if change.derived == true { return [] }
        let old = held.record.fields
        typealias Field = NoteRecord.Field
        let (title, body, modifiedAt, editedOn) = (Field.title.rawValue, Field.body.rawValue, Field.modifiedAt.rawValue, Field.editedOn.rawValue)
        guard !held.record.deleted, let sequence = Int64(held.record.changeTag),
              old.isSealed || old[title] != change.fields?[title] || old[body] != change.fields?[body] else { return [] }
        let kept: RecordFields = old.isSealed ? old : [title: old[title] ?? .string(""), body: old[body] ?? .string(""),
                                                      modifiedAt: old[modifiedAt] ?? .null, editedOn: old[editedOn] ?? .null]
        guard let data = try? JSONEncoder.sorted.encode(kept) else { return [] }
        return [.keepVersion(recordId: key.recordId, sequence: sequence, fields: String(decoding: data, as: UTF8.self))]
    }

    /// The answer to the batch.
    var response: ModifyResponse { ModifyResponse(results: results) }

    /// The answer as kept for a repeated batch: without the server's copies of conflicting
    /// records (a replay reads them afresh), so each stays small, a couple of hundred bytes a change.
    func keptAnswer() -> Data {
        Data(ModifyResponse(results: results.map { result in
            var result = result
            result.serverRecord = nil
            return result
        }).wireJSON)
    }

    /// Refuses the batch when the account's records would grow past its quota. `used` is the
    /// account's usage with the batch's kept versions already counted (`versionBytes` of them).
    func checkQuota(used: Int64, versionBytes: Int64, quota: Int64) throws {
        if addedBytes + versionBytes > 0, used + addedBytes > quota {
            throw SyncServerError.quotaExceeded(used: used - versionBytes, quota: quota)
        }
    }

    /// What a record's row costs the storage besides its fields: its id, type, sequence and
    /// author, and their index entries. A record counts in its account's usage at its fields'
    /// bytes plus this, so that a deletion of a record the server never held, or a save of
    /// `{}`, is not nearly free: a million of them count 200 MB, not 2 MB.
    static let recordOverheadBytes: Int64 = 200

    /// The bytes a record with these stored fields counts in its account's usage.
    static func storedSize(_ fields: String) -> Int64 {
        Int64(fields.utf8.count) + recordOverheadBytes
    }

    /// How long answers to batches are kept for repeated requests: 30 days.
    static let answerRetention: TimeInterval = 30 * 24 * 3600
    /// The most answers kept per account for repeated batches.
    static let storedAnswers = 1_000
    /// How long the server remembers that it applied a batch whose answer it no longer keeps
    /// (past ``answerRetention``, or pushed out by ``storedAnswers`` newer ones): a year. Sent
    /// again meanwhile, the batch is decided anew knowing it was applied once, so that a save
    /// of a record deleted and purged since does not make it again (``RecordVersioning``).
    static let markerRetention: TimeInterval = 365 * 24 * 3600
}

extension ModifyRequest {
    /// The records the batch changes, which ``BatchPlan`` decides against.
    var keys: Set<BatchPlan.RecordKey> {
        Set(changes.map { BatchPlan.RecordKey(recordId: $0.recordId.key, recordType: $0.recordType) })
    }

    /// The records the batch saves that the account does not hold (`current`) and that it may
    /// have deleted and purged since the sender's version: one saved again to heal a restored
    /// server (``RecordChange/sentAgainFrom``), or a person's edit of a version it held. Their
    /// purged deletions are looked up; a first sync's saves, against no version, are none.
    func keysMaybePurged(notIn current: [BatchPlan.RecordKey: BatchPlan.StoredRecord]) -> [BatchPlan.RecordKey] {
        changes.filter { $0.operation == .save && ($0.sentAgainFrom != nil || ($0.derived != true && $0.baseChangeTag != nil)) }
            .map { BatchPlan.RecordKey(recordId: $0.recordId.key, recordType: $0.recordType) }
            .filter { current[$0] == nil }
    }
}

/// The versions a storage keeps of one note after adding one: which to drop, by sequence.
enum VersionKeeping {
    /// The sequences of the versions to drop, given every version of the note (sequence,
    /// time replaced), by the rule devices use too.
    static func dropped(_ versions: [(sequence: Int64, replacedAt: Double)], now: Date) -> Set<Int64> {
        let kept = VersionThinning.kept(
            versions.sorted { $0.sequence > $1.sequence }, replacedAt: { Date(timeIntervalSince1970: $0.replacedAt) }, now: now,
            everyVersionDays: ServerVersionRetention.everyVersionDays, dailyDays: ServerVersionRetention.dailyDays,
            weeklyDays: ServerVersionRetention.weeklyDays)
        return Set(versions.map(\.sequence)).subtracting(kept.map(\.sequence))
    }
}
