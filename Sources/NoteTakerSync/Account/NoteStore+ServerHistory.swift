import Foundation
import NoteTakerKit

/// A note's history on the server, brought into this device's, so a device set up later (or
/// again) sees the versions other devices made before it joined.
extension NoteStore {
    /// Fetches the versions the server kept of a note and adds those this device lacks to its
    /// history, each once, in time order. Returns how many were added.
    @discardableResult
    public func fetchServerHistory(noteId: UUID, transport: any SyncTransport) async throws(SyncError) -> Int {
        let versions = try await transport.recordVersions(noteId)
        do {
            return try mergeServerVersions(noteId: noteId, versions)
        } catch {
            throw .store(error)
        }
    }
}
