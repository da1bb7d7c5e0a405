import Foundation
import PostgresNIO

extension PostgresSyncStorage {
    /// Notes that a session fetched after `sequence`, when that is further than before.
    public func sessionFetched(tokenHash: String, through sequence: Int64) async throws {
        try await database.query("""
            UPDATE session SET fetched_through = \(sequence) WHERE token_hash = \(tokenHash) AND fetched_through < \(sequence)
            """)
    }

    /// The newest change of a tombstone the account's purges removed.
    public func purgedThrough(account: Int64) async throws -> Int64 {
        try await Self.first(database.query("SELECT purged_through FROM account WHERE id = \(account)"), Int64.self) ?? 0
    }

    /// Removes the tombstones `horizon` allows, one account per transaction, and the marks of
    /// batches applied before its ``PurgeHorizon/markedBefore``. The account's
    /// row is locked first, as a batch locks it, so a purge and a batch of the same account
    /// (on any node) take their turns.
    public func purgeTombstones(_ horizon: PurgeHorizon) async throws -> PurgeSummary {
        try await database.query("DELETE FROM request_marker WHERE created_at < \(horizon.markedBefore)")
        var accounts: [Int64] = []
        let rows = try await database.query(
            "SELECT DISTINCT account_id FROM record WHERE deleted AND deleted_at < \(horizon.deletedBefore)")
        for try await account in rows.decode(Int64.self) { accounts.append(account) }
        var summary = PurgeSummary()
        let logger = database.logger
        for account in accounts {
            let removed = try await database.transaction { connection in
                let latest = try await Self.first(
                    connection.query("SELECT sequence FROM account WHERE id = \(account) FOR UPDATE", logger: logger), Int64.self) ?? 0
                let converting = try await Self.first(connection.query("""
                    SELECT EXISTS (SELECT 1 FROM account WHERE id = \(account) AND keys IS NOT NULL)
                        AND EXISTS (SELECT 1 FROM record WHERE account_id = \(account) AND record_type = 'tag' AND substr(record_id, 15, 1) = '5')
                    """, logger: logger), Bool.self) ?? false
                // A conversion to encryption under way (see ``TombstoneRetention``).
                if converting { return Int64(0) }
                // Every live session has applied the changes up to where it last fetched from;
                // without one, nobody waits for anything.
                let seen = try await Self.first(connection.query("""
                    SELECT MIN(fetched_through) FROM session
                    WHERE account_id = \(account) AND last_used_at >= \(horizon.usedSince) AND created_at >= \(horizon.createdSince)
                    """, logger: logger), Int64?.self) ?? nil
                let gone = try await connection.query("""
                    WITH gone AS (
                        DELETE FROM record WHERE account_id = \(account) AND deleted AND deleted_at < \(horizon.deletedBefore)
                            AND seq <= \(seen ?? latest)
                        RETURNING record_id, record_type, seq, size, fields),
                    kept AS (
                        INSERT INTO purged_record (account_id, record_id, record_type, deletion, fields)
                        SELECT \(account), record_id, record_type, seq, NULLIF(fields, '{}') FROM gone
                        ON CONFLICT (account_id, record_id, record_type) DO UPDATE SET deletion = EXCLUDED.deletion, fields = EXCLUDED.fields)
                    UPDATE account SET record_bytes = record_bytes - (SELECT COALESCE(SUM(size), 0) FROM gone),
                        purged_through = GREATEST(purged_through, (SELECT COALESCE(MAX(seq), 0) FROM gone))
                    WHERE id = \(account) RETURNING (SELECT COUNT(*) FROM gone)
                    """, logger: logger)
                // The answers kept for batches sent again stay, the purged records are kept by
                // id (see the SQLite storage).
                return try await Self.first(gone, Int64.self) ?? 0
            }
            if removed > 0 {
                summary.tombstones += Int(removed)
                summary.accounts += 1
            }
        }
        return summary
    }
}
