import Foundation
import GRDB

extension SQLiteSyncStorage {
    public func accountSummaries() async throws -> [AccountSummary] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT account.id, account.username, account.createdAt,
                       \(Self.usedBytesExpression),
                       account.quotaBytes, COUNT(session.tokenHash), MAX(session.lastUsedAt)
                FROM account LEFT JOIN session ON session.accountId = account.id
                WHERE account.zoneOwner IS NULL
                GROUP BY account.id ORDER BY account.username COLLATE NOCASE
                """).map {
                AccountSummary(id: $0[0], username: $0[1], createdAt: $0[2], usedBytes: $0[3], quotaBytes: $0[4], sessions: $0[5], lastUsedAt: $0[6])
            }
        }
    }

    public func setQuota(_ bytes: Int64?, account: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE account SET quotaBytes = ? WHERE id = ?", arguments: [bytes, account])
        }
    }

    public func deleteAccount(_ account: Int64) async throws -> [String] {
        try await writer.write { db in
            let orphaned = try Self.orphanedAssets(db, deleting: "id = ?1 OR zoneOwner = ?1", account)
            // Every table that holds an account's rows refers to it ON DELETE CASCADE, the
            // holders of the zones it shares too.
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [account])
            return orphaned
        }
    }

    /// The files only the accounts `condition` picks (an SQL condition over `account`, with
    /// `argument` as `?1`) hold: those to delete with them.
    static func orphanedAssets(_ db: Database, deleting condition: String, _ argument: some DatabaseValueConvertible) throws -> [String] {
        try String.fetchAll(db, sql: """
            WITH gone AS (SELECT id FROM account WHERE \(condition))
            SELECT DISTINCT hash FROM asset WHERE accountId IN gone
            AND NOT EXISTS (SELECT 1 FROM asset other WHERE other.hash = asset.hash AND other.accountId NOT IN gone)
            """, arguments: [argument])
    }
}
