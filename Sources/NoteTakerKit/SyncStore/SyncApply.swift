import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Applies what the server says to local rows, inside the caller's write transaction:
/// records fetched by a pull, and the answers to a push. Where this device has a pending
/// change of the same record, the two are merged (see ``RecordMerge``).
struct SyncApply {
    let policy: MergePolicy
    /// Where the ids of conflict copies come from.
    let sources: StoreSources
    /// The time the changes are applied.
    let now: Date
    /// What was done, for the cycle's report.
    var report = SyncReport()
    /// Content hashes whose files may no longer be referenced.
    var releasedHashes: Set<String> = []
    /// New notes written but not yet in the search index: indexed together by
    /// ``flushIndex(_:)``, because every statement writing to FTS5 inside a transaction
    /// makes it flush its pending terms.
    var unindexed: [String] = []
    /// The server's record being applied: the one held if it cannot be.
    var incoming: SyncRecord?
    /// Whether the tag being applied is held here from before any deletion of its id (renamed
    /// at a conversion: ``RenamedTags/Kind/heldFromBefore``).
    var incomingTagHeldFromBefore = false
    /// Whether new notes enter the search index with their transaction or are left for
    /// ``NoteStore/indexPendingNotes(progress:)`` (a first sync, like an import).
    var indexing = SearchIndexing.immediately
    /// Folders, tags and the device name, read once per transaction.
    var cache = RecordWriteCache()
    /// Whether attachments may be waiting for their notes (`nil`: not looked yet).
    var attachmentsWaiting: Bool?
    /// Whether the stage holds records (`nil`: not looked yet).
    var staging: Bool?
    /// Whether this device heals from a restored server (`nil`: not looked yet; see
    /// `NoteStore+RestoredServer.swift`).
    var healing: Bool?
    /// While this device catches up with a restored server before healing, the change tag it
    /// had fetched through, above which a record here was synced by its own batches since
    /// (``SyncedThrough``); `Int64.max` otherwise (`nil`: not looked yet; see
    /// `NoteStore+RestoredServer.swift`).
    var catchingUpAbove: Int64?
    /// Whether records are held in quarantine (`nil`: not looked yet).
    var quarantined: Bool?
    /// Whether edits forgotten at a conversion to encryption wait (`nil`: not looked yet;
    /// ``ForgottenSaves``).
    var forgottenEdits: Bool?
    /// Whether this store follows keyed ids (`nil`: not looked yet; ``DerivedIdentity``).
    var followsKeyedIDs: Bool?

    init(policy: MergePolicy, sources: StoreSources) {
        self.policy = policy
        self.sources = sources
        now = sources.now
    }

    /// The outbox entry of a record, if it has one.
    func pending(_ db: Database, _ type: RecordType, _ key: String) throws -> (seq: Int64, pending: ApplyDecision.Pending)? {
        guard let entry = try Outbox.entry(db, type, key) else { return nil }
        switch entry.operation {
        case .save: return (entry.seq, .save(derived: entry.derived, sentAgainFrom: entry.sentAgainFrom))
        case .delete:
            let deletedTag = try String.fetchOne(
                db, sql: "SELECT changeTag FROM sync_deleted WHERE recordType = ? AND recordId = ?", arguments: [type.rawValue, key])
            return (entry.seq, .delete(deletedTag: deletedTag))
        }
    }

    /// Adds the notes written since the last flush to the search index in one statement (or
    /// leaves them for the pass at the end of a large pull). One at a time, in id order, they
    /// made a segment each, and a first sync spent most of its time merging them.
    mutating func flushIndex(_ db: Database) throws {
        guard !unindexed.isEmpty else { return }
        let condition = "id IN (SELECT value FROM json_each(?))"
        let arguments: StatementArguments = [NoteStore.jsonArray(unindexed)]
        switch indexing {
        case .immediately: try SearchIndexSchema.index(db, notesWhere: condition, arguments: arguments)
        case .deferred: try PendingSearchIndex.postpone(db, notesWhere: condition, arguments: arguments)
        }
        unindexed.removeAll()
    }

    /// Applies one record from the server (fetched, or returned as "server record changed").
    /// `fieldsText` is the record's fields as JSON when the caller has it (it becomes the base).
    /// With `absent`, the caller has looked (for a whole page at once): this device has no
    /// row of the record and no change of it waiting. With `refusedDeletion`, the server sent
    /// the record refusing the deletion this device sent (see ``ApplyDecision/Situation/refusedDeletion``).
    /// `sent`: the change the server refused with it (see ``merge(_:_:_:local:server:sent:policy:)``);
    /// `resentCreation`: see ``ApplyDecision/Situation/resentCreation``.
    mutating func apply(_ db: Database, _ record: SyncRecord, fieldsText: String? = nil, absent: Bool = false,
                        refusedDeletion: Bool = false, sent: RecordChange? = nil, resentCreation: Bool = false) throws {
        if !absent, try isSyncedAfterLastFetch(db, record) { return }
        let outer = incoming
        incoming = record
        defer { incoming = outer }
        if try !absent || holdsRecords(db) {
            try SyncQuarantine.release(db, recordType: record.recordType, recordId: record.recordId.key)
        }
        if let rekeyed = try keyingOldTagIDs(db, record) {
            // Sent naming a tag by its old id: applied, and sent again, naming it as it is now.
            var applied = record
            applied.fields = rekeyed
            try applyRecord(db, applied, fieldsText: nil, absent: absent, refusedDeletion: refusedDeletion, sent: sent, resentCreation: resentCreation)
            try Outbox.record(db, .note, record.recordId.key, derived: true)
        } else {
            try applyRecord(db, record, fieldsText: fieldsText, absent: absent, refusedDeletion: refusedDeletion, sent: sent, resentCreation: resentCreation)
        }
        if record.recordType == RecordType.note.rawValue, !record.deleted {
            try applyWaiting(db, noteId: record.recordId.key)
        }
    }

    private mutating func applyRecord(
        _ db: Database, _ record: SyncRecord, fieldsText: String?, absent: Bool, refusedDeletion: Bool, sent: RecordChange?, resentCreation: Bool
    ) throws {
        guard let type = RecordType(rawValue: record.recordType) else { return }
        let key = record.recordId.key
        let renamed = type == .tag ? try RenamedTags.arrived(db, id: key, deleted: record.deleted, sealed: record.fields.isSealed) : nil
        // Another device's conversion sent it from an older version than this device's.
        if renamed != .deletedHere, type == .tag, try ConvertedTags.keepsLater(db, key, than: record) { return }
        incomingTagHeldFromBefore = renamed?.heldFromBefore == true
        defer { incomingTagHeldFromBefore = false }
        var situation = try situation(db, type, record, absent: absent, refusedDeletion: refusedDeletion)
        situation.resentCreation = resentCreation
        let steps = ApplyStep.plan(situation)
        // Anything but a new note may touch indexed rows: index what is waiting first.
        if steps != [.insertArriving] { try flushIndex(db) }
        for step in steps {
            switch step {
            case .dropPendingChange:
                try Outbox.remove(db, type, key)
            case .releaseWaitersOfDeleted:
                for (holderType, holder) in try UnresolvedReferences.forget(db, deleted: key) {
                    try Outbox.record(db, holderType, holder, derived: true)
                }
                try db.execute(sql: "DELETE FROM sync_waiting WHERE noteId = ?1 OR recordId = ?1", arguments: [key])
            case .waitForNote:
                try waitForNote(db, record)
            case .insertArriving:
                // Written once, already in sync (``apply(_:_:fieldsText:absent:refusedDeletion:sent:)`` released any held version).
                if try write(db, type, key, record.fields, arriving: SyncedVersion(tag: record.changeTag, at: now)) { unindexed.append(key) }
            case .takeServerVersion:
                if try write(db, type, key, record.fields, version: record.changeTag) {
                    try markSynced(db, type, key, tag: record.changeTag, base: record.fields, baseText: fieldsText, stored: true)
                }
            case .deleteRow:
                releasedHashes.formUnion(try RecordWriter.deleteFromServer(db, type, key, deletion: Int64(record.changeTag)))
                if type == .folder || type == .tag { cache.forgetFoldersAndTags() }
            case .forgetDeletion(let keepingTombstone):
                try forgetDeletion(db, type, key, tombstone: keepingTombstone ? record.changeTag : nil)
            case .reopenAgainstTombstone:
                // Its merge base stays the version it was changed from: another device's edit
                // may bring the record back first, and the two then merge property by property
                // (seed 7,510 of the restoring run: merged with no base, this side won every
                // property, and a title changed there was lost).
                try db.execute(sql: "UPDATE \(type.table) SET changeTag = ? WHERE id = ?", arguments: [record.changeTag, key])
                // It goes up against the deletion now, however often it failed against the
                // version before (one in plain text, while a conversion to encryption went on).
                try Outbox.resetFailure(db, type, key)
            case .resendAttachments:
                try Outbox.recordSaves(db, .attachment, selection: "SELECT id FROM attachment WHERE noteId = ?", arguments: [key])
            case .merge(let derivedYields):
                guard let local = try SyncRecords.fields(db, type, key) else { return }
                try merge(db, type, key, local: local, server: record, sent: sent, policy: derivedYields ? .serverWins : policy)
            case .countMerged:
                report.merged += 1
            }
        }
        if case .delete? = situation.pending, !record.deleted {
            // A deletion that failed against a version it could not open (one in plain text,
            // while a conversion to encryption went on) goes up against this one.
            try Outbox.resetFailure(db, type, key)
        }
        if renamed == .deletedHere, !record.deleted {
            try deleteAgain(db, tag: key, version: record.changeTag, madeAgain: situation.exists)
        }
    }

    /// What this device holds of `record`, read without changing anything. With `absent`,
    /// the caller found that it holds nothing of it.
    private func situation(
        _ db: Database, _ type: RecordType, _ record: SyncRecord, absent: Bool, refusedDeletion: Bool
    ) throws -> ApplyDecision.Situation {
        let key = record.recordId.key
        // Whether the row exists, and the change tag it has: the fields are read only to merge.
        let row = absent ? nil : try Row.fetchOne(db.cachedStatement(sql: "SELECT changeTag FROM \(type.table) WHERE id = ?"), arguments: [key])
        var situation = ApplyDecision.Situation(
            recordType: type, serverDeleted: record.deleted, serverTag: record.changeTag, exists: row != nil,
            localTag: row.flatMap { $0[0] as String? }, pending: absent ? nil : try pending(db, type, key)?.pending, refusedDeletion: refusedDeletion)
        situation.deletionSentAgainFrom = record.deleted ? record.sentAgainFrom : nil
        if type == .attachment, !record.deleted, situation.pending == nil {
            situation.noteMissing = try attachmentNote(of: record).map { try !NoteStore.noteExists(db, $0) } ?? false
        }
        return situation
    }

    /// The note an attachment record names, when it names one.
    private func attachmentNote(of record: SyncRecord) -> String? {
        record.fields[AttachmentRecord.Field.noteId.rawValue]?.string.flatMap { UUID(key: $0) }?.key
    }

    /// Keeps an attachment whose note has not arrived yet, to apply when the note does.
    private mutating func waitForNote(_ db: Database, _ record: SyncRecord) throws {
        guard let noteId = attachmentNote(of: record) else { return }
        try db.execute(sql: "INSERT OR REPLACE INTO sync_waiting (recordId, noteId, changeTag, fields) VALUES (?, ?, ?, ?)",
                       arguments: [record.recordId.key, noteId, record.changeTag, record.fields.wireJSON])
        attachmentsWaiting = true
    }

    /// Applies the attachments that waited for a note that is now here.
    private mutating func applyWaiting(_ db: Database, noteId: String) throws {
        if attachmentsWaiting == nil {
            attachmentsWaiting = try Bool.fetchOne(db, sql: "SELECT 1 FROM sync_waiting LIMIT 1") == true
        }
        guard attachmentsWaiting == true else { return }
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT recordId, changeTag, fields FROM sync_waiting WHERE noteId = ?"),
                                    arguments: [noteId])
        guard !rows.isEmpty else { return }
        try db.execute(sql: "DELETE FROM sync_waiting WHERE noteId = ?", arguments: [noteId])
        for row in rows {
            guard let id = UUID(key: row[0]), let fields = try? RecordFields(wireJSON: (row[2] as String).utf8)
            else { continue }
            try apply(db, SyncRecord(recordType: RecordType.attachment.rawValue, recordId: id, changeTag: row[1], deleted: false, fields: fields))
        }
    }

    /// A note's fields from the server with the tags it names by their unkeyed ids renamed
    /// (``DerivedIdentity/keyingOldTagIDs(_:in:)``), when this store follows keyed ids and
    /// one is held here; else `nil`.
    private mutating func keyingOldTagIDs(_ db: Database, _ record: SyncRecord) throws -> RecordFields? {
        guard record.recordType == RecordType.note.rawValue, !record.deleted else { return nil }
        if followsKeyedIDs == nil { followsKeyedIDs = try DerivedIdentity.current(db).keyed != nil }
        return followsKeyedIDs == true ? try DerivedIdentity.keyingOldTagIDs(db, in: record.fields) : nil
    }

    /// Whether a fetched record is this device's own latest version of it (its echo):
    /// nothing to apply, so its fields need not even be decoded.
    static func isEcho(_ db: Database, recordType: String, recordId: String, changeTag: String, deleted: Bool) throws -> Bool {
        guard !deleted, let type = RecordType(rawValue: recordType),
              try String.fetchOne(db.cachedStatement(sql: "SELECT changeTag FROM \(type.table) WHERE id = ?"), arguments: [recordId]) == changeTag
        else { return false }
        return try !Outbox.holds(db, recordType: recordType, recordId: recordId)
    }

    /// Merges the server's record into the row. `sent`: a change of the row this device sent
    /// again, which the server refused with this record; it may have reached the server
    /// before (its answer lost, then forgotten by the server, and the batch decided anew), so
    /// the base is moved on to it where the server holds what it sent
    /// (``RecordMerge/base(_:afterSending:server:)``). A creation's (sent against no version,
    /// of a row never synced) is the base whole: the record exists only because it made it
    /// (but a tag, whose id follows from its name). A row synced before and sent against no
    /// version was queued again for a restored server: the server's copy may come from
    /// elsewhere, so only the properties it holds as sent move.
    private mutating func merge(_ db: Database, _ type: RecordType, _ key: String, local: RecordFields, server: SyncRecord,
                                sent: RecordChange? = nil, policy: MergePolicy) throws {
        var base = try SyncBase.fields(db, type, key)
        if let forgotten = try takeForgottenEdit(db, type, key) {
            base = RecordMerge.base(base, afterSending: forgotten, server: server.fields)
        }
        if let sent, let fields = sent.fields {
            // A creation's base is what it sent, or what an earlier batch of it, forgotten, sent.
            base = try Self.isCreation(db, sent) ? base ?? fields : RecordMerge.base(base, afterSending: fields, server: server.fields)
        }
        let outcome = RecordMerge.merge(recordType: type.rawValue, base: base, local: local, server: server.fields, policy: policy)
        guard try write(db, type, key, outcome.fields) else {
            // The server's version cannot be read (it is held): this device's version goes
            // up against it, untouched, and replaces it.
            try db.execute(sql: "UPDATE \(type.table) SET changeTag = ? WHERE id = ?", arguments: [server.changeTag, key])
            return
        }
        let stored = try SyncRecords.fields(db, type, key) ?? outcome.fields
        try markSynced(db, type, key, tag: server.changeTag, base: server.fields)
        if stored == server.fields {
            try Outbox.remove(db, type, key)
        } else {
            // It failed against a version it could not merge with (one not sealed, while a
            // conversion to encryption went on): it goes up against this one.
            try Outbox.resetFailure(db, type, key)
            try db.execute(sql: "UPDATE \(type.table) SET syncStatus = 'pending' WHERE id = ? AND syncStatus <> 'conflict'", arguments: [key])
        }
        if let losingBody = outcome.losingBody, type == .note, try !isOlderTextHere(db, noteId: key, body: losingBody) {
            try ConflictCopies.keep(db, noteId: key, losingBody: losingBody, localWon: RecordMerge.localWins(local: local, server: server.fields, policy: policy),
                                    local: local, server: server.fields, at: now, sources: sources)
            report.conflicts += 1
        }
    }

    /// Whether `record`, fetched while this device catches up with a restored server, is one
    /// this device synced after its last fetch (by its own batch, answered then): that version
    /// may be one the server lost, so the record is left for the heal, which merges it with
    /// this device's side winning, whatever version arrives (another device's edit of it since
    /// the restore too, its text then kept in a conflict copy).
    private mutating func isSyncedAfterLastFetch(_ db: Database, _ record: SyncRecord) throws -> Bool {
        if catchingUpAbove == nil { catchingUpAbove = try SyncState.get(db, .catchingUpBeforeHeal).map { Int64($0) ?? 0 } ?? .max }
        guard let bound = catchingUpAbove, bound < .max, let type = RecordType(rawValue: record.recordType) else { return false }
        let synced = try String.fetchOne(db, sql: "SELECT changeTag FROM \(type.table) WHERE id = ?", arguments: [record.recordId.key])
        return synced.flatMap { Int64($0) }.map { $0 > bound } ?? false
    }

    /// Whether the server's text of a note that lost to this device's is one this note had
    /// here before, while healing from a restored server: the server's copy is then simply
    /// older, and keeping it as a conflict copy would only repeat the note's history.
    private mutating func isOlderTextHere(_ db: Database, noteId: String, body: String) throws -> Bool {
        if healing == nil { healing = try SyncState.get(db, .healingRestoredServer) != nil }
        guard healing == true, let id = UUID(key: noteId) else { return false }
        return try NoteHistory.versions(db, noteId: id, bodies: .all).contains { $0.body == body }
    }

}
