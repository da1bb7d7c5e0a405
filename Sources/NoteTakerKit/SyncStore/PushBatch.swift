import Foundation
import GRDB
import NoteTakerSyncProtocol

/// A batch of outbox changes on its way to the server, kept in the store until its answer
/// is processed: after a lost answer the same request (same id, same changes) is sent
/// again, so the server answers it again instead of applying it twice.
package struct PushBatch: Codable, Sendable {
    /// The request as sent.
    package var request: ModifyRequest
    /// The outbox sequence of each change when it was read: a higher one now means the
    /// record changed again while the batch was in flight.
    package var sequences: [Int64]
    /// Content hashes of attachments in the batch, uploaded before it is sent.
    package var assetHashes: [String]
    /// Each change's fields as JSON, written once when the batch is read: kept in flight with
    /// it, and as the base of its records once the server saved them. Empty for a batch
    /// loaded again after a restart (its fields are then written again).
    package var fieldsJSON: [String?] = []
    /// Where the batch is kept while in flight (see `PushBatch+InFlight.swift`).
    var slot = SyncState.Key.inflight
    /// Whether the batch was sent in an earlier cycle that never had its answer: it may have
    /// been applied then (see ``SyncApply/applyResult(_:_:sentSequence:result:fieldsJSON:sentBefore:)``).
    var sentBefore = false

    private enum CodingKeys: String, CodingKey {
        case request, sequences, assetHashes
    }

    package init(request: ModifyRequest, sequences: [Int64], assetHashes: [String], fieldsJSON: [String?] = []) {
        self.request = request
        self.sequences = sequences
        self.assetHashes = assetHashes
        self.fieldsJSON = fieldsJSON
    }

    /// Reads up to `limit` outbox entries after `cursor` that have not failed too often, and
    /// no more than fit in one request (``SyncLimits/maxRequestBytes``: sixty long notes
    /// can be more than a server takes at once). Records too large to send count a failed
    /// attempt here; `refused` counts them. The request is sent as `requestId`.
    static func read(_ db: Database, after cursor: Int64, limit: Int, refused: inout Int, requestId: UUID) throws -> PushBatch? {
        let entries = try Outbox.entries(db, after: cursor, limit: limit)
        guard !entries.isEmpty else { return nil }
        var changes: [RecordChange] = []
        var sequences: [Int64] = []
        var hashes: [String] = []
        var texts: [String?] = []
        var bytes = 0
        let deviceName = try SyncDevice.name(db)
        // The notes, nearly every record of a push, are read in one statement.
        let notes = try SyncRecords.storedNotes(db, entries.compactMap { entry in
            entry.type == .note && entry.operation == .save ? entry.recordId : nil
        }, deviceName: deviceName)
        reading: for queued in entries {
            guard let type = queued.type, let id = UUID(key: queued.recordId) else { continue }
            let key = queued.recordId
            let seq = queued.seq
            let isDeletion = queued.operation == .delete
            let stored: (fields: RecordFields, changeTag: String?, text: String)? = if isDeletion {
                nil
            } else if type == .note {
                notes[key].map { ($0.record.fields, $0.changeTag, $0.record.wireJSON) }
            } else {
                try SyncRecords.stored(db, type, key, deviceName: deviceName, derivedSave: queued.derived).map { ($0.fields, $0.changeTag, $0.fields.wireJSON) }
            }
            let fields = stored?.fields
            let text = stored?.text
            let estimate = fields.map(Self.estimatedSize) ?? 0
            let entry = PushAdmission.Entry(
                isDeletion: isDeletion, rowExists: fields != nil, estimate: estimate,
                measured: text.flatMap { PushAdmission.needsMeasuring(estimate: estimate) ? $0.utf8.count : nil })
            switch PushAdmission.decide(entry, batchBytes: bytes, batchIsEmpty: changes.isEmpty) {
            case .batchFull:
                break reading
            case .gone:
                try Outbox.remove(db, sequence: seq)
            case .tooLarge(let size):
                try SyncApply.recordFailure(db, type, key, message: """
                    This \(type.rawValue) is \(size) bytes as a sync record; the server takes at most \(SyncLimits.maxRecordBytes). \
                    Shorten it or split it into several notes, then retry.
                    """)
                refused += 1
            case .add:
                if isDeletion {
                    let tag = try String.fetchOne(db.cachedStatement(sql: "SELECT changeTag FROM sync_deleted WHERE recordType = ? AND recordId = ?"),
                                                  arguments: [type.rawValue, key])
                    changes.append(RecordChange(recordType: type.rawValue, recordId: id, operation: .delete, baseChangeTag: tag, fields: nil,
                                                sentAgainFrom: queued.sentAgainFrom))
                    texts.append(nil)
                } else {
                    bytes += estimate
                    let base = stored?.changeTag
                    var baseLive = queued.derived && base != nil
                    // A tag made again over its deletion names it, and is based on it.
                    if baseLive, type == .tag, fields?[TagRecord.Field.replaces.rawValue] != nil { baseLive = false }
                    changes.append(RecordChange(recordType: type.rawValue, recordId: id, operation: .save, baseChangeTag: base,
                                                fields: fields, derived: queued.derived, baseLive: baseLive, sentAgainFrom: queued.sentAgainFrom))
                    texts.append(text)
                    if type == .attachment, let hash = AttachmentRecord.contentHash(in: fields) { hashes.append(hash) }
                }
                sequences.append(seq)
            }
        }
        guard !changes.isEmpty else {
            return try read(db, after: entries.last?.seq ?? cursor, limit: limit, refused: &refused, requestId: requestId)
        }
        // The tokens go with the batch: a server restored from an older copy refuses it.
        let request = ModifyRequest(requestId: requestId, changes: changes, deviceId: try SyncDevice.id(db),
                                    changeToken: try SyncState.get(db, .changeToken), authoredToken: try SyncState.get(db, .authoredToken))
        return PushBatch(request: request, sequences: sequences, assetHashes: hashes,
                         fieldsJSON: texts)
    }

    /// Whether `other` holds a change to a record this batch holds one to.
    package func sharesRecords(with other: PushBatch) -> Bool {
        let ids = Set(request.changes.map(\.recordId))
        return other.request.changes.contains { ids.contains($0.recordId) }
    }

    /// The fields of change `index` as JSON, as written when the batch was read; `nil` for a
    /// deletion, or a batch loaded again after a restart.
    func fieldsText(at index: Int) -> String? {
        fieldsJSON.indices.contains(index) ? fieldsJSON[index] : nil
    }

    /// A quick upper bound of a record's JSON size, so that only large records are encoded
    /// to be measured exactly (JSON escapes at most double a string's bytes).
    static func estimatedSize(_ fields: RecordFields) -> Int {
        func size(_ value: FieldValue) -> Int {
            switch value {
            case .string(let text): 2 * text.utf8.count + 2
            case .array(let values): values.reduce(2) { $0 + size($1) + 1 }
            default: 24
            }
        }
        return fields.reduce(2) { $0 + $1.key.utf8.count + 4 + size($1.value) }
    }
}
