import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// End-to-end encryption at the engine's edge (docs/encryption.md §3): with
/// ``SyncEngine/Options/sealing`` set, the store's records are sealed on their way to the
/// server and opened on their way back, so the store merges, keeps bases and history exactly
/// as it does without encryption, and the server holds only envelopes.
///
/// A save or a deletion is sealed one revision above the highest this device has seen of the
/// record; a saved record from the server that does not open, is older than one seen, or is
/// not sealed at all is held in quarantine with why, and never applied.
///
/// A deletion is applied as it comes (the server can delete). Its sealed revision counts as
/// seen, so that a device whose edit outranks the deletion brings the record back sealed above
/// every version before. Once a record is gone here (at the end of the push or pull that
/// deleted it), its revision is forgotten: a device that never saw the record may make it
/// again under the same id (a tag of the same name) from revision 1.
extension SyncEngine {
    /// The request to send for `batch`, and its fields as JSON: as they are, or each save
    /// sealed. Sealed again at every sending (a batch kept in flight is kept as the store
    /// wrote it), at the same revisions while it waits for its answer.
    func outgoing(_ batch: PushBatch) throws(SyncError) -> (request: ModifyRequest, fieldsJSON: [String?]) {
        guard let sealing = options.sealing else { return (batch.request, batch.fieldsJSON) }
        var request = batch.request
        let seen = try local { store in try store.seenRevisions(request.changes.map(\.revisionKey)) }
        var texts: [String?] = []
        var revisions: [RecordRevision] = []
        for (index, change) in request.changes.enumerated() {
            let revision = (seen[change.revisionKey] ?? 0) + 1
            let written = batch.fieldsJSON.indices.contains(index) ? batch.fieldsJSON[index] : nil
            let plaintext = change.operation == .delete ? "{}" : written ?? (change.fields ?? [:]).wireJSON
            let envelope: RecordFields
            do {
                envelope = try sealing.seal(fieldsJSON: plaintext, recordType: change.recordType,
                                            recordId: change.recordId, revision: revision)
            } catch {
                throw .store(.database("A \(change.recordType) could not be encrypted (\(error)); nothing was sent."))
            }
            request.changes[index].fields = envelope
            texts.append(envelope.wireJSON)
            revisions.append(RecordRevision(change.revisionKey, revision: revision))
        }
        sealedRevisions[request.requestId] = revisions
        return (request, texts)
    }

    /// The server's answer to `batch`, opened: the revisions it saved are noted as seen, and
    /// the current version a conflict answers with is opened to be merged. One that does not
    /// open is held, and its change counts a failed attempt instead of merging with it.
    func opened(_ response: ModifyResponse, for batch: PushBatch) throws(SyncError) -> ModifyResponse {
        guard let sealing = options.sealing else { return response }
        let sent = sealedRevisions.removeValue(forKey: batch.request.requestId) ?? []
        let saved = Set(response.results.filter { $0.outcome == .saved }.map(\.recordId))
        var revisions = sent.filter { saved.contains($0.key.recordId) }
        deletedRecords.formUnion(batch.request.changes.filter { $0.operation == .delete && saved.contains($0.recordId) }.map(\.revisionKey))
        var response = response
        let current = response.results.compactMap(\.serverRecord)
        let seen = try local { try $0.seenRevisions(current.map(\.revisionKey)) }
        var held: [(record: SyncRecord, reason: String)] = []
        for index in response.results.indices {
            guard let record = response.results[index].serverRecord else { continue }
            guard !record.deleted else {
                revisions += Self.revision(ofDeletion: record, sealing)
                response.results[index].serverRecord?.fields = [:]
                continue
            }
            switch sealing.open(record.fields, recordType: record.recordType, recordId: record.recordId, seen: seen[record.revisionKey]) {
            case .success(let (fields, revision)):
                response.results[index].serverRecord?.fields = fields
                revisions.append(RecordRevision(record.revisionKey, revision: revision))
            case .failure(let refusal):
                held.append((record, refusal.reason))
                response.results[index].outcome = .error
                response.results[index].serverRecord = nil
                response.results[index].message = "The server's version could not be merged with this one. \(refusal.reason)"
            }
        }
        try note(revisions, holding: held)
        return response
    }

    /// A page of changes, opened: what does not open is held, and left out (counted as an
    /// error in `report`).
    func opened(_ page: ChangesResponse, into report: inout SyncReport) throws(SyncError) -> ChangesResponse {
        guard let sealing = options.sealing else { return page }
        let seen = try local { try $0.seenRevisions(page.records.filter { !$0.deleted }.map(\.revisionKey)) }
        var opened = page
        opened.records = []
        var revisions: [RecordRevision] = []
        var held: [(record: SyncRecord, reason: String)] = []
        for var record in page.records {
            guard !record.deleted else {
                revisions += Self.revision(ofDeletion: record, sealing)
                deletedRecords.insert(record.revisionKey)
                record.fields = [:]
                opened.records.append(record)
                continue
            }
            switch sealing.open(record.fields, recordType: record.recordType, recordId: record.recordId, seen: seen[record.revisionKey]) {
            case .success(let (fields, revision)):
                revisions.append(RecordRevision(record.revisionKey, revision: revision))
                record.fields = fields
                opened.records.append(record)
            case .failure(let refusal):
                held.append((record, refusal.reason))
            }
        }
        try note(revisions, holding: held)
        report.errors += held.count
        return opened
    }

    /// The sealed revision of a deletion, when it has one that opens; none otherwise (a
    /// deletion is applied all the same).
    private static func revision(ofDeletion record: SyncRecord, _ sealing: RecordSealing) -> [RecordRevision] {
        guard record.fields.isSealed,
              case .success(let (_, revision)) = sealing.open(record.fields, recordType: record.recordType, recordId: record.recordId, seen: nil)
        else { return [] }
        return [RecordRevision(record.revisionKey, revision: revision)]
    }

    private func note(_ revisions: [RecordRevision], holding held: [(record: SyncRecord, reason: String)]) throws(SyncError) {
        try local { store in
            try store.hold(held)
            try store.noteRevisions(revisions)
        }
    }

    /// Forgets the revisions of the records deleted since the last call that are gone here.
    func forgetDeletedRevisions() throws(SyncError) {
        guard !deletedRecords.isEmpty else { return }
        let records = Array(deletedRecords)
        deletedRecords = []
        try local { try $0.forgetRevisions(ofDeleted: records) }
    }
}

extension RecordChange {
    var revisionKey: RecordRevision.Key { RecordRevision.Key(recordType: recordType, recordId: recordId) }
}

extension SyncRecord {
    var revisionKey: RecordRevision.Key { RecordRevision.Key(recordType: recordType, recordId: recordId) }
}
