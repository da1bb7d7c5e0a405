import Foundation
import NoteTakerKit

extension NoteStore {
    /// A note's history with the server's versions merged in first when this store syncs;
    /// `serverProblem` says why they could not be read (offline, logged out), `nil` when they
    /// were or when the store does not sync.
    public func completeHistory(noteId: UUID) async throws(NoteTakerError) -> (versions: [NoteVersion], serverProblem: SyncError?) {
        var problem: SyncError?
        do {
            try await fetchServerHistory(noteId: noteId, transport: try syncTransport(), sealing: try syncKeyring().map(RecordSealing.init(keyring:)))
        } catch .notConfigured {
            problem = nil
        } catch .store(let error) {
            throw error
        } catch {
            problem = error
        }
        return (try history(noteId: noteId), problem)
    }
}
