import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Moving a note into a shared folder, out of one, or from one share to another
/// (docs/sharing.md §3.5): into a share, the note is shared with its members; out of it, it is
/// private again. Its tags, files and whole history go with it.
extension NoteStore {
    /// Moves note `noteId` from `source` to `target` (each this account's own notes, `nil`, or
    /// an accepted share's zone), into folder `folder` there: `nil` puts it at the shared
    /// folder's top (a share) or unfiled (the account's own notes). Returns the note where it
    /// now is.
    ///
    /// The note's history is first completed with the versions the server kept of it (so
    /// this device holds all of it), which needs the server; then the note, its tags, files
    /// and history are written into the target's store and only after deleted from the
    /// source's (``moveNote(_:into:folder:)``). The next sync sends both: the shares first.
    ///
    /// - Throws: ``SyncError/noSuchShare(_:)`` for a share not accepted here,
    ///   ``SyncError/viewOnlyShare`` when this account may only view either share,
    ///   ``SyncError/sharedNoteItself`` for the note a share is, ``SyncError/intoSharedNote``
    ///   into a share of one note, ``NoteTakerError/noteInTrash(_:)`` for a trashed note,
    ///   ``NoteTakerError/folderNotFound(_:)`` for a folder not in the target, and the
    ///   server's error when the note's history could not be read from it; nothing is moved.
    @discardableResult
    public func moveNote(_ noteId: UUID, from source: String?, to target: String?, folder: UUID?) async throws(SyncError) -> Note {
        let from = try movableZone(source)
        let into = try movableZone(target)
        if let from, from.root.kind == "note" || from.root.id == noteId.key { throw .sharedNoteItself }
        if let into, into.root.kind == "note" { throw .intoSharedNote }
        let sourceStore = try placeStore(from)
        let targetStore = try placeStore(into)
        let destination = folder ?? into.flatMap { UUID(key: $0.root.id) }
        do throws(NoteTakerError) {
            let note = try sourceStore.note(id: noteId)
            guard note.trashedAt == nil else { throw .noteInTrash(noteId.key) }
            if let destination { _ = try targetStore.folder(id: destination) }
            if from?.zone == into?.zone { return try sourceStore.moveNote(id: noteId, toFolder: destination) }
        } catch {
            throw .store(error)
        }
        try await completeHistoriesBeforeMoving([noteId], in: sourceStore, zone: from)
        do {
            try sourceStore.moveNote(noteId, into: targetStore, folder: destination)
            return try targetStore.note(id: noteId)
        } catch {
            throw .store(error)
        }
    }

    /// The accepted share `zone` names, one this account may change; `nil` for its own notes.
    private func movableZone(_ zone: String?) throws(SyncError) -> SharedZone? {
        guard let zone else { return nil }
        let kept: SharedZone?
        do { kept = try sharedZone(zone.lowercased()) } catch { throw .store(error) }
        guard let kept, kept.accepted else { throw .noSuchShare(zone) }
        guard kept.writable else { throw .viewOnlyShare }
        return kept
    }

    private func placeStore(_ zone: SharedZone?) throws(SyncError) -> NoteStore {
        guard let zone else { return self }
        do { return try sharedZoneStore(zone.zone) } catch { throw .store(error) }
    }

    /// Brings the versions the server kept of the notes a new share takes (the folder's, with
    /// its subfolders' and trashed ones, or the one note) into this store's history.
    func completeHistoriesBeforeMoving(_ root: ShareMembers.Root) async throws(SyncError) {
        guard let id = UUID(key: root.id) else { return }
        var notes: [UUID] = []
        let selection = root.kind == "folder" ? NoteSelection(folderId: id, includeTrashed: true) : NoteSelection(noteId: id, includeTrashed: true)
        do { try forEachNote(in: selection) { notes += $0.map(\.id) } } catch { throw .store(error) }
        try await completeHistoriesBeforeMoving(notes, in: self, zone: nil)
    }

    /// Brings the versions the server of `zone` (`nil`: the account's own notes) kept of
    /// `notes` into `store`'s history, so that a move takes the whole of it: the server drops
    /// them with a note's deletion from the zone it leaves. A note the server does not hold
    /// (never synced) has none there. A hundred notes are asked for at once
    /// (``VersionsQuery/maximumCount``), those the server leaves for later again.
    private func completeHistoriesBeforeMoving(_ notes: [UUID], in store: NoteStore, zone: SharedZone?) async throws(SyncError) {
        guard !notes.isEmpty else { return }
        var transport = try syncTransport()
        let sealing: (any RecordSealer)?
        if let zone {
            let (current, members) = try await refreshMembers(of: zone, transport: transport)
            sealing = try await zoneSealing(current, newest: members, transport: transport)
            transport = transport.inZone(current.zone)
        } else {
            sealing = try syncKeyring().map(RecordSealing.init(keyring:))
        }
        var pending = notes[...]
        var unread: [UUID] = []
        while !unread.isEmpty || !pending.isEmpty {
            let asking = unread.isEmpty ? Array(pending.prefix(VersionsQuery.maximumCount)) : unread
            if unread.isEmpty { pending = pending.dropFirst(asking.count) }
            let answer = try await transport.notesVersions(asking)
            for note in answer.notes { try store.mergeServerHistory(noteId: note.recordId, note.versions, sealing: sealing) }
            // The server reads one note at least: what it left is fewer each time.
            guard answer.unread.count < asking.count else {
                throw .server(code: "badResponse", message: "The server's answer was not what the sync API promises (it read none of the notes' histories asked for).")
            }
            unread = answer.unread
        }
    }
}
