import Foundation
import NoteTakerSyncProtocol

extension SyncService {
    /// Whether the account holds the asset with this SHA-256.
    public func assetExists(hash: String, for account: StoredAccount) async throws(SyncServerError) -> Bool {
        try Self.validate(hash: hash)
        return try await storing { try await storage.hasAsset(hash: hash, account: account.id) }
    }

    /// Stores an uploaded file under its SHA-256, checked while it streams in. An end-to-end
    /// encrypted account's files are sealed, under a keyed address (docs/encryption.md §4, §5)
    /// the server cannot check: the devices that open them authenticate them.
    ///
    /// With `resealed`, the upload replaces a sealed file the account holds with the same file
    /// sealed with a newer data key (after a rotation, §2.3): ``APIErrorCode/notFound`` when
    /// the account is not encrypted or holds no such file, ``APIErrorCode/sealedAlready``
    /// when the upload is not sealed with a newer key, or is not the same size.
    public func storeAsset<Chunks: AsyncSequence>(
        hash: String, chunks: Chunks, resealed: Bool = false, for account: StoredAccount
    ) async throws(SyncServerError) where Chunks.Element == [UInt8] {
        try Self.validate(hash: hash)
        if resealed { return try await replaceSealedAsset(hash: hash, chunks: chunks, for: account) }
        if try await assetExists(hash: hash, for: account) { return }
        let used = try await storing { try await storage.usage(account: account.id).bytes }
        let quota = quota(of: account)
        // Over the quota, the upload stops as soon as it is; nothing stays behind.
        let check = UploadCheck(expectedHash: hash, checksContent: !account.encrypted, room: quota - used) { SyncServerError.quotaExceeded(used: used, quota: quota) }
        try await storing {
            try await assets.store(chunks, check: check, replacing: false) { check in
                try await storage.addAsset(hash: hash, size: check.size, account: account.id, quota: quota)
                metrics.assetBytes(check.size, incoming: true)
            }
        }
    }

    /// Replaces a sealed file with the same file sealed with a newer key, when only this
    /// account holds it (a sealed file's address is keyed by the account's own id key).
    private func replaceSealedAsset<Chunks: AsyncSequence>(
        hash: String, chunks: Chunks, for account: StoredAccount
    ) async throws(SyncServerError) where Chunks.Element == [UInt8] {
        try requireKeys(account)
        let (held, holders) = try await storing { (try await storage.hasAsset(hash: hash, account: account.id), try await storage.holders(ofAsset: hash)) }
        guard held, holders == 1, let size = try await storing({ try await assets.size(of: hash) }),
              let head = try await storing({ try await assets.prefix(of: hash, count: UploadCheck.headLength) }) else {
            throw SyncServerError(.notFound, "This account holds no sealed file of its own at \(hash). Nothing was stored.")
        }
        let check = UploadCheck(expectedHash: hash, checksContent: false, room: size) {
            SyncServerError.badRequest("A file sealed again has the size it had (\(size) bytes); this one is larger. Nothing was stored.")
        }
        try await storing {
            try await assets.store(chunks, check: check, replacing: true) { check in
                guard Resealing.acceptsFile(replacing: head, size: size, with: check.head, size: check.size) else {
                    throw SyncServerError(.sealedAlready, "The file at \(hash) is sealed with this data key or a newer one already, or the upload is not the same file sealed again. Nothing was stored.")
                }
                metrics.assetBytes(check.size, incoming: true)
            }
        }
    }

    /// The size of an asset the account holds; its bytes come from ``readAsset(hash:into:)``.
    public func assetSize(hash: String, for account: StoredAccount) async throws(SyncServerError) -> Int64 {
        guard try await assetExists(hash: hash, for: account),
              let size = try await storing({ try await assets.size(of: hash) }) else {
            throw SyncServerError(.notFound, "No attachment file with SHA-256 \(hash) in this account.")
        }
        return size
    }

    /// Hands the bytes of an asset (checked with ``assetSize(hash:for:)``) to `piece`.
    public func readAsset(hash: String, into piece: (Data) async throws -> Void) async throws {
        try await assets.read(hash) { data in
            try await piece(data)
            metrics.assetBytes(Int64(data.count), incoming: false)
        }
    }

    static func validate(hash: String) throws(SyncServerError) {
        guard UploadCheck.isValidHash(hash) else {
            throw .badRequest("An asset is addressed by its SHA-256 as 64 lowercase hex digits.")
        }
    }
}
