import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// A note's history on the server, brought into this device's, so a device set up later (or
/// again) sees the versions other devices made before it joined.
extension NoteStore {
    /// Fetches the versions the server kept of a note and adds those this device lacks to its
    /// history, each once, in time order. Returns how many were added.
    ///
    /// For an account with end-to-end encryption, or a shared zone (`sealing`), each version is
    /// opened first; one that does not open (changed on the server, not sealed, or in a shared
    /// zone not signed by one who may edit it) is left out.
    @discardableResult
    public func fetchServerHistory(noteId: UUID, transport: any SyncTransport, sealing: (any RecordSealer)? = nil) async throws(SyncError) -> Int {
        try mergeServerHistory(noteId: noteId, try await transport.recordVersions(noteId), sealing: sealing)
    }

    /// Adds those of `versions`, the server's of a note, that this device lacks to its history,
    /// each opened with `sealing` first when given (one that does not open is left out).
    @discardableResult
    func mergeServerHistory(noteId: UUID, _ versions: [RecordVersion], sealing: (any RecordSealer)?) throws(SyncError) -> Int {
        var versions = versions
        if let sealing {
            versions = versions.compactMap { version in
                guard case .success(let (fields, _)) = sealing.open(version.fields, recordType: SyncRecordType.note.rawValue, recordId: noteId, seen: nil) else { return nil }
                var opened = version
                opened.fields = fields
                return opened
            }
        }
        do {
            return try mergeServerVersions(noteId: noteId, versions)
        } catch {
            throw .store(error)
        }
    }
}
