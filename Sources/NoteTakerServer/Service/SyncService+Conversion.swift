import Foundation
import NoteTakerSyncProtocol

/// The last step of converting an account that holds notes to end-to-end encryption
/// (docs/encryption.md §2.4): once the converting device has sent every record again sealed,
/// and sealed the kept versions, the server deletes what it still holds in plain text.
extension SyncService {
    /// Deletes the account's kept note versions that are not sealed, its tags under unkeyed
    /// ids (tombstones, or a copy a batch whose answer was lost left; a deletion in plain text
    /// as a purge, so that a device that fetched from before it lists everything), its kept
    /// batch answers, and its files kept in plain text (their header names no data key): the
    /// account's hold on each, and the bytes when no other account holds them. The server
    /// reads 8 bytes of each file, as a listing of files to seal again does.
    ///
    /// - Throws: ``APIErrorCode/notFound`` for an account without encryption;
    ///   ``APIErrorCode/unsealedRecords`` while any record the account holds, tags under
    ///   unkeyed ids aside, is not sealed (nothing is deleted: the conversion is not finished).
    public func dropPlaintext(for account: StoredAccount) async throws(SyncServerError) -> PlaintextDropped {
        try requireKeys(account)
        let unsealed = try await storing { try await storage.unsealedRecordCount(account: account.id, unkeyedTags: false) }
        guard unsealed == 0 else {
            throw SyncServerError(.unsealedRecords, "\(unsealed) of this account's records are not sealed yet: sync from the converting device, then try again. Nothing was deleted.")
        }
        var dropped = try await storing { try await storage.dropPlaintextRows(account: account.id) }
        var after: String?
        repeat {
            let stretch = try await storing { try await storage.assets(account: account.id, after: after, limit: KeptFilesPage.maximumStretch) }
            for address in stretch {
                guard let head = try await storing({ try await assets.prefix(of: address, count: UploadCheck.headLength) }),
                      Resealing.keyVersion(fileHead: head) == 0 else { continue }
                if try await storing({ try await storage.dropAsset(hash: address, account: account.id) }) {
                    try await storing { try await assets.remove(address) }
                }
                dropped.files += 1
            }
            after = stretch.count == KeptFilesPage.maximumStretch ? stretch.last : nil
        } while after != nil
        // A checkpoint a long read holds off fails no drop: the plaintext is deleted, and a
        // later checkpoint writes over the old pages.
        try? await storage.eraseDeletedBytes()
        return dropped
    }
}
