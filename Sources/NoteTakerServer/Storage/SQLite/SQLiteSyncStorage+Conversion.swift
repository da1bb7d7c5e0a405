import Foundation
import GRDB
import NoteTakerSyncProtocol

/// What the last step of converting an account to end-to-end encryption reads and deletes
/// (docs/encryption.md §2.4).
extension SQLiteSyncStorage {
    /// The SQL condition, on a row's `fields`, that they are not an envelope.
    private static let unsealedSQL = "json_extract(fields, '$.\"\(RecordFields.sealedMarker)\"') IS NULL"

    /// How many of the account's records, deletions aside, are not sealed.
    public func unsealedRecordCount(account: Int64) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE accountId = ? AND NOT deleted AND \(Self.unsealedSQL)",
                             arguments: [account]) ?? 0
        }
    }

    /// Deletes the account's kept versions that are not sealed; the usage follows.
    public func dropUnsealedVersions(account: Int64) async throws -> Int {
        try await writer.write { db in
            let (count, bytes) = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), IFNULL(SUM(size), 0) FROM record_version WHERE accountId = ? AND \(Self.unsealedSQL)
                """, arguments: [account]).map { ($0[0] as Int, $0[1] as Int64) } ?? (0, 0)
            try db.execute(sql: "DELETE FROM record_version WHERE accountId = ? AND \(Self.unsealedSQL)", arguments: [account])
            try db.execute(sql: "UPDATE account SET versionBytes = versionBytes - ? WHERE id = ?", arguments: [bytes, account])
            return count
        }
    }

    /// Forgets the account's hold on an asset; whether no account holds it now.
    public func dropAsset(hash: String, account: Int64) async throws -> Bool {
        try await writer.write { db in
            if let size = try Int64.fetchOne(db, sql: "DELETE FROM asset WHERE accountId = ? AND hash = ? RETURNING size",
                                             arguments: [account, hash]) {
                try db.execute(sql: "UPDATE account SET assetBytes = assetBytes - ? WHERE id = ?", arguments: [size, account])
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE hash = ?", arguments: [hash]) == 0
        }
    }
}
