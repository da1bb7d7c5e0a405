import GRDB
import NoteTakerSyncProtocol

extension SyncApply {
    /// Applies the answer to a batch the server saved whole, in a few statements for the
    /// batch instead of several for each record: the answer to nearly every batch of a push.
    ///
    /// It does what ``applyResult(_:_:sentSequence:result:fieldsJSON:)`` does for each saved
    /// change: each row takes its new change tag and is synced, with no copy of its fields as
    /// its base if it was not changed while in flight (``SyncBase``), else with the fields
    /// sent as its base, left pending; a row deleted meanwhile has its deletion sent against
    /// the version the save made; the outbox entries sent are cleared.
    ///
    /// Returns `false`, having changed nothing, for an answer or a store that needs the
    /// record-by-record path: a deletion in the batch, a change not saved, records staged by
    /// an unfinished pull or held in quarantine.
    mutating func applySavedBatch(_ db: Database, _ batch: PushBatch, answer response: ModifyResponse) throws -> Bool {
        let changes = batch.request.changes
        guard response.results.count == changes.count, batch.sequences.count == changes.count,
              response.results.allSatisfy({ $0.outcome == .saved && $0.changeTag != nil }),
              changes.allSatisfy({ $0.operation == .save && RecordType(rawValue: $0.recordType) != nil }),
              try !isStaging(db), try !holdsRecords(db)
        else { return false }
        let sent = NoteStore.jsonArray(batch.sequences.map(String.init))
        // Changes still the latest of their records: their rows hold exactly what was sent.
        let unchanged = try Outbox.waiting(db, sequences: sent)
        for (typeName, indices) in Dictionary(grouping: changes.indices, by: { changes[$0].recordType }) {
            guard let type = RecordType(rawValue: typeName) else { continue }
            let tagsVersions = type != .note ? [:] : try NoteTagsVersion.afterSending(db, notes: indices.map {
                (changes[$0].recordId.key, changes[$0].fields?[NoteRecord.Field.tagIds.rawValue]?.strings ?? [])
            })
            var writer = WireWriter()
            writer.array(indices) { writer, index in
                let stored = unchanged.contains(batch.sequences[index])
                writer.object { writer in
                    writer.key("base")
                    writer.string(type == .note && stored ? SyncBase.asStored
                                  : batch.fieldsText(at: index) ?? (changes[index].fields ?? [:]).wireJSON)
                    writer.key("id"); writer.string(changes[index].recordId.key)
                    writer.key("tag"); writer.string(response.results[index].changeTag ?? "")
                    if let version = tagsVersions[changes[index].recordId.key] { writer.key("tagsVersion"); writer.integer(version) }
                    writer.key("unchanged"); writer.bool(stored)
                }
            }
            try markBatchSynced(db, type, rows: writer.text, count: indices.count)
        }
        try Outbox.remove(db, sequences: sent)
        report.pushed += changes.count
        return true
    }

    /// Marks rows synced, from a JSON array of `{base, id, tag, tagsVersion, unchanged}` objects
    /// (``NoteTagsVersion``): an unchanged row is synced (or stays in conflict), a changed one
    /// pending. A row that is gone (deleted while in flight) has its deletion sent against the
    /// version saved.
    private func markBatchSynced(_ db: Database, _ type: RecordType, rows: String, count: Int) throws {
        let conflict = type == .note ? "WHEN EXISTS (SELECT 1 FROM sync_conflict WHERE noteId = \(type.table).id) THEN 'conflict'" : ""
        try db.cachedStatement(sql: """
            UPDATE \(type.table) SET changeTag = json_extract(j.value, '$.tag'), syncBase = json_extract(j.value, '$.base'),
                lastSyncedAt = ?, syncRetryCount = 0, syncErrorMessage = NULL, \(type == .note ? "tagsVersion = json_extract(j.value, '$.tagsVersion')," : "")
                syncStatus = CASE \(conflict) WHEN json_extract(j.value, '$.unchanged') THEN 'synced' ELSE 'pending' END
            FROM json_each(?) AS j WHERE \(type.table).id = json_extract(j.value, '$.id')
            """).execute(arguments: [now.storageValue, rows])
        guard db.changesCount < count else { return }
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO sync_deleted (recordType, recordId, changeTag)
            SELECT ?, json_extract(j.value, '$.id'), json_extract(j.value, '$.tag') FROM json_each(?) AS j
            WHERE json_extract(j.value, '$.id') NOT IN (SELECT id FROM \(type.table))
            """).execute(arguments: [type.rawValue, rows])
    }
}
