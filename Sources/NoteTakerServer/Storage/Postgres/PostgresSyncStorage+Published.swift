import Foundation
import NIOCore
import NoteTakerSyncProtocol
import PostgresNIO

/// Published pages (docs/sharing.md §5.3), as the SQLite storage keeps them.
extension PostgresSyncStorage {
    public func publishPage(id: String, blob: Data, account: Int64, quota: Int64) async throws {
        let logger = database.logger
        try await database.transaction { connection in
            let used = try await Self.first(connection.query(
                "SELECT \(unescaped: Self.usedBytesExpression) FROM account WHERE id = \(account) FOR UPDATE", logger: logger), Int64.self) ?? 0
            var held: (account: Int64, size: Int64)?
            for try await row in try await connection.query(
                "SELECT account_id, size FROM published_page WHERE id = \(id) FOR UPDATE", logger: logger).decode((Int64, Int64).self) {
                held = row
            }
            if let held, held.account != account { throw SyncServerError.pageTaken }
            let grown = Int64(blob.count) - (held?.size ?? 0)
            if grown > 0, used + grown > quota { throw SyncServerError.quotaExceeded(used: used, quota: quota) }
            let now = Date().timeIntervalSince1970
            // A page of that id made by another account meanwhile makes the insert fail on the
            // key: the batch fails, nothing changes.
            try await connection.query("""
                INSERT INTO published_page (id, account_id, blob, size, created_at)
                VALUES (\(id), \(account), \(ByteBuffer(data: blob)), \(Int64(blob.count)), \(now))
                ON CONFLICT (id) DO UPDATE SET blob = EXCLUDED.blob, size = EXCLUDED.size, created_at = EXCLUDED.created_at
                WHERE published_page.account_id = EXCLUDED.account_id
                """, logger: logger)
            try await connection.query("UPDATE account SET published_bytes = published_bytes + \(grown) WHERE id = \(account)", logger: logger)
        }
    }

    public func publishedPages(account: Int64) async throws -> [PublishedPageSummary] {
        var pages: [PublishedPageSummary] = []
        let rows = try await database.query(
            "SELECT id, size, created_at FROM published_page WHERE account_id = \(account) ORDER BY created_at, id")
        for try await (id, size, created) in rows.decode((String, Int64, Double).self) {
            pages.append(PublishedPageSummary(id: id, size: size, createdAt: created))
        }
        return pages
    }

    public func unpublishPage(id: String, account: Int64) async throws -> Bool {
        let rows = try await database.query("""
            WITH gone AS (DELETE FROM published_page WHERE id = \(id) AND account_id = \(account) RETURNING size)
            UPDATE account SET published_bytes = published_bytes - (SELECT size FROM gone)
            WHERE id = \(account) AND EXISTS (SELECT 1 FROM gone) RETURNING 1
            """)
        return try await Self.first(rows, Int32.self) != nil
    }

    public func publishedPage(id: String) async throws -> Data? {
        try await Self.first(database.query("SELECT blob FROM published_page WHERE id = \(id)"), Data.self)
    }

    public func publishedPageExists(id: String) async throws -> Bool {
        try await Self.first(database.query("SELECT 1 FROM published_page WHERE id = \(id)"), Int32.self) != nil
    }
}
