import Foundation
import NoteTakerSyncProtocol

/// Asset files in a folder, named by their SHA-256 (`assets/ab/abcdef…`): the store beside
/// the SQLite storage.
public struct FileAssetStore: AssetStore {
    /// The folder holding the files.
    public let directory: URL

    /// A store in `directory` (created when the first file arrives).
    public init(directory: URL) {
        self.directory = directory
    }

    /// Where the file for `hash` lives.
    func url(for hash: String) -> URL {
        directory.appendingPathComponent(String(hash.prefix(2)), isDirectory: true).appendingPathComponent(hash)
    }

    /// Streams the upload to a temporary file, then moves it in place once `admit` took it.
    public func store<Chunks: AsyncSequence>(
        _ chunks: Chunks, check: UploadCheck, replacing: Bool, admit: (UploadCheck) async throws -> Void
    ) async throws where Chunks.Element == [UInt8] {
        let incoming = directory.appendingPathComponent("incoming", isDirectory: true)
        try OwnerOnly.createDirectory(at: incoming)
        let temporary = incoming.appendingPathComponent(UUID().uuidString)
        guard OwnerOnly.createFile(at: temporary) else {
            // A full disk is told as such (StorageFailure), not as a failure of the server's own.
            if errno == ENOSPC { throw POSIXError(.ENOSPC) }
            throw SyncServerError(.internalError, "The server could not create a file in its asset folder; nothing was stored.")
        }
        defer { try? FileManager.default.removeItem(at: temporary) }
        let handle = try FileHandle(forWritingTo: temporary)
        var check = check
        do {
            for try await chunk in chunks {
                try check.add(chunk)
                try handle.write(contentsOf: chunk)
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        try check.verify()
        try await admit(check)
        let destination = url(for: check.expectedHash)
        try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
        if replacing {
            // rename(2) puts the new file in place in one step; a reader holding the old one
            // reads it to its end.
            guard rename(temporary.path, destination.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } else if !FileManager.default.fileExists(atPath: destination.path) {
            try FileManager.default.moveItem(at: temporary, to: destination)
        }
    }

    /// The file's first bytes.
    public func prefix(of hash: String, count: Int) async throws -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url(for: hash)) else { return nil }
        defer { try? handle.close() }
        return try handle.read(upToCount: count) ?? Data()
    }

    /// Removes the file, if it is there.
    public func remove(_ hash: String) async throws {
        guard UploadCheck.isValidHash(hash) else { return }
        do {
            try FileManager.default.removeItem(at: url(for: hash))
        } catch CocoaError.fileNoSuchFile {
            return
        }
    }

    /// The file's size, if it is stored.
    public func size(of hash: String) async throws -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url(for: hash).path)[.size] as? NSNumber)?.int64Value
    }

    /// Reads the file in 64 kB pieces.
    public func read(_ hash: String, into piece: (Data) async throws -> Void) async throws {
        let handle = try FileHandle(forReadingFrom: url(for: hash))
        defer { try? handle.close() }
        while let data = try handle.read(upToCount: 1 << 16), !data.isEmpty {
            try await piece(data)
        }
    }
}
