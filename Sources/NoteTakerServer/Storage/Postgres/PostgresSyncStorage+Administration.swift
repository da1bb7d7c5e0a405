import Foundation
import PostgresNIO

extension PostgresSyncStorage {
    public func accountSummaries() async throws -> [AccountSummary] {
        let rows = try await database.query("""
            SELECT account.id, account.username, account.created_at,
                   \(unescaped: Self.usedBytesExpression),
                   account.quota_bytes, COUNT(session.token_hash)::BIGINT, MAX(session.last_used_at)
            FROM account LEFT JOIN session ON session.account_id = account.id
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
            let rows = try await connection.query("""
                SELECT hash FROM asset WHERE account_id = \(account)
                AND NOT EXISTS (SELECT 1 FROM asset other WHERE other.hash = asset.hash AND other.account_id <> asset.account_id)
                """, logger: database.logger)
            var orphaned: [String] = []
            for try await hash in rows.decode(String.self) { orphaned.append(hash) }
            // Every table that holds an account's rows refers to it ON DELETE CASCADE.
            try await connection.query("DELETE FROM account WHERE id = \(account)", logger: database.logger)
            return orphaned
        }
    }
}
