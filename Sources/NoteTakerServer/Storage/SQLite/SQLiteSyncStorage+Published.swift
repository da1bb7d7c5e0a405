import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Published pages (docs/sharing.md §5.3): sealed blobs the server keeps for their account and
/// gives to anyone who asks by id.
extension SQLiteSyncStorage {
    public func publishPage(id: String, blob: Data, account: Int64, quota: Int64) async throws {
        try await writer.write { db in
            let now = Date().timeIntervalSince1970
            let held = try Row.fetchOne(db, sql: "SELECT accountId, size FROM published_page WHERE id = ?", arguments: [id])
            if let held, (held["accountId"] as Int64) != account { throw SyncServerError.pageTaken }
            let grown = Int64(blob.count) - (held?["size"] ?? 0)
            let used = try Int64.fetchOne(db, sql: Self.usedBytesSQL, arguments: [account]) ?? 0
            if grown > 0, used + grown > quota { throw SyncServerError.quotaExceeded(used: used, quota: quota) }
            try db.execute(sql: "INSERT OR REPLACE INTO published_page (id, accountId, blob, size, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, account, blob, blob.count, now])
            try db.execute(sql: "UPDATE account SET publishedBytes = publishedBytes + ? WHERE id = ?", arguments: [grown, account])
        }
    }

    public func publishedPages(account: Int64) async throws -> [PublishedPageSummary] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, size, createdAt FROM published_page WHERE accountId = ? ORDER BY createdAt, id",
                             arguments: [account]).map { PublishedPageSummary(id: $0["id"], size: $0["size"], createdAt: $0["createdAt"]) }
        }
    }

    public func unpublishPage(id: String, account: Int64) async throws -> Bool {
        try await writer.write { db in
            guard let size = try Int64.fetchOne(db, sql: "DELETE FROM published_page WHERE id = ? AND accountId = ? RETURNING size",
                                                arguments: [id, account]) else { return false }
            try db.execute(sql: "UPDATE account SET publishedBytes = publishedBytes - ? WHERE id = ?", arguments: [size, account])
            return true
        }
    }

    public func publishedPage(id: String) async throws -> Data? {
        try await writer.read { db in try Data.fetchOne(db, sql: "SELECT blob FROM published_page WHERE id = ?", arguments: [id]) }
    }

    public func publishedPageExists(id: String) async throws -> Bool {
        try await writer.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM published_page WHERE id = ?", arguments: [id]) == true }
    }
}
