import GRDB

/// The sync engine's tables beside the outbox.
enum SyncSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            -- Account, server, change token and settings, as key/value pairs.
            CREATE TABLE sync_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);

            -- Changes fetched from the server and not yet applied: a whole pull is staged
            -- here first, so deletions can be counted before any is applied.
            -- Applied in `priority` order (folders, tags, notes, attachments), then as fetched.
            CREATE TABLE sync_inbox (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                priority INTEGER NOT NULL,
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                changeTag TEXT NOT NULL,
                deleted INTEGER NOT NULL,
                fields TEXT NOT NULL
            );
            CREATE INDEX sync_inbox_order ON sync_inbox(priority, seq);

            -- Notes whose bodies could not be merged: both versions, and the conflict copy.
            CREATE TABLE sync_conflict (
                noteId TEXT PRIMARY KEY NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                copyId TEXT,
                localBody TEXT NOT NULL,
                serverBody TEXT NOT NULL,
                createdAt REAL NOT NULL
            );

            -- The change tag and base of synced rows deleted here, so their deletion can be
            -- sent against the version this device last saw.
            CREATE TABLE sync_deleted (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                changeTag TEXT NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID;

            ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE outbox ADD COLUMN lastError TEXT;
            """)
        for table in ["note", "folder", "tag", "attachment"] {
            try db.execute(sql: """
                CREATE TRIGGER \(table)_sync_deleted AFTER DELETE ON \(table) WHEN old.changeTag IS NOT NULL BEGIN
                    INSERT OR REPLACE INTO sync_deleted (recordType, recordId, changeTag) VALUES ('\(table)', old.id, old.changeTag);
                END;
                """)
        }
    }
}
