import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The row bookkeeping of ``SyncApply``: writing a record into its row (or holding it), and
/// the sync columns, the outbox and the deletions that follow.
extension SyncApply {
    /// Writes fields into the row (`version`: the server's change tag of them, when they are
    /// its version whole). A record this device cannot store (malformed, or its note
    /// is missing) is counted as an error and held in ``SyncQuarantine``; returns whether it
    /// was written.
    ///
    /// Every check runs before the first write, so a refused record leaves nothing behind
    /// without a savepoint (a savepoint per record would make FTS5 flush its index each time).
    mutating func write(
        _ db: Database, _ type: RecordType, _ key: String, _ fields: RecordFields, arriving: SyncedVersion? = nil, version: String? = nil
    ) throws -> Bool {
        let reason: String
        do {
            try RecordWriter.writeFromServer(db, type, key, fields, cache: &cache, arriving: arriving, version: version,
                                             tagHeldFromBefore: incomingTagHeldFromBefore, at: now)
            if type == .folder || type == .tag { cache.forgetFoldersAndTags() }
            return true
        } catch let error as SyncRecordError {
            reason = error.description
        } catch let error as NoteTakerError {
            guard case .invalidInput = error else { throw error }
            reason = "The server's \(type.rawValue) \(key) was refused: \(error.message)"
        }
        report.errors += 1
        // Held as it came, to be tried again by an app that can read it.
        try SyncQuarantine.hold(db, recordType: type.rawValue, recordId: key, changeTag: incoming?.changeTag ?? "", deleted: false,
                                fields: (incoming?.fields ?? fields).wireJSON,
                                reason: reason)
        quarantined = true
        return false
    }

    /// Marks a row as in sync with the server's version `tag`, `base` its fields then. With `stored`, the row holds exactly those fields
    /// (it was just written from them, or sent and not changed since): a note then keeps
    /// no copy of them (``SyncBase``). `sentHere`: the version is one this device sent (a
    /// note's tags then come from where they came from before, if anywhere: ``NoteTagsVersion``).
    mutating func markSynced(
        _ db: Database, _ type: RecordType, _ key: String, tag: String, base: RecordFields, baseText: String? = nil,
        stored: Bool = false, sentHere: Bool = false
    ) throws {
        if try holdsRecords(db) { try SyncQuarantine.release(db, recordType: type.rawValue, recordId: key) }
        _ = try takeForgottenEdit(db, type, key)
        if type == .tag { try ConvertedTags.forget(db, key) }
        let tagsVersion = type != .note ? nil : sentHere
            ? try NoteTagsVersion.afterSending(db, note: key, sentTagIds: base[NoteRecord.Field.tagIds.rawValue]?.strings ?? [])
            : Int64(tag)
        try db.cachedStatement(sql: """
            UPDATE \(type.table) SET changeTag = ?, syncBase = ?, lastSyncedAt = ?, syncRetryCount = 0, syncErrorMessage = NULL,
                \(type == .note ? "tagsVersion = ?5," : "")
                syncStatus = \(type == .note ? "CASE WHEN EXISTS (SELECT 1 FROM sync_conflict WHERE noteId = id) THEN 'conflict' ELSE 'synced' END" : "'synced'")
            WHERE id = ?4
            """).execute(arguments: [tag, type == .note && stored ? SyncBase.asStored : baseText ?? base.wireJSON, now.storageValue, key]
                            + (type == .note ? [tagsVersion] : []))
    }

    /// The fields of an edit of the record forgotten at a conversion to encryption, once
    /// (``ForgottenSaves``): a merge moves the base on to them; the record synced, they are moot.
    mutating func takeForgottenEdit(_ db: Database, _ type: RecordType, _ key: String) throws -> RecordFields? {
        if forgottenEdits == nil { forgottenEdits = try ForgottenSaves.holdsEdits(db) }
        guard forgottenEdits == true else { return nil }
        return try ForgottenSaves.takeEdit(db, type, key)
    }

    /// Whether a pull left records staged (looked up once per transaction, which adds none).
    mutating func isStaging(_ db: Database) throws -> Bool {
        if let staging { return staging }
        let found = try Bool.fetchOne(db, sql: "SELECT 1 FROM sync_inbox LIMIT 1") == true
        staging = found
        return found
    }

    /// Whether any record is held in quarantine (looked up once per transaction; holding one
    /// here sets it). A pulled record's held version is released by ``apply(_:_:fieldsText:absent:)``
    /// in any case; this spares the answers to a push the lookup.
    mutating func holdsRecords(_ db: Database) throws -> Bool {
        if let quarantined { return quarantined }
        let found = try Bool.fetchOne(db, sql: "SELECT 1 FROM sync_quarantine LIMIT 1") == true
        quarantined = found
        return found
    }

    /// The deletion made here is done with: the record was deleted on the server too (at
    /// change tag `tombstone`, remembered for a tag), or came back.
    ///
    /// A tag made again here while its deletion waited (``Outbox/append(_:_:_:_:derived:)``)
    /// goes up now, over that tombstone, as one made again after its deletion was seen does.
    func forgetDeletion(_ db: Database, _ type: RecordType, _ key: String, tombstone: String? = nil) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_deleted WHERE recordType = ? AND recordId = ?").execute(arguments: [type.rawValue, key])
        guard type == .tag, let tombstone else { return }
        try TagTombstones.remember(db, id: key, changeTag: tombstone)
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM tag WHERE id = ?"), arguments: [key]) == true {
            try TagTombstones.adopt(db, id: key)
            try Outbox.record(db, .tag, key, derived: true)
        }
    }

    /// The server's version `version` of tag `key` arrived, a tag deleted here under its old
    /// id before this device adopted the keyed ids (``RenamedTags``): it is deleted again here,
    /// and the deletion goes up against that version, as the person's.
    ///
    /// A tag made again here since the adoption (`madeAgain`: its row was here before the
    /// version arrived) stays, as one made again while its deletion waits does
    /// (``Outbox/append(_:_:_:_:derived:)``): the deletion goes up first, taking the tag off
    /// the notes elsewhere, and the tag goes up over it after (``forgetDeletion(_:_:_:tombstone:)``),
    /// on the notes tagged here since (converting seed 3,007,204), which go up again after the
    /// deletion, so that they name the tag from after it. (A note tagged elsewhere that
    /// arrives meanwhile takes the tag made again here; the device that tagged it takes the
    /// tag off when the deletion reaches it, and sends the note without it.)
    mutating func deleteAgain(_ db: Database, tag key: String, version: String, madeAgain: Bool) throws {
        if madeAgain {
            try db.execute(sql: "INSERT OR REPLACE INTO sync_deleted (recordType, recordId, changeTag) VALUES ('tag', ?, ?)",
                           arguments: [key, version])
            try db.execute(sql: "UPDATE tag SET changeTag = NULL, syncBase = NULL, syncStatus = 'pending' WHERE id = ?", arguments: [key])
            try Outbox.record(db, .tag, key, .delete)
            try RecordWriter.requeue(db, noteIds: String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [key]))
        } else if let tag = try Row.fetchOne(db, sql: "SELECT \(Columns.tag) FROM tag WHERE id = ?", arguments: [key]) {
            try RecordWriter.deleteTag(db, Tag(row: tag))
        }
        cache.forgetFoldersAndTags()
    }
}
