import Crypto
import Foundation
import NoteTakerSyncProtocol

/// The attachment files beside the database, each named by the SHA-256 of its content, so
/// the same bytes are stored once. Paths are built from hashes only, never from user names.
package struct AttachmentFiles {
    /// The folder holding the files (two-character subfolders by hash prefix).
    let directory: URL

    /// What storing a file found out about it.
    struct Stored {
        var contentHash: String
        var size: Int64
        var header: [UInt8]
    }

    private static let chunkSize = 1 << 20

    /// Whether `hash` is a well-formed content hash (64 lowercase hex digits).
    static func isValidHash(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Where the file with this content hash lives.
    package func url(forHash hash: String) -> URL {
        directory
            .appendingPathComponent(String(hash.prefix(2)), isDirectory: true)
            .appendingPathComponent(hash)
    }

    /// Copies the file at `source` into the store, streaming (memory stays flat), hashing on
    /// the way. Refuses files over ``Attachment/maximumSize`` before reading them.
    func store(from source: URL, fileName: String) throws(NoteTakerError) -> Stored {
        let path = source.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileUnreadable(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .fileUnreadable(path: path, reason: "it is a folder, not a file") }
        let declaredSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        guard declaredSize <= Attachment.maximumSize else {
            throw .attachmentTooLarge(fileName: fileName, size: declaredSize)
        }
        let incoming = directory.appendingPathComponent(".incoming-\(UUID().uuidString)")
        do {
            try OwnerOnly.createDirectory(at: directory)
            guard OwnerOnly.createFile(at: incoming) else {
                throw NoteTakerError.fileWriteFailed(path: incoming.path, reason: "cannot create a file there")
            }
            defer { try? FileManager.default.removeItem(at: incoming) }
            let stored = try copyHashing(from: source, to: incoming, fileName: fileName)
            let destination = url(forHash: stored.contentHash)
            if !FileManager.default.fileExists(atPath: destination.path) {
                try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
                try FileManager.default.moveItem(at: incoming, to: destination)
            }
            return stored
        } catch let error as NoteTakerError {
            throw error
        } catch {
            throw .fileWriteFailed(path: directory.path, reason: error.localizedDescription)
        }
    }

    private func copyHashing(from source: URL, to destination: URL, fileName: String) throws -> Stored {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: source)
        } catch {
            throw NoteTakerError.fileUnreadable(path: source.path, reason: error.localizedDescription)
        }
        defer { try? input.close() }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var hasher = SHA256()
        var size: Int64 = 0
        var header: [UInt8] = []
        while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
            size += Int64(chunk.count)
            guard size <= Attachment.maximumSize else {
                throw NoteTakerError.attachmentTooLarge(fileName: fileName, size: size)
            }
            if header.count < 16 { header += chunk.prefix(16 - header.count) }
            hasher.update(data: chunk)
            try output.write(contentsOf: chunk)
        }
        try output.synchronize()
        let hash = hasher.finalize().lowercaseHex
        return Stored(contentHash: hash, size: size, header: header)
    }

    /// Where the thumbnail of the picture with this content hash is kept (see ``Thumbnailer``).
    func thumbnailURL(forHash hash: String) -> URL {
        directory.appendingPathComponent("thumbnails", isDirectory: true).appendingPathComponent(hash + ".jpg")
    }

    /// Deletes the file with this hash, and its thumbnail, if they are there.
    func remove(hash: String) throws(NoteTakerError) {
        guard Self.isValidHash(hash) else { return }
        for file in [url(forHash: hash), thumbnailURL(forHash: hash)] where FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw .fileWriteFailed(path: file.path, reason: error.localizedDescription)
            }
        }
    }
}
