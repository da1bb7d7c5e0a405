import Foundation
import GRDB

extension SQLiteSyncStorage {
    /// The schema, one migration per change, run when the storage opens.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-server") { db in
            try db.execute(sql: """
                CREATE TABLE server_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY,
                    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    passwordHash TEXT NOT NULL,
                    sequence INTEGER NOT NULL DEFAULT 0,
                    recordBytes INTEGER NOT NULL DEFAULT 0,
                    assetBytes INTEGER NOT NULL DEFAULT 0,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE session (
                    tokenHash TEXT PRIMARY KEY NOT NULL,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE record (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    recordId TEXT NOT NULL,
                    recordType TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    deleted INTEGER NOT NULL,
                    fields TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    PRIMARY KEY (accountId, recordId, recordType)
                ) WITHOUT ROWID;
                CREATE INDEX record_changes ON record(accountId, seq);
                CREATE TABLE request (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    requestId TEXT NOT NULL,
                    response BLOB NOT NULL,
                    createdAt REAL NOT NULL,
                    PRIMARY KEY (accountId, requestId)
                ) WITHOUT ROWID;
                CREATE TABLE asset (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    hash TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    PRIMARY KEY (accountId, hash)
                ) WITHOUT ROWID;
                """)
            try db.execute(
                sql: "INSERT INTO server_info (key, value) VALUES ('serverId', ?)",
                arguments: [UUID().uuidString.lowercased()])
        }
        migrator.registerMigration("v2-record-author") { db in
            // The device whose change made each record's current version (NULL: unknown).
            try db.execute(sql: "ALTER TABLE record ADD COLUMN author TEXT")
        }
        migrator.registerMigration("v3-answer-bytes") { db in
            // The answers kept for repeated batches count in the account's usage.
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN answerBytes INTEGER NOT NULL DEFAULT 0;
                UPDATE account SET answerBytes = (SELECT COALESCE(SUM(length(response)), 0) FROM request WHERE accountId = account.id);
                CREATE INDEX request_age ON request(accountId, createdAt);
                """)
        }
        migrator.registerMigration("v4-record-versions") { db in
            // The earlier versions of note records, for the history of devices set up later.
            try db.execute(sql: """
                CREATE TABLE record_version (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    recordId TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    replacedAt REAL NOT NULL,
                    fields TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    PRIMARY KEY (accountId, recordId, seq)
                ) WITHOUT ROWID;
                ALTER TABLE account ADD COLUMN versionBytes INTEGER NOT NULL DEFAULT 0;
                """)
        }
        migrator.registerMigration("v5-rowid-tables") { db in
            // Records, kept answers and versions are too large for WITHOUT ROWID tables (a
            // page held three records, and each insert at a random id split pages): they
            // become rowid tables, their keys unique indexes, written in change order.
            try db.execute(sql: """
                CREATE TABLE record_new (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    recordId TEXT NOT NULL,
                    recordType TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    deleted INTEGER NOT NULL,
                    fields TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    author TEXT,
                    UNIQUE (accountId, recordId, recordType)
                );
                INSERT INTO record_new (accountId, recordId, recordType, seq, deleted, fields, size, author)
                    SELECT accountId, recordId, recordType, seq, deleted, fields, size, author FROM record ORDER BY accountId, seq;
                DROP TABLE record;
                ALTER TABLE record_new RENAME TO record;
                CREATE INDEX record_changes ON record(accountId, seq);

                CREATE TABLE request_new (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    requestId TEXT NOT NULL,
                    response BLOB NOT NULL,
                    createdAt REAL NOT NULL,
                    UNIQUE (accountId, requestId)
                );
                INSERT INTO request_new (accountId, requestId, response, createdAt)
                    SELECT accountId, requestId, response, createdAt FROM request ORDER BY createdAt;
                DROP TABLE request;
                ALTER TABLE request_new RENAME TO request;
                CREATE INDEX request_age ON request(accountId, createdAt);

                CREATE TABLE record_version_new (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    recordId TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    replacedAt REAL NOT NULL,
                    fields TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    UNIQUE (accountId, recordId, seq)
                );
                INSERT INTO record_version_new (accountId, recordId, seq, replacedAt, fields, size)
                    SELECT accountId, recordId, seq, replacedAt, fields, size FROM record_version ORDER BY seq;
                DROP TABLE record_version;
                ALTER TABLE record_version_new RENAME TO record_version;
                """)
        }
        migrator.registerMigration("v6-session-last-used") { db in
            // When each session last answered a request, so that one unused for long expires.
            try db.execute(sql: """
                ALTER TABLE session ADD COLUMN lastUsedAt REAL NOT NULL DEFAULT 0;
                UPDATE session SET lastUsedAt = createdAt;
                """)
        }
        migrator.registerMigration("v7-record-overhead") { db in
            // Each record counts its row's own cost besides its fields (BatchPlan.recordOverheadBytes).
            try db.execute(sql: """
                UPDATE record SET size = size + \(BatchPlan.recordOverheadBytes);
                UPDATE account SET recordBytes = recordBytes
                    + \(BatchPlan.recordOverheadBytes) * (SELECT COUNT(*) FROM record WHERE record.accountId = account.id);
                """)
        }
        migrator.registerMigration("v8-session-device") { db in
            // The name the device gave when it logged in, for the account's list of sessions.
            try db.execute(sql: "ALTER TABLE session ADD COLUMN deviceName TEXT")
        }
        migrator.registerMigration("v9-record-edit-sequence") { db in
            // The change that last edited each record, when a derived save followed it
            // (NULL: the record's own sequence). See RecordVersioning.decide.
            try db.execute(sql: "ALTER TABLE record ADD COLUMN editSeq INTEGER")
        }
        migrator.registerMigration("v10-history-marks") { db in
            // A random mark for each batch, which change tokens carry (HistoryMark); one mark
            // stands for each account's history so far.
            try db.execute(sql: """
                CREATE TABLE history (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    mark TEXT NOT NULL,
                    PRIMARY KEY (accountId, seq)
                ) WITHOUT ROWID;
                INSERT INTO history (accountId, seq, mark) SELECT id, sequence, lower(hex(randomblob(8))) FROM account WHERE sequence > 0;
                """)
        }
        migrator.registerMigration("v11-tombstone-purge") { db in
            // What tombstone purges need (TombstoneRetention): when each record was deleted
            // (those deleted before count from now), how far each session has fetched, and
            // the newest change each account's purges removed.
            try db.execute(sql: """
                ALTER TABLE record ADD COLUMN deletedAt REAL;
                UPDATE record SET deletedAt = ? WHERE deleted = 1;
                CREATE INDEX record_tombstones ON record(deletedAt) WHERE deleted = 1;
                ALTER TABLE session ADD COLUMN fetchedThrough INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE account ADD COLUMN purgedThrough INTEGER NOT NULL DEFAULT 0;
                """, arguments: [Date().timeIntervalSince1970])
        }
        migrator.registerMigration("v12-account-quota") { db in
            // An account's own quota, set by `notetaker-server account quota` (NULL: the server's).
            try db.execute(sql: "ALTER TABLE account ADD COLUMN quotaBytes INTEGER")
        }
        migrator.registerMigration("v13-account-keys") { db in
            // An end-to-end encrypted account's KDF parameters and key material, as JSON (NULL:
            // not encrypted), and the secret made-up login parameters derive from.
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN kdf TEXT;
                ALTER TABLE account ADD COLUMN keys TEXT;
                """)
            let hex = (0..<32).map { _ in UInt8.random(in: .min ... .max) }.lowercaseHex
            try db.execute(sql: "INSERT INTO server_info (key, value) VALUES ('loginDecoySecret', ?)", arguments: [hex])
        }
        migrator.registerMigration("v14-recovery-hash") { db in
            // The scrypt hash of an encrypted account's recovery secret (docs/encryption.md §2.5).
            try db.execute(sql: "ALTER TABLE account ADD COLUMN recoveryHash TEXT")
        }
        migrator.registerMigration("v15-record-edit-author") { db in
            // The device that made each record's last edit, when a derived save followed it
            // (read as `author` while editSeq is NULL; NULL otherwise: not known). See
            // RecordVersioning.decide.
            try db.execute(sql: "ALTER TABLE record ADD COLUMN editAuthor TEXT")
        }
        migrator.registerMigration("v16-published-pages") { db in
            // Published pages, sealed by the devices (docs/sharing.md §5); their bytes count in
            // their account's usage.
            try db.execute(sql: """
                CREATE TABLE published_page (
                    id TEXT PRIMARY KEY NOT NULL,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    blob BLOB NOT NULL,
                    size INTEGER NOT NULL,
                    createdAt REAL NOT NULL);
                CREATE INDEX published_page_account ON published_page (accountId);
                ALTER TABLE account ADD COLUMN publishedBytes INTEGER NOT NULL DEFAULT 0;
                """)
        }
        migrator.registerMigration("v17-request-markers") { db in
            // The batches applied whose answers are forgotten: a mark each, for a year
            // (BatchPlan.markerRetention).
            try db.execute(sql: """
                CREATE TABLE request_marker (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    requestId TEXT NOT NULL,
                    createdAt REAL NOT NULL,
                    PRIMARY KEY (accountId, requestId)) WITHOUT ROWID;
                CREATE INDEX request_marker_age ON request_marker (createdAt);
                """)
        }
        migrator.registerMigration("v18-shares") { db in
            // Shared zones (docs/sharing.md §3): each one's members record as its owner signed
            // it, the members it names with their roles (which the server enforces), and the
            // zone's keys boxed for each member by the owner (which it cannot open).
            try db.execute(sql: """
                CREATE TABLE share_zone (
                    id TEXT PRIMARY KEY NOT NULL,
                    ownerId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    epoch INTEGER NOT NULL,
                    members TEXT NOT NULL,
                    signature TEXT NOT NULL,
                    createdAt REAL NOT NULL);
                CREATE INDEX share_zone_owner ON share_zone (ownerId);
                CREATE TABLE share_member (
                    zoneId TEXT NOT NULL REFERENCES share_zone(id) ON DELETE CASCADE,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    role TEXT NOT NULL,
                    accepted INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (zoneId, accountId)) WITHOUT ROWID;
                CREATE INDEX share_member_account ON share_member (accountId);
                CREATE TABLE share_key_box (
                    zoneId TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    accountId INTEGER NOT NULL,
                    box TEXT NOT NULL,
                    PRIMARY KEY (zoneId, accountId, version),
                    FOREIGN KEY (zoneId, accountId) REFERENCES share_member (zoneId, accountId) ON DELETE CASCADE) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v19-purged-records") { db in
            // The records whose tombstones purges removed, and the change that deleted each:
            // a device healing a restored server that sends one again unchanged from before
            // that deletion is answered with it (``RecordVersioning``).
            try db.execute(sql: """
                CREATE TABLE purged_record (
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    recordId TEXT NOT NULL,
                    recordType TEXT NOT NULL,
                    deletion INTEGER NOT NULL,
                    PRIMARY KEY (accountId, recordId, recordType)) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v20-zone-records") { db in
            // A shared zone's records, files and versions are kept under an account row of
            // their own, the zone's holder (docs/sharing.md §3): every table and rule of a
            // person's records serves a zone unchanged. A holder names its zone's owner
            // (`zoneOwner`), whose quota its bytes count in; its name ("zone:" and the zone's id)
            // is no user name, and it has no password: nobody logs in to it.
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN zoneOwner INTEGER REFERENCES account(id) ON DELETE CASCADE;
                CREATE INDEX account_zone_owner ON account (zoneOwner) WHERE zoneOwner IS NOT NULL;
                ALTER TABLE share_zone ADD COLUMN holderId INTEGER REFERENCES account(id) ON DELETE CASCADE;
                INSERT INTO account (username, passwordHash, createdAt, zoneOwner)
                    SELECT 'zone:' || id, '', createdAt, ownerId FROM share_zone;
                UPDATE share_zone SET holderId = (SELECT id FROM account WHERE username = 'zone:' || share_zone.id);
                """)
        }
        migrator.registerMigration("v21-members-versions") { db in
            // Every members record a zone had (docs/sharing.md §3.2): a member checks a record
            // of the zone against the one its writer saw, which may be older than its own.
            try db.execute(sql: """
                CREATE TABLE share_members_version (
                    zoneId TEXT NOT NULL REFERENCES share_zone(id) ON DELETE CASCADE,
                    epoch INTEGER NOT NULL,
                    members TEXT NOT NULL,
                    signature TEXT NOT NULL,
                    PRIMARY KEY (zoneId, epoch)) WITHOUT ROWID;
                INSERT INTO share_members_version (zoneId, epoch, members, signature) SELECT id, epoch, members, signature FROM share_zone;
                """)
        }
        migrator.registerMigration("v22-deletions-sent-again") { db in
            // A tombstone of a deletion a device sent again to heal a restored server keeps the
            // change it had in the history the restore lost (``SyncRecord/sentAgainFrom``).
            try db.execute(sql: "ALTER TABLE record ADD COLUMN sentAgainFrom INTEGER")
        }
        migrator.registerMigration("v23-purged-envelopes") { db in
            // A purged tombstone's fields, when it had any (an encrypted account's sealed
            // deletion, with its revision): the answer to an edit from before the deletion.
            try db.execute(sql: "ALTER TABLE purged_record ADD COLUMN fields TEXT")
        }
        return migrator
    }()
}
