import Foundation
import NoteTakerKit

/// Attachment files at the engine's edge (docs/encryption.md §4, §5): with
/// ``SyncEngine/Options/sealing`` set, a file goes up sealed a chunk at a time under a keyed
/// address, and comes down opened, checked against the SHA-256 its attachment names; without
/// it, a file travels as it is, under its SHA-256.
extension SyncEngine {
    /// The address the server keeps the file with this SHA-256 under.
    func storedAddress(ofFile hash: String) throws(SyncError) -> String {
        guard let sealing = options.sealing else { return hash }
        guard let address = sealing.fileAddress(forHash: hash) else {
            throw .store(.database("An attachment names a malformed content hash (\(hash)); its file was not sent."))
        }
        return address
    }

    /// Uploads `file` to the server's `address`: sealed first into a file beside it, for an
    /// encrypted account. With `resealed`, in place of the file sealed with an older key there.
    func upload(_ file: URL, to address: String, resealed: Bool = false) async throws(SyncError) {
        guard let sealing = options.sealing else { return try await transport.uploadAsset(hash: address, from: file) }
        let sealed = file.deletingLastPathComponent().appendingPathComponent(".\(address).sealed-upload")
        defer { try? FileManager.default.removeItem(at: sealed) }
        do {
            try sealing.sealFile(at: file, to: sealed, address: address)
        } catch {
            throw .store(.fileWriteFailed(path: sealed.path, reason: error.localizedDescription))
        }
        if resealed {
            try await transport.uploadResealedAsset(address: address, from: sealed)
        } else {
            try await transport.uploadAsset(hash: address, from: sealed)
        }
    }

    /// Downloads the file with SHA-256 `hash` to `destination`. For an encrypted account it
    /// is opened from a file beside it, and `false` (nothing at `destination`) says it did not
    /// open, or was another file.
    func download(_ hash: String, to destination: URL) async throws(SyncError) -> Bool {
        guard let sealing = options.sealing else {
            try await transport.downloadAsset(hash: hash, to: destination)
            return true
        }
        let address = try storedAddress(ofFile: hash)
        let sealed = destination.deletingLastPathComponent().appendingPathComponent(".\(address).sealed-download")
        defer { try? FileManager.default.removeItem(at: sealed) }
        try await transport.downloadSealedAsset(address: address, to: sealed)
        do {
            try sealing.openFile(at: sealed, to: destination, address: address, hash: hash)
        } catch is EncryptionError {
            return false
        } catch {
            throw .store(.fileWriteFailed(path: destination.path, reason: error.localizedDescription))
        }
        return true
    }
}
