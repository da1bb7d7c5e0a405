import Crypto
import Foundation
import NoteTakerSyncProtocol

/// Where the bytes of attachment files live, named by their SHA-256; a file is stored once
/// however many accounts hold it. Which account may read which file is the
/// ``SyncStorage``'s to keep.
public protocol AssetStore: Sendable {
    /// Streams an upload in, checking it as it comes (``UploadCheck``); once it checks out,
    /// `admit` records it for its account (the quota is checked there) and the file becomes
    /// readable. A wrong hash, an upload over its room or one `admit` refuses leaves nothing
    /// readable behind. With `replacing`, the upload takes the place of the file stored under
    /// its address (a sealed file sealed again, docs/encryption.md §2.3), at once for every
    /// reader after; else a file already there is kept.
    func store<Chunks: AsyncSequence>(
        _ chunks: Chunks, check: UploadCheck, replacing: Bool, admit: (UploadCheck) async throws -> Void
    ) async throws where Chunks.Element == [UInt8]

    /// The first `count` bytes of the file with this SHA-256 (fewer when it is shorter), or
    /// `nil` when none is stored.
    func prefix(of hash: String, count: Int) async throws -> Data?

    /// The size of the file with this SHA-256, or `nil` when none is stored.
    func size(of hash: String) async throws -> Int64?

    /// Hands the file's bytes to `piece` in order, a piece at a time (never the whole file).
    func read(_ hash: String, into piece: (Data) async throws -> Void) async throws
    /// Removes a file's bytes (once no account holds it); a missing file is no error.
    func remove(_ hash: String) async throws
}

/// Checks an upload while it streams in: its size against the limits, then its SHA-256
/// against the address it was sent to.
public struct UploadCheck {
    /// The upload's address: the SHA-256 it must have (lowercase hex), or for a sealed file
    /// of an end-to-end encrypted account, a keyed hash the server cannot check
    /// (docs/encryption.md §4), which the devices that open the file authenticate.
    public let expectedHash: String
    /// Whether ``expectedHash`` is the upload's SHA-256, checked (not for a sealed file).
    let checksContent: Bool
    /// The most bytes the account has room for.
    let room: Int64
    /// The error to throw once the upload outgrows ``room``.
    let tooMuch: @Sendable () -> any Error
    private var hasher = SHA256()
    /// The bytes seen so far.
    public private(set) var size: Int64 = 0
    /// The upload's first bytes, up to ``headLength``: a sealed file's format and key version.
    public private(set) var head: [UInt8] = []
    /// How many first bytes ``head`` keeps.
    static let headLength = 8

    init(expectedHash: String, checksContent: Bool = true, room: Int64, tooMuch: @escaping @Sendable () -> any Error) {
        self.expectedHash = expectedHash
        self.checksContent = checksContent
        self.room = room
        self.tooMuch = tooMuch
    }

    /// Counts and hashes the next piece; throws as soon as the upload is too large.
    mutating func add(_ chunk: [UInt8]) throws {
        size += Int64(chunk.count)
        if size > SyncLimits.maxStoredAssetBytes {
            throw SyncServerError(.tooLarge, "Attachment too large. Maximum size is 250MB.")
        }
        if size > room { throw tooMuch() }
        if head.count < Self.headLength { head += chunk.prefix(Self.headLength - head.count) }
        hasher.update(data: chunk)
    }

    /// Checks the whole upload's SHA-256.
    func verify() throws {
        guard checksContent else { return }
        let actual = hasher.finalize().lowercaseHex
        guard actual == expectedHash else {
            throw SyncServerError(.hashMismatch, "The uploaded file's SHA-256 is \(actual), not \(expectedHash) as its address says. Nothing was stored.")
        }
    }

    /// Whether `hash` is a lowercase hex SHA-256 (so it is safe as a file name or key).
    static func isValidHash(_ hash: String) -> Bool {
        hash.count == 64 && hash.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }
}
