import Foundation
import GRDB

extension SQLiteSyncStorage {
    /// Notes that a session fetched after `sequence`, when that is further than before.
    public func sessionFetched(tokenHash: String, through sequence: Int64) async throws {
        try await writer.write { db in
            try db.cachedStatement(sql: "UPDATE session SET fetchedThrough = ?1 WHERE tokenHash = ?2 AND fetchedThrough < ?1")
                .execute(arguments: [sequence, tokenHash])
        }
    }

    /// The newest change of a tombstone the account's purges removed.
    public func purgedThrough(account: Int64) async throws -> Int64 {
        try await writer.read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT purgedThrough FROM account WHERE id = ?"), arguments: [account]) ?? 0
        }
    }

    /// Removes the tombstones `horizon` allows, one account per transaction, and the marks of
    /// batches applied before its ``PurgeHorizon/markedBefore``.
    public func purgeTombstones(_ horizon: PurgeHorizon) async throws -> PurgeSummary {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM request_marker WHERE createdAt < ?", arguments: [horizon.markedBefore])
        }
        let accounts = try await writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT DISTINCT accountId FROM record WHERE deleted = 1 AND deletedAt < ?",
                               arguments: [horizon.deletedBefore])
        }
        var summary = PurgeSummary()
        for account in accounts {
            let removed = try await writer.write { db in
                if try Bool.fetchOne(db, sql: "SELECT keys IS NOT NULL FROM account WHERE id = ?", arguments: [account]) == true,
                   try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM record WHERE accountId = ? AND \(Self.unkeyedTagSQL))",
                                     arguments: [account]) == true {
                    return 0 // A conversion to encryption under way (see ``TombstoneRetention``).
                }
                // Every live session has applied the changes up to where it last fetched from;
                // without one, nobody waits for anything.
                let seen = try Int64.fetchOne(db, sql: """
                    SELECT IFNULL((SELECT MIN(fetchedThrough) FROM session WHERE accountId = ?1 AND lastUsedAt >= ?2 AND createdAt >= ?3),
                                  (SELECT sequence FROM account WHERE id = ?1))
                    """, arguments: [account, horizon.usedSince, horizon.createdSince]) ?? 0
                let gone = try Row.fetchAll(db, sql: """
                    DELETE FROM record WHERE accountId = ? AND deleted = 1 AND deletedAt < ? AND seq <= ?
                    RETURNING recordId, recordType, seq, size, NULLIF(fields, '{}') AS fields
                    """, arguments: [account, horizon.deletedBefore, seen])
                guard let newest = gone.map({ $0["seq"] as Int64 }).max() else { return 0 }
                // Kept by id and deletion, with a sealed deletion's envelope, for a device that
                // heals a restored server or edited the record before the deletion (``RecordVersioning``).
                let keep = try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO purged_record (accountId, recordId, recordType, deletion, fields) VALUES (?, ?, ?, ?, ?)
                    """)
                for row in gone { try keep.execute(arguments: [account, row["recordId"], row["recordType"], row["seq"], row["fields"]]) }
                // The answers kept for batches sent again stay: one naming a record purged now
                // is given again with its deletion (``KeptAnswer``).
                try db.execute(sql: """
                    UPDATE account SET recordBytes = recordBytes - ?, purgedThrough = MAX(purgedThrough, ?) WHERE id = ?
                    """, arguments: [gone.reduce(Int64(0)) { $0 + ($1["size"] as Int64) }, newest, account])
                return gone.count
            }
            if removed > 0 {
                summary.tombstones += removed
                summary.accounts += 1
            }
        }
        return summary
    }
}
