import Foundation
import GRDB
import NoteTakerSyncProtocol

/// What the last step of converting an account to end-to-end encryption reads and deletes
/// (docs/encryption.md §2.4).
extension SQLiteSyncStorage {
    /// The SQL condition, on a row's `fields`, that they are not an envelope.
    private static let unsealedSQL = "json_extract(fields, '$.\"\(RecordFields.sealedMarker)\"') IS NULL"

    /// A tag under the id its name gives unkeyed (a version 5 UUID).
    static let unkeyedTagSQL = "recordType = 'tag' AND substr(recordId, 15, 1) = '5'"

    /// How many of the account's records, deletions (and, unless `unkeyedTags`, tags under
    /// unkeyed ids) aside, are not sealed.
    public func unsealedRecordCount(account: Int64, unkeyedTags: Bool) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM record
                WHERE accountId = ? AND NOT deleted AND \(Self.unsealedSQL)\(unkeyedTags ? "" : " AND NOT (\(Self.unkeyedTagSQL))")
                """, arguments: [account]) ?? 0
        }
    }

    /// Deletes the account's plaintext versions, tags under unkeyed ids (their deletions in
    /// plain text as a purge of tombstones does: a device that fetched from before the newest
    /// lists everything again) and kept answers.
    public func dropPlaintextRows(account: Int64) async throws -> PlaintextDropped {
        try await writer.write { db in
            let versions = try Row.fetchAll(db, sql: "DELETE FROM record_version WHERE accountId = ? AND \(Self.unsealedSQL) RETURNING size",
                                            arguments: [account]).map { $0[0] as Int64 }
            let tags = try Row.fetchAll(db, sql: """
                DELETE FROM record WHERE accountId = ? AND \(Self.unkeyedTagSQL)
                RETURNING size, CASE WHEN deleted AND \(Self.unsealedSQL) THEN seq ELSE 0 END AS plainDeletion
                """, arguments: [account])
            let tombstones = tags.map { $0["size"] as Int64 }
            // A purge of the deletions made in plain text (a person's, before the conversion): a
            // device that last fetched before one may have missed it. A sealed one is a rename.
            try db.execute(sql: "UPDATE account SET purgedThrough = MAX(purgedThrough, ?) WHERE id = ?",
                           arguments: [tags.map { $0["plainDeletion"] as Int64 }.max() ?? 0, account])
            let answers = try Int64.fetchOne(db, sql: "SELECT IFNULL(SUM(length(response)), 0) FROM request WHERE accountId = ?",
                                             arguments: [account]) ?? 0
            try db.execute(sql: "DELETE FROM request WHERE accountId = ?", arguments: [account])
            try db.execute(sql: """
                UPDATE account SET versionBytes = versionBytes - ?, recordBytes = recordBytes - ?, answerBytes = answerBytes - ? WHERE id = ?
                """, arguments: [versions.reduce(0, +), tombstones.reduce(0, +), answers, account])
            return PlaintextDropped(versions: versions.count, files: 0, tombstones: tombstones.count)
        }
    }

    /// Deleted rows are zeroed in the database file as they go (`secure_delete`), but the
    /// write-ahead log holds the pages as they were: it is copied into the file and emptied.
    /// The checkpoint waits out readers (the busy timeout); one reading on past it leaves the
    /// log's older pages until a later checkpoint writes over them.
    public func eraseDeletedBytes() async throws {
        try await writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
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
