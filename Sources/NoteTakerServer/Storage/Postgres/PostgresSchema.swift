import Foundation
import Logging
import PostgresNIO

/// The server's tables in PostgreSQL, and the migrations that make them.
///
/// Each migration runs once, in order, under an advisory lock so that two nodes starting at
/// once do not both run it. A database migrated by a newer server (one whose schema version
/// this server does not know) is refused rather than written with older rules.
enum PostgresSchema {
    /// The migrations, in order: version `n` is `migrations[n - 1]`.
    static let migrations: [[String]] = [
        [
            "CREATE TABLE server_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE account (
                id BIGSERIAL PRIMARY KEY,
                username TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                sequence BIGINT NOT NULL DEFAULT 0,
                record_bytes BIGINT NOT NULL DEFAULT 0,
                asset_bytes BIGINT NOT NULL DEFAULT 0,
                answer_bytes BIGINT NOT NULL DEFAULT 0,
                version_bytes BIGINT NOT NULL DEFAULT 0,
                created_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE UNIQUE INDEX account_username ON account (lower(username))",
            """
            CREATE TABLE session (
                token_hash TEXT PRIMARY KEY,
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                created_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX session_account ON session (account_id)",
            """
            CREATE TABLE record (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                record_id TEXT NOT NULL,
                record_type TEXT NOT NULL,
                seq BIGINT NOT NULL,
                deleted BOOLEAN NOT NULL,
                fields TEXT NOT NULL,
                size BIGINT NOT NULL,
                author TEXT,
                PRIMARY KEY (account_id, record_id, record_type))
            """,
            "CREATE INDEX record_changes ON record (account_id, seq)",
            """
            CREATE TABLE request (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                request_id TEXT NOT NULL,
                response BYTEA NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (account_id, request_id))
            """,
            "CREATE INDEX request_age ON request (account_id, created_at)",
            """
            CREATE TABLE record_version (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                record_id TEXT NOT NULL,
                seq BIGINT NOT NULL,
                replaced_at DOUBLE PRECISION NOT NULL,
                fields TEXT NOT NULL,
                size BIGINT NOT NULL,
                PRIMARY KEY (account_id, record_id, seq))
            """,
            """
            CREATE TABLE asset (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                hash TEXT NOT NULL,
                size BIGINT NOT NULL,
                PRIMARY KEY (account_id, hash))
            """,
            // A file's bytes, stored once: an upload's pieces arrive under a blob with no hash,
            // which gets its hash once the whole file checked out.
            """
            CREATE TABLE asset_blob (
                id BIGSERIAL PRIMARY KEY,
                hash TEXT UNIQUE,
                size BIGINT NOT NULL DEFAULT 0,
                started_at DOUBLE PRECISION NOT NULL)
            """,
            """
            CREATE TABLE asset_chunk (
                blob_id BIGINT NOT NULL REFERENCES asset_blob(id) ON DELETE CASCADE,
                part INTEGER NOT NULL,
                data BYTEA NOT NULL,
                PRIMARY KEY (blob_id, part))
            """,
        ],
        [
            // Failed log-ins, per user name and address and per address (see LoginThrottle).
            "CREATE TABLE login_failure (key TEXT PRIMARY KEY, count INTEGER NOT NULL, last DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX login_failure_age ON login_failure (last)",
        ],
        [
            // Records, versions and kept answers compressed with LZ4 rather than PostgreSQL's
            // own pglz, which spent a sixth of the database's time in a first push of 100,000
            // notes (that push's database time went from 3.0 s to 2.3 s). New values only; a
            // server built without LZ4 (before PostgreSQL 14, or without the library) keeps pglz.
            """
            DO $$ BEGIN
                ALTER TABLE record ALTER COLUMN fields SET COMPRESSION lz4;
                ALTER TABLE record_version ALTER COLUMN fields SET COMPRESSION lz4;
                ALTER TABLE request ALTER COLUMN response SET COMPRESSION lz4;
            EXCEPTION WHEN feature_not_supported OR syntax_error THEN NULL;
            END $$
            """,
        ],
        [
            // When each session last answered a request, so that one unused for long expires.
            "ALTER TABLE session ADD COLUMN last_used_at DOUBLE PRECISION NOT NULL DEFAULT 0",
            "UPDATE session SET last_used_at = created_at",
        ],
        [
            // Each record counts its row's own cost besides its fields (BatchPlan.recordOverheadBytes).
            "UPDATE record SET size = size + \(BatchPlan.recordOverheadBytes)",
            """
            UPDATE account SET record_bytes = record_bytes
                + \(BatchPlan.recordOverheadBytes) * (SELECT COUNT(*) FROM record WHERE record.account_id = account.id)
            """,
        ],
        [
            // The name the device gave when it logged in, for the account's list of sessions.
            "ALTER TABLE session ADD COLUMN device_name TEXT",
        ],
        [
            // The change that last edited each record, when a derived save followed it
            // (NULL: the record's own sequence). See RecordVersioning.decide.
            "ALTER TABLE record ADD COLUMN edit_seq BIGINT",
        ],
        [
            // A random mark for each batch, which change tokens carry (HistoryMark); one mark
            // stands for each account's history so far.
            """
            CREATE TABLE history (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                seq BIGINT NOT NULL,
                mark TEXT NOT NULL,
                PRIMARY KEY (account_id, seq))
            """,
            """
            INSERT INTO history (account_id, seq, mark)
            SELECT id, sequence, substr(md5(gen_random_uuid()::text), 1, 16) FROM account WHERE sequence > 0
            """,
        ],
        [
            // What tombstone purges need (TombstoneRetention): when each record was deleted
            // (those deleted before count from now), how far each session has fetched, and
            // the newest change each account's purges removed.
            "ALTER TABLE record ADD COLUMN deleted_at DOUBLE PRECISION",
            "UPDATE record SET deleted_at = extract(epoch FROM now()) WHERE deleted",
            "CREATE INDEX record_tombstones ON record(deleted_at) WHERE deleted",
            "ALTER TABLE session ADD COLUMN fetched_through BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE account ADD COLUMN purged_through BIGINT NOT NULL DEFAULT 0",
        ],
        [
            // An account's own quota, set by `notetaker-server account quota` (NULL: the server's).
            "ALTER TABLE account ADD COLUMN quota_bytes BIGINT",
        ],
        [
            // An end-to-end encrypted account's KDF parameters and key material, as JSON (NULL:
            // not encrypted), and the secret made-up login parameters derive from (two UUIDs
            // from PostgreSQL's strong random source: 244 random bits).
            "ALTER TABLE account ADD COLUMN kdf TEXT",
            "ALTER TABLE account ADD COLUMN keys TEXT",
            """
            INSERT INTO server_info (key, value)
            VALUES ('loginDecoySecret', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))
            """,
        ],
        [
            // The scrypt hash of an encrypted account's recovery secret (docs/encryption.md §2.5).
            "ALTER TABLE account ADD COLUMN recovery_hash TEXT",
        ],
        [
            // The device that made each record's last edit, when a derived save followed it
            // (read as `author` while edit_seq is NULL; NULL otherwise: not known). See
            // RecordVersioning.decide.
            "ALTER TABLE record ADD COLUMN edit_author TEXT",
        ],
        [
            // Published pages, sealed by the devices (docs/sharing.md §5); their bytes count
            // in their account's usage.
            """
            CREATE TABLE published_page (
                id TEXT PRIMARY KEY,
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                blob BYTEA NOT NULL,
                size BIGINT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX published_page_account ON published_page (account_id)",
            "ALTER TABLE account ADD COLUMN published_bytes BIGINT NOT NULL DEFAULT 0",
        ],
        [
            // The batches applied whose answers are forgotten: a mark each, for a year
            // (BatchPlan.markerRetention).
            """
            CREATE TABLE request_marker (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                request_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (account_id, request_id))
            """,
            "CREATE INDEX request_marker_age ON request_marker (created_at)",
        ],
        [
            // Shared zones (docs/sharing.md §3): each one's members record as its owner signed
            // it, the members it names with their roles (which the server enforces), and the
            // zone's keys boxed for each member by the owner (which it cannot open).
            """
            CREATE TABLE share_zone (
                id TEXT PRIMARY KEY,
                owner_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                epoch BIGINT NOT NULL,
                members TEXT NOT NULL,
                signature TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX share_zone_owner ON share_zone (owner_id)",
            """
            CREATE TABLE share_member (
                zone_id TEXT NOT NULL REFERENCES share_zone(id) ON DELETE CASCADE,
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                accepted BOOLEAN NOT NULL DEFAULT false,
                PRIMARY KEY (zone_id, account_id))
            """,
            "CREATE INDEX share_member_account ON share_member (account_id)",
            """
            CREATE TABLE share_key_box (
                zone_id TEXT NOT NULL,
                version BIGINT NOT NULL,
                account_id BIGINT NOT NULL,
                box TEXT NOT NULL,
                PRIMARY KEY (zone_id, account_id, version),
                FOREIGN KEY (zone_id, account_id) REFERENCES share_member (zone_id, account_id) ON DELETE CASCADE)
            """,
        ],
        [
            // The records whose tombstones purges removed, and the change that deleted each:
            // a device healing a restored server that sends one again unchanged from before
            // that deletion is answered with it (``RecordVersioning``).
            """
            CREATE TABLE purged_record (
                account_id BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                record_id TEXT NOT NULL,
                record_type TEXT NOT NULL,
                deletion BIGINT NOT NULL,
                PRIMARY KEY (account_id, record_id, record_type))
            """,
        ],
        [
            // A shared zone's records, files and versions are kept under an account row of
            // their own, the zone's holder (docs/sharing.md §3): every table and rule of a
            // person's records serves a zone unchanged. A holder names its zone's owner
            // (`zone_owner`), whose quota its bytes count in; its name ("zone:" and the zone's
            // id) is no user name, and it has no password: nobody logs in to it.
            "ALTER TABLE account ADD COLUMN zone_owner BIGINT REFERENCES account(id) ON DELETE CASCADE",
            "CREATE INDEX account_zone_owner ON account (zone_owner) WHERE zone_owner IS NOT NULL",
            "ALTER TABLE share_zone ADD COLUMN holder_id BIGINT REFERENCES account(id) ON DELETE CASCADE",
            """
            INSERT INTO account (username, password_hash, created_at, zone_owner)
            SELECT 'zone:' || id, '', created_at, owner_id FROM share_zone
            """,
            "UPDATE share_zone SET holder_id = (SELECT id FROM account WHERE username = 'zone:' || share_zone.id)",
        ],
        [
            // Every members record a zone had (docs/sharing.md §3.2): a member checks a record
            // of the zone against the one its writer saw, which may be older than its own.
            """
            CREATE TABLE share_members_version (
                zone_id TEXT NOT NULL REFERENCES share_zone(id) ON DELETE CASCADE,
                epoch BIGINT NOT NULL,
                members TEXT NOT NULL,
                signature TEXT NOT NULL,
                PRIMARY KEY (zone_id, epoch))
            """,
            "INSERT INTO share_members_version (zone_id, epoch, members, signature) SELECT id, epoch, members, signature FROM share_zone",
        ],
        [
            // A tombstone of a deletion a device sent again to heal a restored server keeps the
            // change it had in the history the restore lost (`SyncRecord.sentAgainFrom`).
            "ALTER TABLE record ADD COLUMN sent_again_from BIGINT",
        ],
        [
            // A purged tombstone's fields, when it had any (an encrypted account's sealed
            // deletion, with its revision): the answer to an edit from before the deletion.
            "ALTER TABLE purged_record ADD COLUMN fields TEXT",
        ],
    ]

    /// The newest schema version this server knows.
    static var latestVersion: Int { migrations.count }

    /// An arbitrary number that names the migration lock among the database's advisory locks.
    private static let lockKey: Int64 = 0x6e6f_7465_7461_6b72

    /// Brings the schema up to date (creating it in an empty database) and returns the
    /// database's server id.
    static func migrate(_ database: PostgresDatabase) async throws -> String {
        try await database.withSetUpConnection { connection in
            try await PostgresDatabase.transaction(on: connection, logger: database.logger) { connection in
                let logger = database.logger
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query("CREATE TABLE IF NOT EXISTS notetaker_schema (version INTEGER NOT NULL)", logger: logger)
                var version = 0
                for try await found in try await connection.query("SELECT COALESCE(MAX(version), 0) FROM notetaker_schema", logger: logger).decode(Int.self) {
                    version = found
                }
                guard version <= latestVersion else {
                    throw SyncServerError(.internalError, "This database was set up by a newer notetaker-server (schema version \(version); this one knows up to \(latestVersion)). Run the newer server, or upgrade this one.")
                }
                for (index, statements) in migrations.enumerated().dropFirst(version) {
                    for statement in statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO notetaker_schema (version) VALUES (\(index + 1))", logger: logger)
                }
                // Uploads a node left unfinished (it stopped mid-way) over a day ago.
                try await connection.query(
                    "DELETE FROM asset_blob WHERE hash IS NULL AND started_at < \(Date().timeIntervalSince1970 - 86_400)", logger: logger)
                try await connection.query(
                    "INSERT INTO server_info (key, value) VALUES ('serverId', \(UUID().uuidString.lowercased())) ON CONFLICT (key) DO NOTHING",
                    logger: logger)
                var serverId = ""
                for try await value in try await connection.query("SELECT value FROM server_info WHERE key = 'serverId'", logger: logger).decode(String.self) {
                    serverId = value
                }
                return serverId
            }
        }
    }
}
