import GRDB

/// Notes that are in the store but not yet in the search index: what a bulk import leaves
/// or a first sync leaves for one pass at its end (``NoteStore/indexPendingNotes(progress:)``).
///
/// Indexing a whole import at its end, in large transactions, costs less than indexing each
/// batch as it goes in: FTS5 writes fewer, larger segments and has less to merge, and the
/// batches' own commits stay small. A note waits in `note_fts_pending` (by its search
/// sequence) until then; the list shows it, search does not find it yet.
///
/// The triggers that keep the index up to date know these notes: a note that was never
/// indexed is not removed from the index (an FTS5 `delete` of entries that are not there
/// damages it), a pending note that is deleted leaves the list, and one that is edited stays
/// on it, to be indexed with its text of then. (Indexed one by one as they changed, the
/// 100,000 notes of a first sync whose folder arrived after them took 38 s.)
///
/// A store left with pending notes (an import that was interrupted) is indexed when it is
/// next opened for writing.
enum PendingSearchIndex {
    /// Notes indexed per transaction: large enough for FTS5 to write few segments, small
    /// enough that another writer (the web app saving a note) waits a few seconds at most.
    static let notesPerTransaction = 50_000

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE note_fts_pending (searchSeq INTEGER PRIMARY KEY);

            DROP TRIGGER note_fts_delete;
            CREATE TRIGGER note_fts_delete AFTER DELETE ON note BEGIN
                INSERT INTO note_fts(note_fts, rowid, title, body, tagNames, facets)
                SELECT 'delete', old.searchSeq, old.title, old.body, old.tagNames, old.facets
                WHERE NOT EXISTS (SELECT 1 FROM note_fts_pending WHERE searchSeq = old.searchSeq);
                DELETE FROM note_fts_pending WHERE searchSeq = old.searchSeq;
            END;
            """)
        try replaceUpdateTrigger(db)
    }

    /// The update trigger: an indexed note's entry is replaced; an edited pending note stays
    /// pending, under its new search sequence (since migration v17; before, it was indexed alone).
    static func replaceUpdateTrigger(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER note_fts_update;
            CREATE TRIGGER note_fts_update AFTER UPDATE OF title, body, tagNames, facets, searchSeq ON note
            WHEN old.title IS NOT new.title OR old.body IS NOT new.body OR old.tagNames IS NOT new.tagNames
                OR old.facets IS NOT new.facets OR old.searchSeq IS NOT new.searchSeq
            BEGIN
                INSERT INTO note_fts(note_fts, rowid, title, body, tagNames, facets)
                SELECT 'delete', old.searchSeq, old.title, old.body, old.tagNames, old.facets
                WHERE NOT EXISTS (SELECT 1 FROM note_fts_pending WHERE searchSeq = old.searchSeq);
                INSERT INTO note_fts(rowid, title, body, tagNames, facets)
                SELECT new.searchSeq, new.title, new.body, new.tagNames, new.facets
                WHERE NOT EXISTS (SELECT 1 FROM note_fts_pending WHERE searchSeq = old.searchSeq);
                UPDATE note_fts_pending SET searchSeq = new.searchSeq WHERE searchSeq = old.searchSeq;
            END;
            """)
    }

    /// Leaves the notes that `condition` (SQL over `note`) selects, just inserted, for the
    /// pass at the end of the import.
    static func postpone(_ db: Database, notesWhere condition: String, arguments: StatementArguments) throws {
        try db.cachedStatement(sql: "INSERT INTO note_fts_pending (searchSeq) SELECT searchSeq FROM note WHERE \(condition)")
            .execute(arguments: arguments)
    }

    /// How many notes wait to be indexed.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_fts_pending") ?? 0
    }

    /// The writer's page cache while it indexes, in KiB. FTS5 keeps up to
    /// ``SearchIndexSchema/pendingIndexBytes`` of new entries in memory; the pages an import's
    /// rows needed are not needed for that, and giving their memory back keeps the process as
    /// small as before the pending entries grew from 32 to 64 MB.
    static let cacheWhileIndexingKiB = 16_384

    /// How many segments of one size FTS5 lets pile up before it merges them, while an import
    /// is indexed (``automerge``; its default, 4, the rest of the time). Merging eight at a
    /// time rewrites each entry fewer times on its way up: the index pass of 1,000,000 notes
    /// took 81 s instead of 98 s. Later writes merge what is left, four at a time.
    static let mergeWidthWhileIndexing = 8
    static let mergeWidth = 4

    /// Indexes the oldest waiting notes, up to ``notesPerTransaction``; returns how many.
    static func indexSome(_ db: Database) throws -> Int {
        try db.execute(sql: """
            PRAGMA cache_size = -\(cacheWhileIndexingKiB);
            INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', \(mergeWidthWhileIndexing));
            """)
        defer { try? db.execute(sql: "PRAGMA cache_size = -\(NoteStore.writerCacheKiB)") }
        FreedMemory.giveBack()
        let upper = try Int64.fetchOne(db, sql: """
            SELECT searchSeq FROM note_fts_pending ORDER BY searchSeq LIMIT 1 OFFSET \(notesPerTransaction - 1)
            """) ?? Int64.max
        try SearchIndexSchema.index(
            db, notesWhere: "searchSeq IN (SELECT searchSeq FROM note_fts_pending WHERE searchSeq <= ?)", arguments: [upper])
        try db.execute(sql: "DELETE FROM note_fts_pending WHERE searchSeq <= ?", arguments: [upper])
        let indexed = db.changesCount
        try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', \(mergeWidth))")
        return indexed
    }
}

extension NoteStore {
    /// Adds to the search index the notes an import left for later
    /// (``SearchIndexing/deferred``), a few large transactions at a time; `progress` hears
    /// how many are done of how many. Other writers wait for one transaction at most.
    public func indexPendingNotes(progress: ReindexProgress? = nil) throws(NoteTakerError) {
        let total = try read { db in try PendingSearchIndex.count(db) }
        guard total > 0 else { return }
        var done = 0
        progress?(0, total)
        while true {
            let indexed = try write { db in try PendingSearchIndex.indexSome(db) }
            guard indexed > 0 else { break }
            done = min(total, done + indexed)
            progress?(done, total)
        }
        if done < total { progress?(total, total) }
    }
}
