import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The store's side of a sync cycle: each step one write transaction.
extension NoteStore {
    /// Remembers the server's id. A different server than last time gets everything here
    /// queued again, against no change tags, and a fresh change token: nothing is deleted.
    /// Also gives the store its device id (see ``SyncDevice``).
    package func adoptServer(_ serverId: String) throws(NoteTakerError) {
        let home = SyncDevice.home(of: databaseURL)
        try write { db in
            try SyncDevice.claim(db, home: home, newID: sources.newID())
            try SyncQuarantine.restage(db)
            let known = try SyncState.get(db, .serverId)
            guard known != serverId else { return }
            if known != nil { try Self.requeueEverything(db) }
            try SyncState.set(db, .serverId, serverId)
        }
    }

    /// Forgets everything this store knew of a server (tags, bases, tokens) and queues every
    /// record to go up: for a different server or account. Deletes nothing.
    ///
    /// For the same server restored from an older copy (`keepingDeletions`), the server's id
    /// is kept, and so are the deletions waiting to go up, against no version: the server
    /// applies one where this device made the record's last edit it holds (this device saw
    /// that version, and deleted after), and refuses it where another device edited the
    /// record, which then comes back (nothing is lost). A row synced and not changed since goes
    /// up marked sent again from the version it held (``Outbox/queueAll(_:_:sendingAgain:)``):
    /// a deletion after that version, which this device never learned of, still wins over it,
    /// though the restored server purged its tombstone.
    static func requeueEverything(_ db: Database, keepingDeletions: Bool = false) throws {
        for type in RecordType.parentsFirst {
            try Outbox.queueAll(db, type, sendingAgain: keepingDeletions)
            try db.execute(sql: "UPDATE \(type.table) SET changeTag = NULL, syncBase = NULL, syncStatus = 'pending'")
        }
        try db.execute(sql: "UPDATE note SET tagsVersion = NULL")
        if !keepingDeletions {
            try Outbox.removeDeletions(db)
            try SentDeletions.forget(db)
        }
        // A deletion kept goes up against no version (its version's tag is forgotten).
        try db.execute(sql: "DELETE FROM sync_deleted")
        try db.execute(sql: "DELETE FROM sync_inbox")
        try db.execute(sql: "DELETE FROM sync_waiting")
        try db.execute(sql: "DELETE FROM sync_quarantine")
        try db.execute(sql: "DELETE FROM sync_tag_tombstone")
        try db.execute(sql: "DELETE FROM sync_tag_deleted_late")
        try db.execute(sql: "DELETE FROM sync_revision")
        try ForgottenSaves.forgetEdits(db)
        let forgotten: [SyncState.Key] = keepingDeletions ? [.changeToken, .inboxToken, .authoredToken] : [.changeToken, .inboxToken, .serverId, .authoredToken]
        for key in forgotten + SyncedThrough.keys { try SyncState.set(db, key, nil) }
        try PushBatch.clearAll(db)
    }

    /// Whether the outbox holds changes that may be sent (not failed too often).
    package func hasPushableChanges() throws(NoteTakerError) -> Bool {
        try read { db in try Outbox.hasPushable(db) }
    }

    /// How many changes the outbox holds that may be sent: the total a push reports progress against.
    package func pushableChangeCount() throws(NoteTakerError) -> Int {
        try read { db in try Outbox.pushableCount(db) }
    }

    /// The batches in flight when the last cycle stopped, oldest first.
    package func inflightBatches() throws(NoteTakerError) -> [PushBatch] {
        try read { db in try PushBatch.loadAll(db) }
    }

    /// The next batch of outbox changes after `cursor`, without saving it, and how many
    /// changes were refused before sending (too large).
    package func nextPushBatch(after cursor: Int64, limit: Int) throws(NoteTakerError) -> (PushBatch?, refused: Int) {
        try write { db in
            var refused = 0
            let batch = try PushBatch.read(db, after: cursor, limit: limit, refused: &refused, requestId: sources.newID())
            return (batch, refused)
        }
    }

    /// Takes out of `batch` the attachments whose files the server refused, marking each
    /// `error` with a message that names the file (they wait for a retry by hand, once there
    /// is room); returns how many.
    package func holdBack(_ batch: inout PushBatch, refusedFiles: [String: SyncError]) throws(NoteTakerError) -> Int {
        try write { db in
            // What is kept goes as the batch would have: under its id, with its device and token.
            var kept = batch
            (kept.request.changes, kept.sequences, kept.assetHashes, kept.fieldsJSON) = ([], [], [], [])
            var heldBack = 0
            for (index, (change, sequence)) in zip(batch.request.changes, batch.sequences).enumerated() {
                if let hash = AttachmentRecord.contentHash(in: change.fields), let refusal = refusedFiles[hash] {
                    let name = change.fields?[AttachmentRecord.Field.fileName.rawValue]?.string ?? "An attachment"
                    let size = change.fields?[AttachmentRecord.Field.fileSize.rawValue]?.number.flatMap { Int64(exactly: $0.rounded()) }
                        .map { " (\(SyncError.megabytes($0)))" } ?? ""
                    let reason = switch refusal {
                    case .storageFull(let used, let quota):
                        "the account uses \(SyncError.megabytes(used)) of \(SyncError.megabytes(quota))"
                    default:
                        refusal.message
                    }
                    try SyncApply.recordFailure(db, .attachment, change.recordId.key, message: "\(name)\(size) does not fit: \(reason)", final: true)
                    heldBack += 1
                } else {
                    kept.request.changes.append(change)
                    kept.sequences.append(sequence)
                    kept.fieldsJSON.append(batch.fieldsText(at: index))
                    if let hash = AttachmentRecord.contentHash(in: change.fields) { kept.assetHashes.append(hash) }
                }
            }
            batch = kept
            return heldBack
        }
    }

    /// Saves a batch as in flight, before it is sent; returns it as saved. At most one other
    /// batch may be in flight.
    @discardableResult
    package func beginPush(_ batch: PushBatch) throws(NoteTakerError) -> PushBatch {
        try write { db in try batch.saveInFreeSlot(db) }
    }

    /// The server refused a whole batch (too large, malformed, storage full): each change
    /// counts a failed attempt with the server's message, and the batch is dropped.
    package func batchRefused(_ batch: PushBatch, message: String) throws(NoteTakerError) {
        try write { db in
            for change in batch.request.changes {
                guard let type = RecordType(rawValue: change.recordType) else { continue }
                try SyncApply.recordFailure(db, type, change.recordId.key, message: message)
            }
            try batch.clear(db)
        }
    }

    /// Drops a batch in flight without sending it again: its changes stay in the outbox, to go
    /// up in later batches.
    package func abandonPush(_ batch: PushBatch) throws(NoteTakerError) {
        try write { db in try batch.clear(db) }
    }

    /// Applies the server's answer to a batch and forgets the batch, with what opening its
    /// sealed records found (``SealedChanges``), in one transaction.
    package func finishPush(
        _ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges = .none
    ) throws(NoteTakerError) -> SyncReport {
        try finishPush(batch, response: response, policy: policy, noting: sealed) { _ in }.report
    }

    /// Applies the server's answer to a batch, forgets the batch, and keeps `next` in flight
    /// in the same transaction (see ``beginPush(_:)``): one commit, and one flush to disk, a
    /// batch instead of two. Returns `next` as kept.
    package func finishPush(
        _ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges = .none, keeping next: PushBatch
    ) throws(NoteTakerError) -> (report: SyncReport, kept: PushBatch) {
        try finishPush(batch, response: response, policy: policy, noting: sealed) { db in try next.saveInFreeSlot(db) }
    }

    /// Applies the answer and forgets the batch, then runs `then` in the same transaction.
    private func finishPush<Then>(
        _ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges, then: (Database) throws -> Then
    ) throws(NoteTakerError) -> (report: SyncReport, kept: Then) {
        let (apply, kept) = try write { db in
            try sealed.write(db)
            var apply = SyncApply(policy: policy, sources: sources)
            if try !apply.applySavedBatch(db, batch, answer: response) {
                for (index, result) in response.results.enumerated() where index < batch.request.changes.count {
                    try apply.applyResult(db, batch.request.changes[index], sentSequence: batch.sequences[index], result: result,
                                          fieldsJSON: batch.fieldsText(at: index), sentBefore: batch.sentBefore)
                }
            }
            try sealed.queueResealing(db)
            // A deletion answered to a change that yielded to it: the record is gone here, and
            // what was seen of it with it, as when a deletion is fetched (docs/encryption.md §3.4).
            try SyncRevisions.forgetDeleted(db, response.results.compactMap(\.serverRecord).filter(\.deleted).map {
                RecordRevision.Key(recordType: $0.recordType, recordId: $0.recordId)
            })
            try apply.flushIndex(db)
            try batch.clear(db)
            try SyncDevice.recordAnswer(db, response)
            try SyncedThrough.noteAnswer(db, response)
            return (apply, try then(db))
        }
        try removeUnreferencedFiles(apply.releasedHashes)
        return (apply.report, kept)
    }

    /// What to fetch: a partly staged pull continues where it stopped. A listing after a
    /// purge names no device, so that the server leaves out none of this device's own
    /// changes: a record it sent during the listing is listed like any other, not taken for
    /// deleted. A fetch from nothing otherwise names the oldest version this device holds
    /// (``ChangesQuery/holding``): a server that purged deletions past it refuses it, and the
    /// device lists everything (``adoptPurgedTombstones()``).
    package func changesQuery() throws(NoteTakerError) -> ChangesQuery {
        try read { db in
            var query = try SyncDevice.query(db, since: SyncState.get(db, .inboxToken) ?? SyncState.get(db, .changeToken))
            if try SyncState.get(db, .healingRestoredServer) != nil {
                // The heal fetches everything, this device's own changes too: the restored copy
                // may hold one it changed or deleted since, that change lost with the restore, and
                // the batch it sent again first would otherwise leave that one out (converting
                // seed 3,002,602: a tag it had deleted since came back everywhere but here). It
                // still names the batch it sent again, so that a server restored once more
                // meanwhile is noticed, not listed after a purge (restoring seed 1937).
                query.deviceId = nil
            }
            if try SyncState.get(db, .listingAfterPurge) != nil {
                query.deviceId = nil
            } else if query.since == nil {
                query.holding = try PurgedTombstones.oldestHeldVersion(db).map(String.init)
            }
            return query
        }
    }

    /// Stages a page of fetched changes, and the token after it, with what opening it found.
    package func stage(_ page: ChangesResponse, noting sealed: SealedChanges = .none) throws(NoteTakerError) {
        try write { db in
            try sealed.write(db)
            let insert = try db.cachedStatement(sql: """
                INSERT INTO sync_inbox (priority, recordType, recordId, changeTag, deleted, fields) VALUES (?, ?, ?, ?, ?, ?)
                """)
            for record in page.records {
                let priority = RecordType(rawValue: record.recordType)?.applyOrder ?? 9
                try insert.execute(arguments: [
                    priority, record.recordType, record.recordId.key, record.changeTag, record.deleted,
                    record.fields.wireJSON,
                ])
            }
            try SyncState.set(db, .inboxToken, page.token)
            try SyncedThrough.noteFetched(db, page)
        }
    }

    /// Forgets the change token and anything staged, for a resync from scratch; the
    /// authored token too unless `keepingAuthoredToken`.
    package func resetChangeToken(keepingAuthoredToken: Bool = false) throws(NoteTakerError) {
        try write { db in try Self.forgetChangeToken(db, keepingAuthoredToken: keepingAuthoredToken) }
    }

    /// Forgets the change token and anything staged, and the authored token unless
    /// `keepingAuthoredToken`.
    static func forgetChangeToken(_ db: Database, keepingAuthoredToken: Bool = false) throws {
        try db.execute(sql: "DELETE FROM sync_inbox")
        try SyncState.set(db, .inboxToken, nil)
        try SyncState.set(db, .changeToken, nil)
        // The server was reset or restored: take back everything, own changes too.
        if !keepingAuthoredToken { try SyncState.set(db, .authoredToken, nil) }
    }

    /// How many notes here the staged changes would delete, and how many notes there are.
    package func stagedDeletions() throws(NoteTakerError) -> (deletions: Int, notes: Int) {
        let (deleted, notes) = try read { db in
            let deleted = try String.fetchAll(db, sql: """
                SELECT DISTINCT i.recordId FROM sync_inbox i JOIN note n ON n.id = i.recordId
                WHERE i.recordType = 'note' AND i.deleted = 1
                  AND NOT \(Outbox.waitsSQL(type: "'note'", id: "i.recordId"))
                """)
            return (deleted, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") ?? 0)
        }
        return (deleted.count - (try notesHeldBySharedZones(deleted)), notes)
    }

    /// How many staged changes wait.
    package func stagedCount() throws(NoteTakerError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_inbox") ?? 0 }
    }

    /// Content hashes of attachments whose files are not here yet.
    package func missingAttachmentFiles() throws(NoteTakerError) -> [String] {
        let hashes = try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT contentHash FROM attachment") }
        return hashes.filter { !FileManager.default.fileExists(atPath: attachmentFiles.url(forHash: $0).path) }
    }

    /// Records a completed cycle.
    package func finishSyncCycle() throws(NoteTakerError) {
        try write { db in
            try SyncState.set(db, .lastSyncedAt, String(sources.now.storageValue))
            try SyncState.set(db, .failedCycle, nil)
            try Metrics.increment(db, .syncEvents)
        }
    }

    /// Records a cycle that failed, and why (the server out of reach, its disk full…), which
    /// `sync status` shows until a cycle completes.
    package func noteFailedCycle(_ error: some WordedError) throws(NoteTakerError) {
        let failure = FailedSyncCycle.Stored(at: sources.now, message: error.message, wording: error.wording)
        try write { db in
            try SyncState.set(db, .failedCycle, String(decoding: try JSONEncoder().encode(failure), as: UTF8.self))
        }
    }
}
