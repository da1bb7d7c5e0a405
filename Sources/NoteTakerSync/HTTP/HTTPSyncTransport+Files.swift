import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NoteTakerSyncProtocol
import NoteTakerKit

/// Attachment files, streamed both ways a megabyte at a time: never whole in memory.
extension HTTPSyncTransport {
    /// Whether the account holds the file with this SHA-256.
    public func assetExists(hash: String) async throws(SyncError) -> Bool {
        try await send(makeRequest(SyncAPI.assetExists, hash: hash), accepting: [200, 404]).1 == 200
    }

    /// Uploads a file under its SHA-256.
    public func uploadAsset(hash: String, from file: URL) async throws(SyncError) {
        try await upload(file, to: hash, query: [])
    }

    /// Replaces the sealed file at `address` with the same file sealed with a newer key.
    public func uploadResealedAsset(address: String, from file: URL) async throws(SyncError) {
        try await upload(file, to: address, query: [URLQueryItem(name: "resealed", value: "true")])
    }

    /// The addresses of one stretch of the account's files sealed below key `sealedBelow`.
    public func keptFiles(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptFilesPage {
        var items = [URLQueryItem(name: "sealedBelow", value: String(sealedBelow))]
        if let after { items.append(URLQueryItem(name: "after", value: after)) }
        return try await json(KeptFilesPage.self, SyncAPI.keptFiles, query: items)
    }

    private func upload(_ file: URL, to hash: String, query: [URLQueryItem]) async throws(SyncError) {
        let handle: FileHandle
        let size: Int64
        do {
            handle = try FileHandle(forReadingFrom: file)
            size = Int64(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
        } catch {
            throw .store(.fileUnreadable(path: file.path, reason: error.localizedDescription))
        }
        defer { try? handle.close() }
        var request = makeRequest(SyncAPI.uploadAsset, hash: hash, query: query)
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .stream(FileChunks(handle: handle), length: .known(size))
        // A file takes as long as it takes; the idle timeout still applies.
        _ = try await send(request, accepting: [200, 204], limit: Self.errorBodyBytes, deadline: .distantFuture)
    }

    /// Downloads a file to disk (never whole into memory), checks its size and SHA-256, and
    /// moves it to `file`; a file over the attachment limit or with another hash is refused.
    public func downloadAsset(hash: String, to file: URL) async throws(SyncError) {
        try await download(hash, to: file, checkingHash: true)
    }

    /// Downloads a sealed file as ``downloadAsset(hash:to:)`` does, checking its size only:
    /// its keyed address is no SHA-256, and opening it authenticates it.
    public func downloadSealedAsset(address: String, to file: URL) async throws(SyncError) {
        try await download(address, to: file, checkingHash: false)
    }

    private func download(_ hash: String, to file: URL, checkingHash: Bool) async throws(SyncError) {
        let staging = file.deletingLastPathComponent().appendingPathComponent(".download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        let response: HTTPClientResponse
        let client = try client()
        do {
            response = try await client.execute(makeRequest(SyncAPI.downloadAsset, hash: hash), deadline: .distantFuture)
        } catch {
            throw SyncHTTPClient.failure(error)
        }
        guard response.status == .ok else {
            let body = (try? await response.body.collect(upTo: Self.errorBodyBytes)).map { Data(buffer: $0) } ?? Data()
            try Self.check(status: Int(response.status.code), body: body, accepting: [200], location: response.headers.first(name: "Location"))
            return
        }
        try await Self.write(response.body, to: staging)
        try Self.verify(staging, hash: checkingHash ? hash : nil)
        do {
            try OwnerOnly.restrict(staging)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            try FileManager.default.moveItem(at: staging, to: file)
        } catch {
            throw .store(.fileWriteFailed(path: file.path, reason: error.localizedDescription))
        }
    }

    /// The most bytes of an error answer read.
    static let errorBodyBytes = 65_536

    /// Writes an answer's body to `file` as it arrives; one over the attachment limit is cut off.
    private static func write(_ body: HTTPClientResponse.Body, to file: URL) async throws(SyncError) {
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = try? FileHandle(forWritingTo: file) else {
            throw .store(.fileWriteFailed(path: file.path, reason: "it could not be created"))
        }
        defer { try? handle.close() }
        var written: Int64 = 0
        do {
            for try await chunk in body {
                written += Int64(chunk.readableBytes)
                guard written <= SyncLimits.maxStoredAssetBytes else { throw tooLargeFile }
                try handle.write(contentsOf: chunk.readableBytesView)
            }
        } catch let error as SyncError {
            throw error
        } catch let error as CocoaError {
            throw .store(.fileWriteFailed(path: file.path, reason: error.localizedDescription))
        } catch {
            throw SyncHTTPClient.failure(error)
        }
    }

    private static let tooLargeFile = SyncError.server(
        code: "tooLarge", message: "The server sent a file larger than any attachment may be; it was not saved.")

    /// Checks a downloaded file's size against the attachment limit and its SHA-256 (unless
    /// `nil`), reading it a megabyte at a time.
    static func verify(_ file: URL, hash: String?) throws(SyncError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        guard size <= SyncLimits.maxStoredAssetBytes else {
            throw .server(code: "tooLarge", message: "The server sent a file of \(SyncError.megabytes(size)), larger than any attachment may be; it was not saved.")
        }
        guard let hash else { return }
        var hasher = SHA256()
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            throw .store(.fileUnreadable(path: file.path, reason: error.localizedDescription))
        }
        let actual = hasher.finalize().lowercaseHex
        guard actual == hash else {
            throw .server(code: "hashMismatch", message: "The downloaded attachment file does not match its SHA-256; it was not saved.")
        }
    }
}

/// An open file's bytes, a megabyte at a time, for a request body to stream.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let handle: FileHandle

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle

        func next() async throws -> ByteBuffer? {
            guard let data = try handle.read(upToCount: 1 << 20), !data.isEmpty else { return nil }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: handle) }
}
