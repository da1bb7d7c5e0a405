import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO

/// Moves a server's data from its SQLite folder into an empty PostgreSQL database
/// (`notetaker-server migrate-data`), so that devices do not notice: the server id, account
/// ids, sessions, change sequences, kept answers, note versions and attachment files all
/// come across as they are, so tokens and change tags stay valid and nothing is fetched again.
public enum StorageCopy {
    /// What was copied.
    public struct Summary: Sendable, Equatable {
        /// Accounts, records and attachment files copied.
        public var accounts = 0, records = 0, files = 0
    }

    /// How many rows go across in one statement.
    static let batch = 1_000

    /// Copies everything in the SQLite folder `source` into `target`, which must hold no
    /// accounts yet (its tables are made first). The source is only read; stop the server
    /// that uses it first. The copy is one transaction: all of it arrives, or nothing.
    public static func copy(from source: URL, to target: PostgresDatabase) async throws -> Summary {
        let file = source.appendingPathComponent("NoteTakerServer.sqlite")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw SyncServerError(.notFound, "There is no server database in \(source.path) (no NoteTakerServer.sqlite).")
        }
        let sqlite = try SQLiteSyncStorage(url: file).writer
        let assets = FileAssetStore(directory: source.appendingPathComponent("assets", isDirectory: true))
        _ = try await PostgresSchema.migrate(target)
        return try await target.withSetUpConnection { connection in
            try await PostgresDatabase.transaction(on: connection, logger: target.logger) { connection in
                let copier = Copier(sqlite: sqlite, assets: assets, connection: connection, logger: target.logger)
                return try await copier.run()
            }
        }
    }

    /// One copy, table by table.
    private struct Copier {
        let sqlite: any DatabaseWriter
        let assets: FileAssetStore
        let connection: PostgresConnection
        let logger: Logger

        func run() async throws -> Summary {
            let existing = try await connection.query("SELECT COUNT(*) FROM account", logger: logger)
            guard try await PostgresSyncStorage.first(existing, Int64.self) == 0 else {
                throw SyncServerError(.accountExists, "The PostgreSQL database already holds accounts; copy into an empty database.")
            }
            let serverId = try await sqlite.read { try String.fetchOne($0, sql: "SELECT value FROM server_info WHERE key = 'serverId'") } ?? ""
            try await connection.query("UPDATE server_info SET value = \(serverId) WHERE key = 'serverId'", logger: logger)
            // The made-up login parameters of unknown names stay what they were.
            let decoy = try await sqlite.read { try String.fetchOne($0, sql: "SELECT value FROM server_info WHERE key = 'loginDecoySecret'") } ?? ""
            try await connection.query("UPDATE server_info SET value = \(decoy) WHERE key = 'loginDecoySecret'", logger: logger)
            var summary = Summary()
            summary.accounts = try await copy("""
                SELECT id, username, passwordHash, sequence, recordBytes, assetBytes, answerBytes, versionBytes, createdAt, purgedThrough,
                       IFNULL(quotaBytes, -1), IFNULL(kdf, ''), IFNULL(keys, ''), IFNULL(recoveryHash, ''), publishedBytes,
                       IFNULL(zoneOwner, -1)
                FROM account ORDER BY id
                """) { rows in
                try await connection.query("""
                    INSERT INTO account (id, username, password_hash, sequence, record_bytes, asset_bytes, answer_bytes, version_bytes, created_at,
                        purged_through, quota_bytes, kdf, keys, recovery_hash, published_bytes, zone_owner)
                    SELECT i, n, h, s, r, a, an, v, c, p, NULLIF(q, -1), NULLIF(k, ''), NULLIF(m, ''), NULLIF(rh, ''), pb, NULLIF(zo, -1) FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[], \(rows.map { $0[1] as String })::text[],
                        \(rows.map { $0[2] as String })::text[], \(rows.map { $0[3] as Int64 })::bigint[], \(rows.map { $0[4] as Int64 })::bigint[],
                        \(rows.map { $0[5] as Int64 })::bigint[], \(rows.map { $0[6] as Int64 })::bigint[], \(rows.map { $0[7] as Int64 })::bigint[],
                        \(rows.map { $0[8] as Double })::float8[], \(rows.map { $0[9] as Int64 })::bigint[], \(rows.map { $0[10] as Int64 })::bigint[],
                        \(rows.map { $0[11] as String })::text[], \(rows.map { $0[12] as String })::text[],
                        \(rows.map { $0[13] as String })::text[], \(rows.map { $0[14] as Int64 })::bigint[],
                        \(rows.map { $0[15] as Int64 })::bigint[])
                        AS t (i, n, h, s, r, a, an, v, c, p, q, k, m, rh, pb, zo)
                    """, logger: logger)
            }
            try await connection.query("SELECT setval('account_id_seq', GREATEST((SELECT MAX(id) FROM account), 1))", logger: logger)
            _ = try await copy("""
                SELECT tokenHash, accountId, createdAt, lastUsedAt, IFNULL(deviceName, ''), fetchedThrough FROM session ORDER BY tokenHash
                """) { rows in
                try await connection.query("""
                    INSERT INTO session (token_hash, account_id, created_at, last_used_at, device_name, fetched_through)
                    SELECT h, a, c, u, NULLIF(n, ''), f FROM UNNEST(\(rows.map { $0[0] as String })::text[],
                        \(rows.map { $0[1] as Int64 })::bigint[], \(rows.map { $0[2] as Double })::float8[], \(rows.map { $0[3] as Double })::float8[],
                        \(rows.map { $0[4] as String })::text[], \(rows.map { $0[5] as Int64 })::bigint[]) AS s (h, a, c, u, n, f)
                    """, logger: logger)
            }
            summary.records = try await copy("""
                SELECT accountId, recordId, recordType, seq, deleted, fields, size, IFNULL(author, ''), IFNULL(editSeq, seq), IFNULL(deletedAt, -1),
                    IFNULL(editAuthor, ''), IFNULL(sentAgainFrom, 0)
                FROM record ORDER BY accountId, recordId, recordType
                """) { rows in
                try await connection.query("""
                    INSERT INTO record (account_id, record_id, record_type, seq, deleted, fields, size, author, edit_seq, deleted_at, edit_author, sent_again_from)
                    SELECT a, i, t, s, d, f, z, NULLIF(w, ''), NULLIF(e, s), NULLIF(x, -1), NULLIF(v, ''), NULLIF(g, 0) FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[], \(rows.map { $0[1] as String })::text[],
                        \(rows.map { $0[2] as String })::text[], \(rows.map { $0[3] as Int64 })::bigint[], \(rows.map { $0[4] as Bool })::boolean[],
                        \(rows.map { $0[5] as String })::text[], \(rows.map { $0[6] as Int64 })::bigint[], \(rows.map { $0[7] as String })::text[],
                        \(rows.map { $0[8] as Int64 })::bigint[], \(rows.map { $0[9] as Double })::float8[],
                        \(rows.map { $0[10] as String })::text[], \(rows.map { $0[11] as Int64 })::bigint[]) AS r (a, i, t, s, d, f, z, w, e, x, v, g)
                    """, logger: logger)
            }
            // The marks change tokens carry: without them every device would take the
            // moved server for one restored from an older copy.
            _ = try await copy("SELECT accountId, seq, mark FROM history ORDER BY accountId, seq") { rows in
                try await connection.query("""
                    INSERT INTO history (account_id, seq, mark) SELECT * FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[],
                        \(rows.map { $0[1] as Int64 })::bigint[], \(rows.map { $0[2] as String })::text[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT accountId, requestId, response, createdAt FROM request ORDER BY accountId, requestId") { rows in
                try await connection.query("""
                    INSERT INTO request (account_id, request_id, response, created_at) SELECT * FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[],
                        \(rows.map { $0[1] as String })::text[], \(rows.map { ByteBuffer(data: $0[2] as Data) })::bytea[], \(rows.map { $0[3] as Double })::float8[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT accountId, requestId, createdAt FROM request_marker ORDER BY accountId, requestId") { rows in
                try await connection.query("""
                    INSERT INTO request_marker (account_id, request_id, created_at) SELECT * FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[],
                        \(rows.map { $0[1] as String })::text[], \(rows.map { $0[2] as Double })::float8[])
                    """, logger: logger)
            }
            // Purged deletions, for devices healing a server restored from an older copy.
            _ = try await copy("""
                SELECT accountId, recordId, recordType, deletion, IFNULL(fields, '') FROM purged_record ORDER BY accountId, recordId, recordType
                """) { rows in
                try await connection.query("""
                    INSERT INTO purged_record (account_id, record_id, record_type, deletion, fields)
                    SELECT a, i, t, d, NULLIF(f, '') FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[], \(rows.map { $0[1] as String })::text[],
                        \(rows.map { $0[2] as String })::text[], \(rows.map { $0[3] as Int64 })::bigint[], \(rows.map { $0[4] as String })::text[])
                        AS p (a, i, t, d, f)
                    """, logger: logger)
            }
            _ = try await copy("SELECT accountId, recordId, seq, replacedAt, fields, size FROM record_version ORDER BY accountId, recordId, seq") { rows in
                try await connection.query("""
                    INSERT INTO record_version (account_id, record_id, seq, replaced_at, fields, size)
                    SELECT * FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[], \(rows.map { $0[1] as String })::text[],
                        \(rows.map { $0[2] as Int64 })::bigint[], \(rows.map { $0[3] as Double })::float8[], \(rows.map { $0[4] as String })::text[],
                        \(rows.map { $0[5] as Int64 })::bigint[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT accountId, hash, size FROM asset ORDER BY accountId, hash") { rows in
                try await connection.query("""
                    INSERT INTO asset (account_id, hash, size) SELECT * FROM UNNEST(\(rows.map { $0[0] as Int64 })::bigint[],
                        \(rows.map { $0[1] as String })::text[], \(rows.map { $0[2] as Int64 })::bigint[])
                    """, logger: logger)
            }
            // Published pages, a few at a time: each may be 25 MiB.
            _ = try await copy("SELECT id, accountId, blob, size, createdAt FROM published_page ORDER BY id", batch: 8) { rows in
                try await connection.query("""
                    INSERT INTO published_page (id, account_id, blob, size, created_at)
                    SELECT * FROM UNNEST(\(rows.map { $0[0] as String })::text[], \(rows.map { $0[1] as Int64 })::bigint[],
                        \(rows.map { ByteBuffer(data: $0[2] as Data) })::bytea[], \(rows.map { $0[3] as Int64 })::bigint[],
                        \(rows.map { $0[4] as Double })::float8[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT id, ownerId, epoch, members, signature, createdAt, holderId FROM share_zone ORDER BY id") { rows in
                try await connection.query("""
                    INSERT INTO share_zone (id, owner_id, epoch, members, signature, created_at, holder_id)
                    SELECT * FROM UNNEST(\(rows.map { $0[0] as String })::text[], \(rows.map { $0[1] as Int64 })::bigint[],
                        \(rows.map { $0[2] as Int64 })::bigint[], \(rows.map { $0[3] as String })::text[], \(rows.map { $0[4] as String })::text[],
                        \(rows.map { $0[5] as Double })::float8[], \(rows.map { $0[6] as Int64 })::bigint[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT zoneId, epoch, members, signature FROM share_members_version ORDER BY zoneId, epoch") { rows in
                try await connection.query("""
                    INSERT INTO share_members_version (zone_id, epoch, members, signature)
                    SELECT * FROM UNNEST(\(rows.map { $0[0] as String })::text[], \(rows.map { $0[1] as Int64 })::bigint[],
                        \(rows.map { $0[2] as String })::text[], \(rows.map { $0[3] as String })::text[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT zoneId, accountId, role, accepted FROM share_member ORDER BY zoneId, accountId") { rows in
                try await connection.query("""
                    INSERT INTO share_member (zone_id, account_id, role, accepted)
                    SELECT * FROM UNNEST(\(rows.map { $0[0] as String })::text[], \(rows.map { $0[1] as Int64 })::bigint[],
                        \(rows.map { $0[2] as String })::text[], \(rows.map { $0[3] as Bool })::boolean[])
                    """, logger: logger)
            }
            _ = try await copy("SELECT zoneId, version, accountId, box FROM share_key_box ORDER BY zoneId, accountId, version") { rows in
                try await connection.query("""
                    INSERT INTO share_key_box (zone_id, version, account_id, box)
                    SELECT * FROM UNNEST(\(rows.map { $0[0] as String })::text[], \(rows.map { $0[1] as Int64 })::bigint[],
                        \(rows.map { $0[2] as Int64 })::bigint[], \(rows.map { $0[3] as String })::text[])
                    """, logger: logger)
            }
            let hashes = try await sqlite.read { try String.fetchAll($0, sql: "SELECT DISTINCT hash FROM asset") }
            for hash in hashes where try await copyFile(hash) { summary.files += 1 }
            return summary
        }

        /// Copies the rows of `sql` `batch` at a time (in the order of SQLite's rowids, or
        /// primary keys), handing each batch to `insert`; returns how many there were.
        private func copy(_ sql: String, batch: Int = StorageCopy.batch, insert: ([Row]) async throws -> Void) async throws -> Int {
            var offset = 0
            while true {
                let rows = try await sqlite.read { try Row.fetchAll($0, sql: sql + " LIMIT \(batch) OFFSET \(offset)") }
                if rows.isEmpty { return offset }
                try await insert(rows)
                offset += rows.count
            }
        }

        /// Streams one attachment file into pieces; `false` when the folder lacks it.
        private func copyFile(_ hash: String) async throws -> Bool {
            guard let size = try await assets.size(of: hash) else { return false }
            let started = try await connection.query("""
                INSERT INTO asset_blob (hash, size, started_at) VALUES (\(hash), \(size), \(Date().timeIntervalSince1970)) RETURNING id
                """, logger: logger)
            guard let blob = try await PostgresSyncStorage.first(started, Int64.self) else { return false }
            var part: Int32 = 0
            var piece = Data()
            try await assets.read(hash) { data in
                piece += data
                if piece.count >= PostgresAssetStore.pieceSize {
                    try await connection.query("INSERT INTO asset_chunk (blob_id, part, data) VALUES (\(blob), \(part), \(piece))", logger: logger)
                    part += 1
                    piece = Data()
                }
            }
            if !piece.isEmpty || part == 0 {
                try await connection.query("INSERT INTO asset_chunk (blob_id, part, data) VALUES (\(blob), \(part), \(piece))", logger: logger)
            }
            return true
        }
    }
}
