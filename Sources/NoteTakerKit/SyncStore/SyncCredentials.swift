import Foundation
import NoteTakerSyncProtocol

/// The sync session token, kept in a file beside the store that only its owner can read
/// (mode 0600), never in the database. An in-memory store keeps none.
extension NoteStore {
    /// The token file: `<store>.sync-token` beside the database.
    public var syncTokenURL: URL? {
        databaseURL.map { $0.deletingPathExtension().appendingPathExtension("sync-token") }
    }

    /// The saved session token, if logged in.
    public func syncToken() -> String? {
        guard let url = syncTokenURL, let data = try? Data(contentsOf: url) else { return nil }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    /// Saves the session token, readable by its owner only.
    public func saveSyncToken(_ token: String) throws(NoteTakerError) {
        guard let url = syncTokenURL else { return }
        do {
            try OwnerOnly.write(Data(token.utf8), to: url)
        } catch {
            throw .fileWriteFailed(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Deletes the saved token.
    public func removeSyncToken() {
        if let url = syncTokenURL { try? FileManager.default.removeItem(at: url) }
    }
}
