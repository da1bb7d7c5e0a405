import Foundation
import NoteTakerKit

extension NoteStore {
    /// A note's history in the share `zone`, the versions the server kept of it merged in
    /// first (fetched through the zone's routes, each checked as the zone's records are:
    /// sealed with its key, signed by one who could edit it); `serverProblem` says why they
    /// could not be read. The shared zone's counterpart of ``completeHistory(noteId:)``.
    public func completeSharedHistory(zone: String, noteId: UUID) async throws(NoteTakerError) -> (versions: [NoteVersion], serverProblem: SyncError?) {
        guard let kept = try sharedZone(zone), kept.accepted else { throw .noteNotFound(noteId.key) }
        let store = try sharedZoneStore(kept.zone)
        var problem: SyncError?
        do throws(SyncError) {
            let transport = try syncTransport()
            let (current, members) = try await refreshMembers(of: kept, transport: transport)
            let sealing = try await zoneSealing(current, newest: members, transport: transport)
            try await store.fetchServerHistory(noteId: noteId, transport: transport.inZone(current.zone), sealing: sealing)
        } catch .store(let error) {
            throw error
        } catch {
            problem = error
        }
        return (try store.history(noteId: noteId), problem)
    }
}
