import Foundation
import NoteTakerSyncProtocol
import PostgresNIO

/// What the last step of converting an account to end-to-end encryption reads and deletes
/// (docs/encryption.md §2.4).
extension PostgresSyncStorage {
    /// How many of the account's records, deletions aside, are not sealed.
    public func unsealedRecordCount(account: Int64) async throws -> Int {
        Int(try await Self.first(database.query("""
            SELECT COUNT(*) FROM record
            WHERE account_id = \(account) AND NOT deleted AND NOT jsonb_exists(fields::jsonb, \(RecordFields.sealedMarker))
            """), Int64.self) ?? 0)
    }

    /// Deletes the account's kept versions that are not sealed; the usage follows. The
    /// account's row is locked first, as a batch locks it.
    public func dropUnsealedVersions(account: Int64) async throws -> Int {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query("SELECT 1 FROM account WHERE id = \(account) FOR UPDATE", logger: logger)
            var (count, bytes): (Int64, Int64) = (0, 0)
            let rows = try await connection.query("""
                DELETE FROM record_version
                WHERE account_id = \(account) AND NOT jsonb_exists(fields::jsonb, \(RecordFields.sealedMarker)) RETURNING size
                """, logger: logger)
            for try await size in rows.decode(Int64.self) {
                count += 1
                bytes += size
            }
            try await connection.query("UPDATE account SET version_bytes = version_bytes - \(bytes) WHERE id = \(account)", logger: logger)
            return Int(count)
        }
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
