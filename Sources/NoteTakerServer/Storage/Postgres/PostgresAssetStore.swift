import Foundation
import NIOCore
import PostgresNIO

/// Asset files in PostgreSQL, in pieces of 1 MB, so that any node serves any file and no
/// file is ever whole in memory (an upload holds one piece at a time, a download reads one
/// piece at a time).
public struct PostgresAssetStore: AssetStore {
    let database: PostgresDatabase
    /// The size of the pieces a file is stored in.
    static let pieceSize = 1 << 20

    /// A store in `database`, whose schema ``PostgresSyncStorage/open(_:)`` made (and
    /// where it removed the uploads a node left unfinished over a day ago).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// Streams the upload into pieces under a blob with no hash; once it checks out and
    /// `admit` took it, the blob gets its hash (or goes, when another upload of the same
    /// file got there first).
    public func store<Chunks: AsyncSequence>(
        _ chunks: Chunks, check: UploadCheck, replacing: Bool, admit: (UploadCheck) async throws -> Void
    ) async throws where Chunks.Element == [UInt8] {
        let started = try await database.query("INSERT INTO asset_blob (started_at) VALUES (\(Date().timeIntervalSince1970)) RETURNING id")
        guard let blob = try await PostgresSyncStorage.first(started, Int64.self) else {
            throw SyncServerError(.internalError, "The server could not start storing a file; nothing was stored.")
        }
        do {
            var check = check
            var piece = ByteBuffer()
            var part: Int32 = 0
            for try await chunk in chunks {
                try check.add(chunk)
                piece.writeBytes(chunk)
                while piece.readableBytes >= Self.pieceSize, let full = piece.readSlice(length: Self.pieceSize) {
                    try await database.query("INSERT INTO asset_chunk (blob_id, part, data) VALUES (\(blob), \(part), \(full))")
                    part += 1
                    piece.discardReadBytes()
                }
            }
            if piece.readableBytes > 0 || part == 0 {
                try await database.query("INSERT INTO asset_chunk (blob_id, part, data) VALUES (\(blob), \(part), \(piece))")
            }
            try check.verify()
            try await admit(check)
            try await database.transaction { connection in
                let logger = database.logger
                try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(check.expectedHash)))", logger: logger)
                if replacing {
                    try await connection.query("DELETE FROM asset_blob WHERE hash = \(check.expectedHash)", logger: logger)
                }
                let existing = try await connection.query("SELECT 1 FROM asset_blob WHERE hash = \(check.expectedHash)", logger: logger)
                if try await PostgresSyncStorage.first(existing, Int32.self) != nil {
                    try await connection.query("DELETE FROM asset_blob WHERE id = \(blob)", logger: logger)
                } else {
                    try await connection.query("UPDATE asset_blob SET hash = \(check.expectedHash), size = \(check.size) WHERE id = \(blob)", logger: logger)
                }
            }
        } catch {
            _ = try? await database.query("DELETE FROM asset_blob WHERE id = \(blob)")
            throw error
        }
    }

    /// Removes the file's blob and its pieces, if it is there.
    public func remove(_ hash: String) async throws {
        try await database.query("DELETE FROM asset_blob WHERE hash = \(hash)")
    }

    /// The file's size, if it is stored.
    public func size(of hash: String) async throws -> Int64? {
        try await PostgresSyncStorage.first(database.query("SELECT size FROM asset_blob WHERE hash = \(hash)"), Int64.self)
    }

    /// The file's first bytes.
    public func prefix(of hash: String, count: Int) async throws -> Data? {
        guard let blob = try await PostgresSyncStorage.first(database.query("SELECT id FROM asset_blob WHERE hash = \(hash)"), Int64.self) else {
            return nil
        }
        return try await PostgresSyncStorage.first(
            database.query("SELECT substring(data FROM 1 FOR \(Int32(count))) FROM asset_chunk WHERE blob_id = \(blob) AND part = 0"), Data.self) ?? Data()
    }

    /// Reads the file a piece at a time.
    public func read(_ hash: String, into piece: (Data) async throws -> Void) async throws {
        guard let blob = try await PostgresSyncStorage.first(database.query("SELECT id FROM asset_blob WHERE hash = \(hash)"), Int64.self) else {
            throw SyncServerError(.notFound, "No attachment file with SHA-256 \(hash) is stored.")
        }
        var part: Int32 = 0
        while let data = try await PostgresSyncStorage.first(
            database.query("SELECT data FROM asset_chunk WHERE blob_id = \(blob) AND part = \(part)"), Data.self) {
            try await piece(data)
            part += 1
        }
    }
}
