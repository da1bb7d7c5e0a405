import Foundation
import NoteTakerSyncProtocol

extension SyncService {
    /// Whether the account holds the asset with this SHA-256.
    public func assetExists(hash: String, for account: StoredAccount) async throws(SyncServerError) -> Bool {
        try Self.validate(hash: hash)
        return try await storing { try await storage.hasAsset(hash: hash, account: account.id) }
    }

    /// Stores an uploaded file under its SHA-256, checked while it streams in.
    public func storeAsset<Chunks: AsyncSequence>(
        hash: String, chunks: Chunks, for account: StoredAccount
    ) async throws(SyncServerError) where Chunks.Element == [UInt8] {
        try Self.validate(hash: hash)
        if try await assetExists(hash: hash, for: account) { return }
        let used = try await storing { try await storage.usage(account: account.id).bytes }
        try await storing {
            // Over the quota, the upload stops as soon as it is; nothing stays on disk.
            _ = try await assets.store(
                chunks, expectedHash: hash, room: quotaBytes - used, tooMuch: SyncServerError.quotaExceeded(used: used, quota: quotaBytes)
            ) { size in
                try await storage.addAsset(hash: hash, size: size, account: account.id, quota: quotaBytes)
            }
        }
    }

    /// The file of an asset the account holds.
    public func assetFile(hash: String, for account: StoredAccount) async throws(SyncServerError) -> URL {
        guard try await assetExists(hash: hash, for: account) else {
            throw SyncServerError(.notFound, "No attachment file with SHA-256 \(hash) in this account.")
        }
        return assets.url(for: hash)
    }

    static func validate(hash: String) throws(SyncServerError) {
        guard AssetFiles.isValidHash(hash) else {
            throw .badRequest("An asset is addressed by its SHA-256 as 64 lowercase hex digits.")
        }
    }
}
