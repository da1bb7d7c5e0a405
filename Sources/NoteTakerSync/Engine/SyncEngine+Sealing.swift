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
/// deleted it, or as the answer whose deletion a change yielded to is applied), its revision
/// is forgotten: a device that never saw the record may make it again under the same id (a
/// tag of the same name) from revision 1.
extension SyncEngine {
    /// The revision each change of `batch` is sealed at, remembered until its answer: one
    /// above the highest seen. The same while the batch waits for its answer (a batch kept
    /// in flight is kept as the store wrote it, and sealed again at every sending). A change
    /// sent against a version of the server's is of a record seen at revision 1 at least (the
    /// store keeps only revisions above 1: ``SyncStore/seenRevisions(_:)``).
    func revisions(toSeal batch: PushBatch) throws(SyncError) -> [Int] {
        let seen = try local { store in try store.seenRevisions(batch.request.changes.map(\.revisionKey)) }
        let revisions = batch.request.changes.map { (seen[$0.revisionKey] ?? ($0.baseChangeTag != nil ? 1 : 0)) + 1 }
        sealedRevisions[batch.request.requestId] = zip(batch.request.changes, revisions).map { RecordRevision($0.revisionKey, revision: $1) }
        return revisions
    }

    /// The request to send for `batch`, each change sealed at its revision (in a shared zone
    /// the batch signed once), and its fields as JSON. Pure: it runs off the engine, beside
    /// the network.
    static func sealed(_ batch: PushBatch, at revisions: [Int], with sealing: any RecordSealer) throws(SyncError) -> (ModifyRequest, [String?]) {
        var request = batch.request
        let salts = SealedRecord.randomSalts(request.changes.count)
        let changes = request.changes.enumerated().map { index, change in
            let written = batch.fieldsJSON.indices.contains(index) ? batch.fieldsJSON[index] : nil
            let plaintext = change.operation == .delete ? "{}" : written ?? (change.fields ?? [:]).wireJSON
            return RecordToSeal(fieldsJSON: plaintext, recordType: change.recordType, recordId: change.recordId, revision: revisions[index], salt: salts[index])
        }
        let envelopes: [(fields: RecordFields, json: String)]
        do {
            envelopes = try sealing.seal(batch: changes)
        } catch ZoneRecordSealing.WriteRefusal.mayNotWrite {
            // A member made a viewer (or removed) since the change was made here.
            throw .viewOnlyShare
        } catch {
            throw .store(.database("A batch of \(changes.count) records could not be encrypted (\(error)); nothing was sent."))
        }
        for (index, envelope) in envelopes.enumerated() { request.changes[index].fields = envelope.fields }
        return (request, envelopes.map(\.json))
    }

    /// The server's answer to `batch`, opened: the revisions it saved count as seen, and the
    /// current version a conflict answers with is opened to be merged. One that does not open
    /// is held, and its change counts a failed attempt instead of merging with it. What it
    /// found goes to the store with the answer (``SealedChanges``).
    func opened(_ response: ModifyResponse, for batch: PushBatch) throws(SyncError) -> (ModifyResponse, SealedChanges) {
        guard let sealing = options.sealing else { return (response, .none) }
        let sent = sealedRevisions.removeValue(forKey: batch.request.requestId) ?? []
        let saved = Set(response.results.filter { $0.outcome == .saved }.map(\.recordId))
        var revisions = sent.filter { saved.contains($0.key.recordId) }
        deletedRecords.formUnion(batch.request.changes.filter { $0.operation == .delete && saved.contains($0.recordId) }.map(\.revisionKey))
        var response = response
        let current = response.results.compactMap(\.serverRecord)
        let seen = try local { try $0.seenRevisions(current.map(\.revisionKey)) }
        let own = try ownPlaintextSaves(among: current)
        let converting = try local { try $0.resealingPass()?.converts ?? false }
        let replaceable = try replaceable(refusedWithPlaintext: response, of: batch, converting: converting)
        var held: [(record: SyncRecord, reason: String)] = []
        var resealing: [RecordRevision.Key] = []
        for index in response.results.indices {
            guard let record = response.results[index].serverRecord else { continue }
            let opened = sealing.unseal(record)
            if case .failure(.notSealed) = opened, let fields = own[record.recordId] ?? Self.replacing(
                record, refusing: batch.request.changes.first { $0.recordId == record.recordId },
                replaceable: replaceable.contains(record.recordId)) {
                // This device's own save as it sent it, or a version it replaces: taken as
                // this device's, and sent again sealed.
                response.results[index].serverRecord?.fields = fields
                resealing.append(record.revisionKey)
                continue
            }
            switch Self.checked(opened, record, seen: seen) {
            case .success(let (fields, revision)):
                response.results[index].serverRecord?.fields = Self.applied(fields, of: record, revision: revision)
                revisions += revision.map { [RecordRevision(record.revisionKey, revision: $0)] } ?? []
            case .failure(let refusal):
                held.append((record, refusal.reason))
                response.results[index].outcome = .error
                response.results[index].serverRecord = nil
                response.results[index].message = "The server's version could not be merged with this one. \(refusal.reason)"
            }
        }
        return (response, SealedChanges(revisions: revisions, held: held, resealing: resealing))
    }

    /// A page of changes as fetched, its sealed records opened off the engine (the revisions
    /// are checked on it, against what the store has seen).
    struct FetchedPage: Sendable {
        /// The page as the server sent it.
        var page: ChangesResponse
        /// Each record opened, in order, for an encrypted account.
        var unsealed: [Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal>]?
        /// The newest data key version it was opened with, and how many members records.
        var keyVersion = 0, members = 0

        /// The page opened with `sealing`'s keys.
        init(_ page: ChangesResponse, openedWith sealing: (any RecordSealer)?) {
            self.page = page
            unsealed = sealing.map { $0.unseal(page: page.records) }
            keyVersion = sealing?.newestKeyVersion ?? 0
            members = sealing?.membersHeld ?? 0
        }

        /// Whether a record of it is sealed with a key it was not opened with, or names a
        /// members epoch it was not opened with (in a shared zone).
        var needsKeys: Bool {
            unsealed?.contains {
                switch $0 {
                case .failure(.missingKey), .failure(.shared(.waitingForMembers)): true
                default: false
                }
            } ?? false
        }
    }

    /// Fetches a page and opens its records: off the engine, beside the store's work.
    static func fetch(_ query: ChangesQuery, from transport: any SyncTransport, sealing: (any RecordSealer)?) async throws(SyncError) -> FetchedPage {
        FetchedPage(try await transport.fetchChanges(query), openedWith: sealing)
    }

    /// `fetched`, opened again with keys this device learned since it was opened: when one of
    /// its records needs a key this device does not hold, the account's keys are learned anew
    /// (another device rotated them), once a cycle (``Options/keys``).
    func withLearnedKeys(_ fetched: FetchedPage) async -> FetchedPage {
        guard fetched.needsKeys else { return fetched }
        await learnKeys()
        guard let sealing = options.sealing, sealing.newestKeyVersion > fetched.keyVersion || sealing.membersHeld > fetched.members else {
            return fetched
        }
        return FetchedPage(fetched.page, openedWith: sealing)
    }

    /// Learns the account's keys anew when a record the server answered a push with (its
    /// current version, refusing a change) names a key version this device does not hold:
    /// opened with it, the record merges instead of being held.
    func learnKeys(answering response: Result<ModifyResponse, SyncError>) async {
        guard let newest = options.sealing?.newestKeyVersion, case .success(let answer) = response,
              answer.results.contains(where: { result in
                  if case .number(let version)? = result.serverRecord?.fields["$key"] { version > Double(newest) } else { false }
              })
        else { return }
        await learnKeys()
    }

    /// Asks for the account's keys anew, once a cycle (``Options/keys``), and seals and opens
    /// with them from then on when they are newer than those held.
    private func learnKeys() async {
        guard !learnedKeys, let keys = options.keys else { return }
        learnedKeys = true
        if let learned = await keys(true),
           learned.newestKeyVersion > options.sealing?.newestKeyVersion ?? 0 || learned.membersHeld > options.sealing?.membersHeld ?? 0 {
            options.sealing = learned
        }
    }

    /// A fetched page, opened: what does not open, or is older than a version seen, is held
    /// and left out (counted as an error in `report`). What it found goes to the store with
    /// the page (``SealedChanges``).
    func opened(_ fetched: FetchedPage, into report: inout SyncReport) throws(SyncError) -> (ChangesResponse, SealedChanges) {
        guard let unsealed = fetched.unsealed else { return (fetched.page, .none) }
        let page = fetched.page
        let seen = try local { try $0.seenRevisions(page.records.filter { !$0.deleted }.map(\.revisionKey)) }
        var opened = page
        opened.records = []
        var revisions: [RecordRevision] = []
        var held: [(record: SyncRecord, reason: String)] = []
        for (var record, result) in zip(page.records, unsealed) {
            if record.deleted { deletedRecords.insert(record.revisionKey) }
            switch Self.checked(result, record, seen: seen) {
            case .success(let (fields, revision)):
                revisions += revision.map { [RecordRevision(record.revisionKey, revision: $0)] } ?? []
                record.fields = Self.applied(fields, of: record, revision: revision)
                opened.records.append(record)
            case .failure(let refusal):
                held.append((record, refusal.reason))
            }
        }
        report.errors += held.count
        return (opened, SealedChanges(revisions: revisions, held: held))
    }

    /// The fields the store applies for `record`, opened as `fields` at `revision`: a deletion
    /// that opened keeps its envelope (the store reads no deletion's fields), so that the store
    /// can tell a deletion a device sealed from one made before the account's conversion to
    /// encryption (``RenamedTags``: a tag's old id is deleted in plain text only by a person).
    private static func applied(_ fields: RecordFields, of record: SyncRecord, revision: Int?) -> RecordFields {
        record.deleted && revision != nil ? record.fields : fields
    }

    /// A record opened, checked against the highest revision seen of it: a lower one is a replay.
    private static func checked(
        _ result: Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal>, _ record: SyncRecord, seen: [RecordRevision.Key: Int]
    ) -> Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal> {
        guard !record.deleted, case .success(let (_, revision?)) = result, let highest = seen[record.revisionKey], revision < highest else {
            return result
        }
        return .failure(.replayed(revision: revision, seen: highest))
    }

    /// Those of `records` in plain text that this device saved as they are, before it adopted
    /// the account's encryption, in a batch whose answer was lost, with their fields as this
    /// device names them now: the server holds them as this device sent them (it refused the
    /// save sent again, sealed), and they go up again sealed against them. (Fetched, one is
    /// held until then: its save still waits to go up.)
    private func ownPlaintextSaves(among records: [SyncRecord]) throws(SyncError) -> [UUID: RecordFields] {
        let plain = records.filter { !$0.deleted && !$0.fields.isSealed }
        return plain.isEmpty ? [:] : try local { try $0.ownPlaintextSaves(among: plain) }
    }

    /// The fields `sent` carried, when the plain-text `record` it was refused with is replaced by
    /// it: while this device goes through a conversion's pass, a save sent against no version
    /// (a server restored from a copy made during the conversion, to which this device sends
    /// everything again as the heal does) of a record this device had seen sealed
    /// (`replaceable`) replaces a version the server holds in plain text: no device can save
    /// one any more, so it dates from before the conversion sealed the record, and this
    /// device's copy follows from it.
    ///
    /// Not a record this device never saw sealed: the version in plain text may be one it
    /// never saw, another device's edit from before the conversion, which that device's
    /// conversion seals; the save waits for the sealed version and merges with it (converting
    /// seeds 3,000,148, a tag added elsewhere, and 3,017,192, a heal taken up after the
    /// conversion: both lost what the other device wrote).
    private static func replacing(_ record: SyncRecord, refusing sent: RecordChange?, replaceable: Bool) -> RecordFields? {
        guard replaceable, let sent, sent.operation == .save, sent.baseChangeTag == nil, sent.recordType == record.recordType,
              let fields = sent.fields, !fields.isSealed else { return nil }
        return fields
    }

    /// The ids of the changes of `batch` refused with a version in plain text while a
    /// conversion's pass goes on whose record this device had seen sealed before the server
    /// was restored (see ``replacing(_:refusing:replaceable:)``).
    private func replaceable(refusedWithPlaintext response: ModifyResponse, of batch: PushBatch, converting: Bool) throws(SyncError) -> Set<UUID> {
        guard converting else { return [] }
        let refused = Set(response.results.compactMap { $0.serverRecord.flatMap { $0.fields.isSealed ? nil : $0.recordId } })
        let sent = batch.request.changes.filter { refused.contains($0.recordId) && $0.operation == .save && $0.baseChangeTag == nil }
        return sent.isEmpty ? [] : try local { try $0.sealedBeforeRestore(among: sent) }
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
