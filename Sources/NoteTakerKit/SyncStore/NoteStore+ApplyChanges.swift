import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Applying the server's changes: from the stage, where a pull puts them so that its
/// deletions can be counted before any is made, or page by page as they arrive, when no
/// page deletes a note here.
///
/// Either way, a record that fails in a way no check foresaw (a database error of its own,
/// not of the disk or the file) is held in ``SyncQuarantine`` and its transaction is applied
/// again without it: one record never stops a pull for good.
extension NoteStore {
    /// Applies up to `limit` staged changes — folders first, then tags, notes, attachments —
    /// and removes them from the stage; returns how many were applied (0 when done).
    ///
    /// With ``SearchIndexing/deferred``, new notes wait for ``indexPendingNotes(progress:)``.
    package func applyStaged(
        limit: Int, policy: MergePolicy, indexing: SearchIndexing = .immediately
    ) throws(NoteTakerError) -> SyncReport {
        let (apply, held) = try applyHoldingFailures {
            try applyStagedBatch(limit: limit, policy: policy, indexing: indexing)
        } hold: { db, seq, reason in
            let row = try Row.fetchOne(db, sql: "SELECT recordType, recordId, changeTag, deleted, fields FROM sync_inbox WHERE seq = ?",
                                       arguments: [seq])
            if let row {
                try SyncQuarantine.hold(db, recordType: row["recordType"], recordId: row["recordId"], changeTag: row["changeTag"],
                                        deleted: row["deleted"], fields: row["fields"], reason: reason)
            }
            try db.execute(sql: "DELETE FROM sync_inbox WHERE seq = ?", arguments: [seq])
        }
        return try finished(apply, held: held)
    }

    /// Whether this pull starts from nothing (no change token, nothing staged): its pages may
    /// then be applied as they arrive (see ``applyPage(_:policy:)``).
    package func pullsFromScratch() throws(NoteTakerError) -> Bool {
        try read { db in
            try SyncState.get(db, .changeToken) == nil && SyncState.get(db, .inboxToken) == nil
                && Bool.fetchOne(db, sql: "SELECT 1 FROM sync_inbox LIMIT 1") != true
        }
    }

    /// Applies a page of changes as it came, in one transaction, and keeps its token; new
    /// notes wait for ``indexPendingNotes(progress:)``, as an import's do.
    ///
    /// Returns `nil`, having changed nothing, when the page deletes a note here: the caller
    /// stages it and the rest of the pull, to count their deletions before making any.
    ///
    /// What opening a sealed page found (``SealedChanges``) is written in the same transaction.
    package func applyPage(_ page: ChangesResponse, policy: MergePolicy, noting sealed: SealedChanges = .none) throws(NoteTakerError) -> SyncReport? {
        // Folders first, then tags, notes, attachments, as the stage orders them.
        let records = page.records.enumerated()
            .sorted { (RecordType(rawValue: $0.element.recordType)?.applyOrder ?? 9, $0.offset) < (RecordType(rawValue: $1.element.recordType)?.applyOrder ?? 9, $1.offset) }
            .map(\.element)
        var remaining = Array(records.indices)
        let (apply, held) = try applyHoldingFailures {
            try writer.write { db -> SyncApply? in
                if try Self.deletesNotes(db, records) { return nil }
                try sealed.write(db)
                var apply = SyncApply(policy: policy, sources: sources)
                apply.indexing = .deferred
                let held = try Self.notesHeld(db, records)
                for index in remaining {
                    let record = records[index]
                    let absent = record.recordType == RecordType.note.rawValue && !held.contains(record.recordId.key)
                    guard try Self.needsApplying(db, record.recordType, record.recordId.key, record.changeTag, record.deleted,
                                                 absent: absent, with: &apply)
                    else { continue }
                    try Self.applyOne(db, record, fieldsText: nil, absent: absent, position: Int64(index), with: &apply)
                }
                try Self.finishApplying(db, with: &apply, pullDone: !page.moreComing)
                try SyncState.set(db, .changeToken, page.token)
                try SyncedThrough.noteFetched(db, page)
                return apply
            }
        } hold: { db, index, reason in
            let record = records[Int(index)]
            try SyncQuarantine.hold(db, recordType: record.recordType, recordId: record.recordId.key, changeTag: record.changeTag,
                                    deleted: record.deleted, fields: record.fields.wireJSON, reason: reason)
            remaining.removeAll { $0 == Int(index) }
        }
        return try apply.map { apply throws(NoteTakerError) in try finished(apply, held: held) }
    }

    /// The notes among `records` that this device holds or has a change of waiting, looked up
    /// at once: the others (in a first sync, all of them) are applied without a lookup each.
    private static func notesHeld(_ db: Database, _ records: [SyncRecord]) throws -> Set<String> {
        let ids = records.filter { $0.recordType == RecordType.note.rawValue }.map(\.recordId.key)
        guard !ids.isEmpty else { return [] }
        return Set(try String.fetchAll(db, sql: """
            SELECT j.value FROM json_each(?) AS j
            WHERE j.value IN (SELECT id FROM note) OR \(Outbox.waitsSQL(type: "'note'", id: "j.value"))
            """, arguments: [NoteStore.jsonArray(ids)]))
    }

    /// Whether any of `records` deletes a note here that has no change of its own waiting.
    private static func deletesNotes(_ db: Database, _ records: [SyncRecord]) throws -> Bool {
        let deletions = records.filter { $0.deleted && $0.recordType == RecordType.note.rawValue }.map(\.recordId.key)
        guard !deletions.isEmpty else { return false }
        return try Bool.fetchOne(db, sql: """
            SELECT 1 FROM note n WHERE n.id IN (SELECT value FROM json_each(?))
              AND NOT \(Outbox.waitsSQL(type: "'note'", id: "n.id")) LIMIT 1
            """, arguments: [NoteStore.jsonArray(deletions)]) == true
    }

    /// One record that failed on its own; its transaction was rolled back. `position`
    /// identifies it to the caller (its seq in the stage, its index in a page).
    private struct RecordFailure: Error {
        let position: Int64
        let reason: String
    }

    /// Database failures of the disk or the file, not of one record: these stop the pull.
    private static let environmentFailures: [ResultCode] = [
        .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CORRUPT, .SQLITE_NOMEM,
        .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_NOTADB, .SQLITE_INTERRUPT, .SQLITE_PERM,
    ]

    /// Counts a fetched record as pulled, and returns whether it needs applying: not when it
    /// is this device's own latest version of the record (its echo). `absent`: the caller
    /// found that this device holds nothing of it, so it is no echo.
    private static func needsApplying(
        _ db: Database, _ recordType: String, _ recordId: String, _ changeTag: String, _ deleted: Bool, absent: Bool = false,
        with apply: inout SyncApply
    ) throws -> Bool {
        apply.report.pulled += 1
        return try absent || !SyncApply.isEcho(db, recordType: recordType, recordId: recordId, changeTag: changeTag, deleted: deleted)
    }

    /// Ends a transaction of applied records: indexes the new notes, and once the whole pull
    /// is applied (`pullDone`), settles the folder cycles devices' moves made (``FolderCycles``), takes off
    /// notes the tags whose deletion this device learned of late, and settles the tags renamed
    /// at a conversion (``RenamedTags``).
    private static func finishApplying(_ db: Database, with apply: inout SyncApply, pullDone: Bool) throws {
        try apply.flushIndex(db)
        guard pullDone else { return }
        try FolderCycles.settle(db)
        try TagTombstones.untagLateDeletions(db)
        // A listing after a purge: what it did not list is known now (every page was marked).
        if try SyncState.get(db, .listingAfterPurge) != nil { try RenamedTags.crossOffUnlisted(db) }
        if try RenamedTags.settle(db) > 0 { apply.cache.forgetFoldersAndTags() }
    }

    /// Applies one record, turning a database error of its own into a ``RecordFailure``.
    private static func applyOne(
        _ db: Database, _ record: SyncRecord, fieldsText: String?, absent: Bool = false, position: Int64, with apply: inout SyncApply
    ) throws {
        do {
            try apply.apply(db, record, fieldsText: fieldsText, absent: absent)
        } catch let error as DatabaseError where !environmentFailures.contains(error.resultCode.primaryResultCode) {
            throw RecordFailure(position: position, reason: error.message ?? error.description)
        }
    }

    /// Runs `attempt` (one transaction) until it goes through: after each record failure,
    /// `hold` puts the record aside and the transaction runs again without it. Returns the
    /// result and how many records were held.
    private func applyHoldingFailures<Result>(
        _ attempt: () throws -> Result, hold: (Database, Int64, String) throws -> Void
    ) throws(NoteTakerError) -> (Result, held: Int) {
        var held = 0
        while true {
            do {
                return (try attempt(), held)
            } catch let failure as RecordFailure {
                do {
                    try writer.write { db in try hold(db, failure.position, "This device could not store it: \(failure.reason)") }
                } catch {
                    throw NoteTakerError(databaseError: error)
                }
                held += 1
            } catch {
                throw NoteTakerError(databaseError: error)
            }
        }
    }

    /// Counts the held records as pulled and failed, and removes the files no attachment
    /// uses any more.
    private func finished(_ apply: SyncApply, held: Int) throws(NoteTakerError) -> SyncReport {
        var report = apply.report
        report.errors += held
        report.pulled += held
        try removeUnreferencedFiles(apply.releasedHashes)
        return report
    }

    private func applyStagedBatch(limit: Int, policy: MergePolicy, indexing: SearchIndexing) throws -> SyncApply {
        try writer.write { db in
            var apply = SyncApply(policy: policy, sources: sources)
            apply.indexing = indexing
            let rows = try Row.fetchAll(db, sql: """
                SELECT seq, recordType, recordId, changeTag, deleted, fields FROM sync_inbox ORDER BY priority, seq LIMIT ?
                """, arguments: [limit])
            let delete = try db.cachedStatement(sql: "DELETE FROM sync_inbox WHERE seq = ?")
            for row in rows {
                let seq: Int64 = row["seq"]
                let recordType: String = row["recordType"]
                let recordId: String = row["recordId"]
                let changeTag: String = row["changeTag"]
                let deleted: Bool = row["deleted"]
                let fieldsText: String = row["fields"]
                try delete.execute(arguments: [seq])
                guard try Self.needsApplying(db, recordType, recordId, changeTag, deleted, with: &apply) else { continue }
                let id = UUID(key: recordId)
                let fields = try? RecordFields(wireJSON: fieldsText.utf8)
                let unreadable = id == nil ? "its id '\(recordId.prefix(80))' is not a UUID"
                    : fields == nil ? "its fields are not a JSON object"
                    : RecordType(rawValue: recordType) == nil ? "this app does not know the record type '\(recordType.prefix(40))'"
                    : nil
                guard let id, let fields, unreadable == nil else {
                    apply.report.errors += 1
                    try SyncQuarantine.hold(db, recordType: recordType, recordId: recordId, changeTag: changeTag, deleted: deleted,
                                            fields: fieldsText, reason: "The server's record could not be read: \(unreadable ?? "").")
                    continue
                }
                let record = SyncRecord(recordType: recordType, recordId: id, changeTag: changeTag, deleted: deleted, fields: fields)
                try Self.applyOne(db, record, fieldsText: fieldsText, position: seq, with: &apply)
            }
            let stageDone = try Bool.fetchOne(db, sql: "SELECT 1 FROM sync_inbox LIMIT 1") != true
            try Self.finishApplying(db, with: &apply, pullDone: stageDone)
            if stageDone {
                try SyncState.set(db, .changeToken, try SyncState.get(db, .inboxToken) ?? SyncState.get(db, .changeToken))
                try SyncState.set(db, .inboxToken, nil)
            }
            return apply
        }
    }
}
