import GRDB

/// The full-text index: an FTS5 table over each note's title, body and tag names, plus a
/// hidden `facets` column of filter tokens (pinned, trashed, tag ids, the folder and its
/// ancestors) so that filtered searches stay inside FTS5.
///
/// The index's rowid is `note.searchSeq`, which takes the next number whenever a note's
/// text changes, so newest-first in the index means most recently edited first. That is
/// what lets search bound its work for very common words (see `NoteStore+Search`).
enum SearchIndexSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE note ADD COLUMN searchSeq INTEGER;
            ALTER TABLE note ADD COLUMN tagNames TEXT NOT NULL DEFAULT '';
            ALTER TABLE note ADD COLUMN facets TEXT NOT NULL DEFAULT '';
            UPDATE note SET searchSeq = rowid;
            CREATE UNIQUE INDEX note_searchSeq ON note(searchSeq);
            """)
        // Fill the new columns before the triggers exist: an index entry may only be
        // deleted with the values it was made from.
        try SearchFields.refresh(db, noteIds: String.fetchAll(db, sql: "SELECT id FROM note"))
        try db.execute(sql: """

            CREATE VIRTUAL TABLE note_fts USING fts5(
                title, body, tagNames, facets,
                content = 'note', content_rowid = 'searchSeq',
                tokenize = 'unicode61 remove_diacritics 2',
                prefix = '2 3'
            );

            CREATE TRIGGER note_fts_insert AFTER INSERT ON note BEGIN
                INSERT INTO note_fts(rowid, title, body, tagNames, facets)
                VALUES (new.searchSeq, new.title, new.body, new.tagNames, new.facets);
            END;

            CREATE TRIGGER note_fts_delete AFTER DELETE ON note BEGIN
                INSERT INTO note_fts(note_fts, rowid, title, body, tagNames, facets)
                VALUES ('delete', old.searchSeq, old.title, old.body, old.tagNames, old.facets);
            END;

            CREATE TRIGGER note_fts_update AFTER UPDATE OF title, body, tagNames, facets, searchSeq ON note
            WHEN old.title IS NOT new.title OR old.body IS NOT new.body OR old.tagNames IS NOT new.tagNames
                OR old.facets IS NOT new.facets OR old.searchSeq IS NOT new.searchSeq
            BEGIN
                INSERT INTO note_fts(note_fts, rowid, title, body, tagNames, facets)
                VALUES ('delete', old.searchSeq, old.title, old.body, old.tagNames, old.facets);
                INSERT INTO note_fts(rowid, title, body, tagNames, facets)
                VALUES (new.searchSeq, new.title, new.body, new.tagNames, new.facets);
            END;

            INSERT INTO note_fts(note_fts) VALUES ('rebuild');
            """)
    }

    /// Rebuilds the index with ``SearchTokenizer`` (stores made before it indexed with plain
    /// `unicode61`), in batches so that `progress` can tell how far it got. It runs in the
    /// migration's transaction: other connections keep searching the old index until it commits.
    static func reindex(_ db: Database, progress: ReindexProgress?) throws {
        try db.execute(sql: """
            DROP TABLE note_fts;
            CREATE VIRTUAL TABLE note_fts USING fts5(
                title, body, tagNames, facets,
                content = 'note', content_rowid = 'searchSeq',
                tokenize = '\(SearchTokenizer.name)',
                prefix = '2 3'
            );
            """)
        try setPendingIndexBytes(db)
        let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") ?? 0
        guard total > 0 else { return }
        let boundary = try db.makeStatement(sql: """
            SELECT searchSeq FROM note WHERE searchSeq > ? ORDER BY searchSeq LIMIT 1 OFFSET \(reindexBatchSize - 1)
            """)
        var done = 0
        var last: Int64 = 0
        progress?(0, total)
        while done < total {
            let upper = try Int64.fetchOne(boundary, arguments: [last]) ?? Int64.max
            try index(db, notesWhere: "searchSeq > ? AND searchSeq <= ?", arguments: [last, upper])
            last = upper
            done = upper == Int64.max ? total : done + reindexBatchSize
            progress?(done, total)
        }
    }

    /// How much of a transaction's new index entries FTS5 keeps in memory before writing them
    /// out as a segment (its default is 1 MB, a few hundred notes). Imports and first syncs add
    /// thousands of notes per transaction: fewer, larger segments leave far less merging to
    /// do, about 1.5 times faster on the benchmark's corpus. Small edits are unaffected.
    /// (32 MB until the index pass at the end of an import made room for more: see
    /// ``PendingSearchIndex``.)
    static let pendingIndexBytes = 64 * 1_048_576

    /// Sets ``pendingIndexBytes`` in an existing index.
    static func setPendingIndexBytes(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('hashsize', \(pendingIndexBytes))")
    }

    /// How many notes the re-index adds between two reports of progress.
    static let reindexBatchSize = 10_000

    /// Adds to the index the notes whose search sequence is above `sequence` (notes just
    /// inserted: new notes are indexed by the code that inserts them, not by a trigger).
    static func indexNotes(_ db: Database, searchSeqAbove sequence: Int64) throws {
        try index(db, notesWhere: "searchSeq > ?", arguments: [sequence])
    }

    /// Adds to the index the notes that `condition` (SQL over `note`) selects, which must not
    /// be in it yet, in the order of their index rowids: FTS5 writes out its pending entries
    /// whenever a rowid is lower than the one before, so any other order makes many small
    /// segments.
    static func index(_ db: Database, notesWhere condition: String, arguments: StatementArguments) throws {
        try db.cachedStatement(sql: """
            INSERT INTO note_fts(rowid, title, body, tagNames, facets)
            SELECT searchSeq, title, body, tagNames, facets FROM note WHERE \(condition) ORDER BY searchSeq
            """).execute(arguments: arguments)
    }

    /// The highest search sequence in use (0 in an empty store).
    static func lastSearchSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT IFNULL(MAX(searchSeq), 0) FROM note")) ?? 0
    }
}
