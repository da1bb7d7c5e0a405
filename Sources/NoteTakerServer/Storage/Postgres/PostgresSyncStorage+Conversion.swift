import Foundation
import NoteTakerSyncProtocol
import PostgresNIO

/// What the last step of converting an account to end-to-end encryption reads and deletes
/// (docs/encryption.md §2.4).
extension PostgresSyncStorage {
    /// How many of the account's records, deletions (and, unless `unkeyedTags`, tags under
    /// unkeyed ids) aside, are not sealed.
    public func unsealedRecordCount(account: Int64, unkeyedTags: Bool) async throws -> Int {
        Int(try await Self.first(database.query("""
            SELECT COUNT(*) FROM record
            WHERE account_id = \(account) AND NOT deleted AND NOT jsonb_exists(fields::jsonb, \(RecordFields.sealedMarker))
              AND (\(unkeyedTags) OR NOT (record_type = 'tag' AND substr(record_id, 15, 1) = '5'))
            """), Int64.self) ?? 0)
    }

    /// Deletes the account's plaintext versions, tags under unkeyed ids (their deletions in
    /// plain text as a purge of tombstones does: a device that fetched from before the newest
    /// lists everything again) and kept answers. The account's row is locked first, as a batch locks it.
    public func dropPlaintextRows(account: Int64) async throws -> PlaintextDropped {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query("SELECT 1 FROM account WHERE id = \(account) FOR UPDATE", logger: logger)
            let versions = try await Self.counted(connection.query("""
                WITH gone AS (
                    DELETE FROM record_version
                    WHERE account_id = \(account) AND NOT jsonb_exists(fields::jsonb, \(RecordFields.sealedMarker)) RETURNING size)
                UPDATE account SET version_bytes = version_bytes - (SELECT COALESCE(SUM(size), 0) FROM gone) WHERE id = \(account)
                RETURNING (SELECT COUNT(*) FROM gone)
                """, logger: logger))
            let tombstones = try await Self.counted(connection.query("""
                WITH gone AS (
                    DELETE FROM record
                    WHERE account_id = \(account) AND record_type = 'tag' AND substr(record_id, 15, 1) = '5'
                    RETURNING size, CASE WHEN deleted AND NOT jsonb_exists(fields::jsonb, \(RecordFields.sealedMarker)) THEN seq ELSE 0 END AS plain_deletion)
                UPDATE account SET record_bytes = record_bytes - (SELECT COALESCE(SUM(size), 0) FROM gone),
                    purged_through = GREATEST(purged_through, (SELECT COALESCE(MAX(plain_deletion), 0) FROM gone))
                WHERE id = \(account)
                RETURNING (SELECT COUNT(*) FROM gone)
                """, logger: logger))
            try await connection.query("""
                WITH gone AS (DELETE FROM request WHERE account_id = \(account) RETURNING length(response) AS size)
                UPDATE account SET answer_bytes = answer_bytes - (SELECT COALESCE(SUM(size), 0) FROM gone) WHERE id = \(account)
                """, logger: logger)
            return PlaintextDropped(versions: versions, files: 0, tombstones: tombstones)
        }
    }

    /// Nothing here: deleted rows stay in PostgreSQL's files, out of every query and dump,
    /// until a vacuum lets their space be written over (docs/encryption.md §7).
    public func eraseDeletedBytes() async throws {}

    /// The count a statement's one row holds.
    private static func counted(_ rows: PostgresRowSequence) async throws -> Int {
        Int(try await first(rows, Int64.self) ?? 0)
    }

    /// Forgets the account's hold on an asset; whether no account holds it now.
    public func dropAsset(hash: String, account: Int64) async throws -> Bool {
        let logger = database.logger
        return try await database.transaction { connection in
            let size = try await Self.first(connection.query("""
                DELETE FROM asset WHERE account_id = \(account) AND hash = \(hash) RETURNING size
                """, logger: logger), Int64.self)
            if let size {
                try await connection.query("UPDATE account SET asset_bytes = asset_bytes - \(size) WHERE id = \(account)", logger: logger)
            }
            return try await Self.first(connection.query("SELECT COUNT(*) FROM asset WHERE hash = \(hash)", logger: logger), Int64.self) == 0
        }
    }
}
