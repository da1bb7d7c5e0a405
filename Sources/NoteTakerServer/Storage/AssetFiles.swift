import Crypto
import Foundation
import NoteTakerSyncProtocol

/// Asset files on disk, named by their SHA-256 (`assets/ab/abcdef…`). Which account may read
/// which file is kept by the storage; a file is stored once however many accounts hold it.
struct AssetFiles: Sendable {
    let directory: URL

    /// Whether `hash` is a lowercase hex SHA-256 (so it is safe as a file name).
    static func isValidHash(_ hash: String) -> Bool {
        hash.count == 64 && hash.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// Where the file for `hash` lives.
    func url(for hash: String) -> URL {
        directory.appendingPathComponent(String(hash.prefix(2)), isDirectory: true).appendingPathComponent(hash)
    }

    /// Streams `chunks` to a temporary file, checking size and hash, lets `admit` record the
    /// file (the account's quota is checked there), then moves it in place. Returns the size.
    /// A wrong hash, an upload over `room` bytes (``tooMuch`` is thrown as soon as it is) or
    /// one `admit` refuses leaves nothing behind.
    func store<Chunks: AsyncSequence>(
        _ chunks: Chunks, expectedHash: String, room: Int64, tooMuch: @autoclosure () -> any Error,
        admit: (Int64) async throws -> Void
    ) async throws -> Int64 where Chunks.Element == [UInt8] {
        let incoming = directory.appendingPathComponent("incoming", isDirectory: true)
        try OwnerOnly.createDirectory(at: incoming)
        let temporary = incoming.appendingPathComponent(UUID().uuidString)
        guard OwnerOnly.createFile(at: temporary) else {
            throw SyncServerError(.internalError, "The server could not create a file in its asset folder; nothing was stored.")
        }
        defer { try? FileManager.default.removeItem(at: temporary) }
        let handle = try FileHandle(forWritingTo: temporary)
        var hasher = SHA256()
        var size: Int64 = 0
        do {
            for try await chunk in chunks {
                size += Int64(chunk.count)
                if size > SyncLimits.maxAssetBytes {
                    throw SyncServerError(.tooLarge, "Attachment too large. Maximum size is 250MB.")
                }
                if size > room { throw tooMuch() }
                hasher.update(data: chunk)
                try handle.write(contentsOf: chunk)
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        let actual = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        guard actual == expectedHash else {
            throw SyncServerError(.hashMismatch, "The uploaded file's SHA-256 is \(actual), not \(expectedHash) as its address says. Nothing was stored.")
        }
        try await admit(size)
        let destination = url(for: expectedHash)
        try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
        if !FileManager.default.fileExists(atPath: destination.path) {
            try FileManager.default.moveItem(at: temporary, to: destination)
        }
        return size
    }
}
