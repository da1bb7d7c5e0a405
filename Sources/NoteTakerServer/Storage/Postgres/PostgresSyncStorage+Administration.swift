import Foundation
import Logging
import PostgresNIO

extension PostgresSyncStorage {
    public func accountSummaries() async throws -> [AccountSummary] {
        let rows = try await database.query("""
            SELECT account.id, account.username, account.created_at,
                   \(unescaped: Self.usedBytesExpression),
                   account.quota_bytes, COUNT(session.token_hash)::BIGINT, MAX(session.last_used_at)
            FROM account LEFT JOIN session ON session.account_id = account.id
            WHERE account.zone_owner IS NULL
            GROUP BY account.id ORDER BY lower(account.username)
            """)
        var accounts: [AccountSummary] = []
        for try await (id, username, created, used, quota, sessions, lastUsed) in rows.decode((Int64, String, Double, Int64, Int64?, Int64, Double?).self) {
            accounts.append(AccountSummary(
                id: id, username: username, createdAt: created, usedBytes: used, quotaBytes: quota, sessions: Int(sessions), lastUsedAt: lastUsed))
        }
        return accounts
    }

    public func setQuota(_ bytes: Int64?, account: Int64) async throws {
        try await database.query("UPDATE account SET quota_bytes = \(bytes) WHERE id = \(account)")
    }

    public func deleteAccount(_ account: Int64) async throws -> [String] {
        try await database.transaction { connection in
            let orphaned = try await Self.orphanedAssets(connection, of: "id = $1 OR zone_owner = $1", account, logger: database.logger)
            // Every table that holds an account's rows refers to it ON DELETE CASCADE, the
            // holders of the zones it shares too.
            try await connection.query("DELETE FROM account WHERE id = \(account)", logger: database.logger)
            return orphaned
        }
    }

    /// The files only the accounts `condition` picks (an SQL condition over `account`, with
    /// `argument` as `$1`) hold: those to delete with them.
    static func orphanedAssets(_ connection: PostgresConnection, of condition: String, _ argument: Int64, logger: Logger) async throws -> [String] {
        var query = PostgresQuery(unsafeSQL: """
            WITH gone AS (SELECT id FROM account WHERE \(condition))
            SELECT DISTINCT hash FROM asset WHERE account_id IN (SELECT id FROM gone)
            AND NOT EXISTS (SELECT 1 FROM asset other WHERE other.hash = asset.hash AND other.account_id NOT IN (SELECT id FROM gone))
            """)
        query.binds.append(argument)
        var orphaned: [String] = []
        for try await hash in try await connection.query(query, logger: logger).decode(String.self) { orphaned.append(hash) }
        return orphaned
    }
}
