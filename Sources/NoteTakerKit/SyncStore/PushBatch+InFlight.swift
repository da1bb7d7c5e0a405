import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Batches in flight, kept in the store until their answers are applied, so that a stop at
/// any point loses no batch.
///
/// Two slots (`sync_state` keys `inflight` and `inflight2`): the next batch is kept, and
/// sent, while the server answers the one sent before it. After a stop, every batch kept is
/// sent again as it was (same id, same changes), oldest first; the server answers a batch it
/// already applied again (its answers are kept 30 days) instead of applying it twice. Only
/// its tokens are the device's latest: an answer to another batch since may have moved them
/// on, and a server restored from a backup is noticed by them (``HistoryMark``): sent with
/// the older ones it still holds, the batch would be taken, and its answer would replace the
/// token that tells of the restore. Each batch is written once, into the slot the other
/// batch does not use.
extension PushBatch {
    private static let slots: [SyncState.Key] = [.inflight, .inflight2]

    /// The batches kept in flight, oldest first, with the device's tokens now: sent again by
    /// the next cycle.
    static func loadAll(_ db: Database) throws -> [PushBatch] {
        try slots.compactMap { slot in
            try SyncState.get(db, slot).map { text in
                var batch = try JSONDecoder().decode(PushBatch.self, from: Data(text.utf8))
                batch.slot = slot
                batch.sentBefore = true
                batch.request.changeToken = try SyncState.get(db, .changeToken)
                batch.request.authoredToken = try SyncState.get(db, .authoredToken)
                return batch
            }
        }.sorted { ($0.sequences.min() ?? 0) < ($1.sequences.min() ?? 0) }
    }

    /// Keeps the batch as in flight, in `slot`, in the JSON of its `Codable` form (written by
    /// hand: a batch of 200 notes is written for every push).
    func save(_ db: Database) throws {
        var writer = WireWriter()
        writer.object { writer in
            writer.key("assetHashes"); writer.array(assetHashes) { $0.string($1) }
            writer.key("request"); request.write(to: &writer, fieldsJSON: fieldsJSON)
            writer.key("sequences"); writer.array(sequences) { $0.integer($1) }
        }
        try SyncState.set(db, slot, writer.text)
    }

    /// Keeps the batch as in flight in a slot no other batch uses; returns it as kept. There
    /// is one: the engine keeps a batch only while at most one other is in flight (it refuses
    /// rather than replace a batch that may have been sent).
    func saveInFreeSlot(_ db: Database) throws -> PushBatch {
        guard let slot = try Self.slots.first(where: { try SyncState.get(db, $0) == nil }) else {
            throw NoteTakerError.database("two batches are in flight already; sync again to send them.")
        }
        var batch = self
        batch.slot = slot
        try batch.save(db)
        return batch
    }

    /// Forgets the batch: its answer was applied, or it was refused or abandoned (its
    /// changes then stay in the outbox).
    func clear(_ db: Database) throws {
        try SyncState.set(db, slot, nil)
    }

    /// Forgets every batch in flight while the store stays with its server (it adopts keyed
    /// ids, and the batches name the old ones): their changes wait in the outbox still, and go
    /// up in a new batch. Each creation a batch carried, which the server may have applied,
    /// keeps the fields it sent as its base: its new batch may carry more, and if refused
    /// with the version the server made of the first, it merges with it from there (a tag's
    /// base goes with it to its new id). Every save they carried is remembered (``ForgottenSaves``).
    static func forgetKeepingCreations(_ db: Database) throws {
        let batches = try loadAll(db)
        try ForgottenSaves.keep(db, batches)
        for batch in batches {
            for change in batch.request.changes where change.operation == .save && change.baseChangeTag == nil {
                guard let type = RecordType(rawValue: change.recordType), let fields = change.fields, !fields.isSealed else { continue }
                try db.execute(sql: "UPDATE \(type.table) SET syncBase = ? WHERE id = ? AND lastSyncedAt IS NULL AND syncBase IS NULL",
                               arguments: [fields.wireJSON, change.recordId.key])
            }
        }
        try clearAll(db)
    }

    /// Forgets every batch in flight (for another server or account).
    static func clearAll(_ db: Database) throws {
        for key in slots { try SyncState.set(db, key, nil) }
    }
}
