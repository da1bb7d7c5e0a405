import GRDB

extension NoteStore {
    /// The identifier of the first migration: a database that has it is a NoteTaker store.
    static let firstMigration = "v1-schema"

    /// The sync bookkeeping columns every syncable table carries (see ``SyncMetadata``).
    /// `syncBase` holds the last-synced field values as JSON, the base of three-way merges.
    private static let syncColumns = """
        syncStatus TEXT NOT NULL DEFAULT 'pending'
            CHECK (syncStatus IN ('pending', 'syncing', 'synced', 'conflict', 'error')),
        changeTag TEXT,
        lastSyncedAt REAL,
        syncRetryCount INTEGER NOT NULL DEFAULT 0,
        syncErrorMessage TEXT,
        syncBase TEXT
        """

    /// Every schema change is a migration here, in order; an old store opens and upgrades.
    /// Dates are stored as seconds since 1970 (REAL), ids as lowercase UUID text, so the
    /// file reads well in the `sqlite3` shell.
    static let migrator = makeMigrator(reindexProgress: nil)

    /// The migrations, with what reports the progress of a long one (see ``ReindexProgress``).
    static func makeMigrator(reindexProgress: ReindexProgress?) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration(firstMigration) { db in
            try db.execute(sql: """
                CREATE TABLE folder (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    icon TEXT,
                    sortOrder INTEGER NOT NULL DEFAULT 0,
                    createdAt REAL NOT NULL,
                    modifiedAt REAL NOT NULL,
                    parentId TEXT REFERENCES folder(id) ON DELETE SET NULL,
                    \(syncColumns)
                );
                CREATE INDEX folder_parent ON folder(parentId);

                CREATE TABLE note (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL DEFAULT '',
                    body TEXT NOT NULL DEFAULT '',
                    createdAt REAL NOT NULL,
                    modifiedAt REAL NOT NULL,
                    isPinned INTEGER NOT NULL DEFAULT 0,
                    folderId TEXT REFERENCES folder(id) ON DELETE SET NULL,
                    trashedAt REAL,
                    \(syncColumns)
                );
                CREATE INDEX note_list ON note(isPinned DESC, modifiedAt DESC) WHERE trashedAt IS NULL;
                CREATE INDEX note_folder ON note(folderId, isPinned DESC, modifiedAt DESC) WHERE trashedAt IS NULL;
                CREATE INDEX note_trash ON note(trashedAt) WHERE trashedAt IS NOT NULL;

                CREATE TABLE tag (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    normalizedName TEXT NOT NULL UNIQUE,
                    createdAt REAL NOT NULL,
                    \(syncColumns)
                );

                CREATE TABLE noteTag (
                    noteId TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                    tagId TEXT NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                    PRIMARY KEY (noteId, tagId)
                ) WITHOUT ROWID;
                CREATE INDEX noteTag_tag ON noteTag(tagId, noteId);

                CREATE TABLE attachment (
                    id TEXT PRIMARY KEY NOT NULL,
                    noteId TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('image', 'video', 'file')),
                    fileName TEXT NOT NULL,
                    fileSize INTEGER NOT NULL,
                    contentHash TEXT NOT NULL,
                    createdAt REAL NOT NULL,
                    \(syncColumns)
                );
                CREATE INDEX attachment_note ON attachment(noteId);
                CREATE INDEX attachment_hash ON attachment(contentHash);

                -- Every local change appends here, in the same transaction as the change.
                -- One row per record: a newer change replaces the older row with a higher seq,
                -- so the sync engine can tell a change made while a push was in flight.
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    recordType TEXT NOT NULL CHECK (recordType IN ('note', 'folder', 'tag', 'attachment')),
                    recordId TEXT NOT NULL,
                    operation TEXT NOT NULL CHECK (operation IN ('save', 'delete')),
                    queuedAt REAL NOT NULL,
                    UNIQUE (recordType, recordId)
                );
                """)
        }

        migrator.registerMigration("v2-search") { db in
            try SearchIndexSchema.create(db)
        }

        migrator.registerMigration("v3-metrics") { db in
            try db.execute(sql: """
                CREATE TABLE metric (
                    name TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL DEFAULT 0
                );
                """)
        }
        migrator.registerMigration("v4-explicit-indexing") { db in
            // New notes are indexed by the code that inserts them, in batches for imports:
            // one statement indexing a batch runs several times faster than a trigger per row.
            try db.execute(sql: "DROP TRIGGER note_fts_insert")
        }
        migrator.registerMigration("v5-marked-facets") { db in
            // Facet tokens now start with a mark no search text contains (see SearchFields).
            try SearchFields.refresh(db, noteIds: String.fetchAll(db, sql: "SELECT id FROM note"))
        }
        migrator.registerMigration("v6-sync") { db in
            try SyncSchema.create(db)
        }
        migrator.registerMigration("v7-references-and-derived-changes") { db in
            try UnresolvedReferences.create(db)
            // Changes made only because a deletion arrived from elsewhere (see Outbox).
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN derived INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v8-staged-by-record") { db in
            // A push answer drops what an unfinished pull staged for its record.
            try db.execute(sql: "CREATE INDEX sync_inbox_record ON sync_inbox(recordType, recordId)")
        }
        migrator.registerMigration("v9-quarantine") { db in
            try SyncQuarantine.create(db)
        }
        migrator.registerMigration("v10-history-and-revisions") { db in
            try NoteHistory.create(db)
            // Every change a person could have edited from grows the note's revision.
            try db.execute(sql: """
                ALTER TABLE note ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                CREATE TRIGGER note_revision AFTER UPDATE OF title, body, isPinned, folderId, trashedAt, tagNames ON note
                WHEN OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body OR OLD.isPinned IS NOT NEW.isPinned
                    OR OLD.folderId IS NOT NEW.folderId OR OLD.trashedAt IS NOT NEW.trashedAt OR OLD.tagNames IS NOT NEW.tagNames
                BEGIN
                    UPDATE note SET revision = OLD.revision + 1 WHERE id = NEW.id;
                END;
                """)
        }
        migrator.registerMigration("v11-version-devices") { db in
            // The device that wrote a note's text (NULL: this one; '': one that did not say),
            // kept with each version of it.
            try db.execute(sql: """
                ALTER TABLE note ADD COLUMN editedOn TEXT;
                ALTER TABLE note_version ADD COLUMN device TEXT;
                """)
        }
        migrator.registerMigration("v12-note-links") { db in
            try NoteLinks.create(db)
        }
        // v13 re-indexed for Chinese, Japanese, Korean, Thai… (pairs of characters); v14 does
        // it again with each character also indexed alone, so a store older than v13 is
        // re-indexed once, by v14.
        migrator.registerMigration("v13-spaceless-search") { _ in }
        migrator.registerMigration("v14-spaceless-characters") { db in
            // Chinese, Japanese, Korean, Thai… found by any word, and by one character, not only whole runs.
            try SearchIndexSchema.reindex(db, progress: reindexProgress)
        }
        migrator.registerMigration("v15-deferred-indexing") { db in
            // A bulk import indexes its notes once, at its end (see PendingSearchIndex).
            try PendingSearchIndex.create(db)
        }
        migrator.registerMigration("v16-larger-index-segments") { db in
            try SearchIndexSchema.setPendingIndexBytes(db)
        }
        migrator.registerMigration("v17-edited-notes-stay-pending") { db in
            try PendingSearchIndex.replaceUpdateTrigger(db)
        }
        migrator.registerMigration("v18-note-bases-copied-on-change") { db in
            // Notes synced from now on keep their merge base only once changed here. Bases
            // already kept stay valid as they are.
            try SyncBase.create(db)
        }
        migrator.registerMigration("v19-no-syncing-status") { db in
            // Rows are no longer marked `syncing` while their batch is in flight (a second
            // rewrite of every row sent): rows an older version left so are pending.
            for type in RecordType.allCases {
                try db.execute(sql: "UPDATE \(type.table) SET syncStatus = 'pending' WHERE syncStatus = 'syncing'")
            }
            // Nor is an answer kept while the next batch is sent: its batch, still in flight,
            // is sent again, and the server answers it again.
            try db.execute(sql: "DELETE FROM sync_state WHERE key = 'answered'")
        }
        migrator.registerMigration("v20-unlisted-after-purge") { db in
            try PurgedTombstones.create(db)
        }
        migrator.registerMigration("v21-tag-tombstones") { db in
            try TagTombstones.create(db)
        }
        migrator.registerMigration("v22-tag-deletions-learned-late") { db in
            try TagTombstones.createLateDeletions(db)
        }
        migrator.registerMigration("v23-preferences") { db in
            try createPreferences(db)
        }
        migrator.registerMigration("v24-sealed-record-revisions") { db in
            try SyncRevisions.create(db)
        }
        migrator.registerMigration("v25-import-bases") { db in
            // A newer export of a source updates the notes that changed there.
            try ImportBases.createWhole(db)
        }
        migrator.registerMigration("v26-import-bases-as-digests") { db in
            // A base costs a digest while its note is as the source said it.
            try ImportBases.keepDigests(db)
        }
        migrator.registerMigration("v27-known-identities") { db in
            // Other accounts' identity keys as first met (docs/sharing.md §2).
            try KnownIdentities.create(db)
        }
        migrator.registerMigration("v28-published-notes") { db in
            // The pages this device published, and their keys (docs/sharing.md §5.4).
            try PublishedNotes.create(db)
        }
        migrator.registerMigration("v29-renamed-tags") { db in
            // Tags renamed to keyed ids following a conversion elsewhere (docs/encryption.md §4).
            try RenamedTags.create(db)
        }
        migrator.registerMigration("v30-renamed-tags-taken-up") { db in
            // A conversion taken up sends the tags it renamed once it has fetched everything.
            try RenamedTags.addOldIDs(db)
        }
        migrator.registerMigration("v31-note-tags-versions") { db in
            // A merge sent before a tag's record came down keeps the tags it carried.
            try NoteTagsVersion.create(db)
        }
        migrator.registerMigration("v32-converted-tags") { db in
            // A tag a conversion sends again under its keyed id names the version it carries.
            try ConvertedTags.create(db)
        }
        migrator.registerMigration("v33-synced-through") { db in
            // The catch-up before a restored server's heal tells what this device synced after its last fetch.
            try SyncedThrough.startFromRows(db)
        }
        migrator.registerMigration("v34-sent-again") { db in
            // A row sent again unchanged to heal a restored server names the version it held.
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN sentAgainFrom TEXT")
        }
        migrator.registerMigration("v35-sealed-before-restore") { db in
            // A heal during a conversion replaces plain text only with what this device saw sealed.
            try SealedBeforeRestore.create(db)
        }
        migrator.registerMigration("v36-shared-zones") { db in
            // The shared zones this device takes part in, and their members records (docs/sharing.md §3.6).
            try SharedZones.create(db)
        }
        migrator.registerMigration("v37-moved-histories") { db in
            // A note moved into this store from another gives its history to this store's server (docs/sharing.md §3.5).
            try MovedHistories.create(db)
        }
        migrator.registerMigration("v38-authors") { db in
            // In a shared zone, the account that wrote a note's text and each version (docs/sharing.md §4).
            try db.execute(sql: """
                ALTER TABLE note ADD COLUMN editedBy TEXT;
                ALTER TABLE note_version ADD COLUMN author TEXT;
                """)
        }
        migrator.registerMigration("v39-sent-deletions") { db in
            // A heal sends again the deletions a restored server may have lost, naming their tags.
            try SentDeletions.create(db)
        }
        return migrator
    }
}
