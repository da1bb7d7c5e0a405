import Foundation
import GRDB

/// What a move from one store to another took.
public struct StoreTransfer: Sendable, Equatable {
    /// How many folders, notes (trashed ones too) and attachments moved.
    public var folders = 0, notes = 0, attachments = 0
}

/// Moving a folder (with everything in it) or a note from this store to another: into a
/// shared zone's store when it is shared, back out when it is made private again
/// (docs/sharing.md §3.5). Ids, dates, tags, attachments and history go with them.
///
/// Nothing is lost on the way: everything is written to the other store first, in one
/// transaction, and taken from this one only after (a second, deleting what is here, queued
/// to go up as deletions). Stopped between the two, both stores hold the same rows; moving
/// again finds them in place and only deletes them here.
extension NoteStore {
    /// Moves folder `folderId`, its subfolders, their notes (with their tags, attachments and
    /// history, trashed notes too) into `target`, at its top level.
    @discardableResult
    public func moveFolder(_ folderId: UUID, into target: NoteStore) throws(NoteTakerError) -> StoreTransfer {
        let folders: [Folder] = try read { db in
            let ids = try String.fetchSet(db, sql: Self.folderSubtreeSQL, arguments: [folderId.key])
            let rows = try Row.fetchAll(db, sql: "SELECT \(Columns.folder) FROM folder WHERE id IN (SELECT value FROM json_each(?))",
                                        arguments: [Self.jsonArray(Array(ids))])
            return Self.parentsFirst(rows.map(Folder.init(row:)), root: folderId)
        }
        guard !folders.isEmpty else { throw .folderNotFound(folderId.key) }
        for folder in folders {
            var moved = folder
            if folder.id == folderId { moved.parentId = nil }
            _ = try target.importFolder(moved)
        }
        var transfer = try moveNotes(in: NoteSelection(folderId: folderId, includeTrashed: true), into: target, folder: nil)
        transfer.folders = folders.count
        try write { db in
            for folder in folders.reversed() { try RecordWriter.deleteFolder(db, id: folder.id.key) }
        }
        return transfer
    }

    /// Moves note `noteId` (with its tags, attachments and history) into `target`, into its
    /// folder `folder` (`nil`: unfiled there).
    @discardableResult
    public func moveNote(_ noteId: UUID, into target: NoteStore, folder: UUID?) throws(NoteTakerError) -> StoreTransfer {
        _ = try note(id: noteId)
        return try moveNotes(in: NoteSelection(noteId: noteId, includeTrashed: true), into: target, folder: .some(folder))
    }

    /// Moves the notes of `selection` into `target`: each into `folder` when given, else
    /// into the folder of the same id there.
    private func moveNotes(in selection: NoteSelection, into target: NoteStore, folder: UUID??) throws(NoteTakerError) -> StoreTransfer {
        var transfer = StoreTransfer()
        var moved: [UUID] = []
        try forEachNote(in: selection) { (notes: [Note]) throws(NoteTakerError) in
            let items = notes.map { note in
                NoteImport(draft: NoteDraft(
                    title: note.title, body: note.body, isPinned: note.isPinned, folderId: folder ?? note.folderId, tags: note.tags,
                    id: note.id, createdAt: note.createdAt, modifiedAt: note.modifiedAt, trashedAt: note.trashedAt
                ), files: note.attachments.map { attachment in
                    NoteImport.File(id: attachment.id, fileName: attachment.fileName, source: fileURL(for: attachment),
                                    createdAt: attachment.createdAt, expectedSHA256: attachment.contentHash)
                })
            }
            let outcomes = try target.importNotes(items, indexing: .immediately)
            for (note, outcome) in zip(notes, outcomes) {
                // A note found in place (a move stopped halfway) may lack its history still.
                if case .failed(let error) = outcome { throw error }
                try target.takeHistory(try history(of: note.id))
                moved.append(note.id)
                transfer.notes += 1
                transfer.attachments += note.attachments.count
            }
        }
        guard !moved.isEmpty else { return transfer }
        let hashes = try write { db in
            try RecordWriter.purge(db, where: "id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(moved)]).1
        }
        try removeUnreferencedFiles(hashes)
        return transfer
    }

    /// The rows of note `noteId`'s history, oldest first, as kept.
    private func history(of noteId: UUID) throws(NoteTakerError) -> [Row] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT noteId, modifiedAt, replacedAt, replacedBy, title, bodySize, body, isDelta, device, author FROM note_version
                WHERE noteId = ? ORDER BY id
                """, arguments: [noteId.key])
        }
    }

    /// Keeps `rows`, a moved note's history, as it was kept in the store it came from (the
    /// devices and accounts named as they were: both stores are this device's), unless this store holds a
    /// history of the note already (taken by a move stopped halfway); and notes that this
    /// store's server is to be given it (``MovedHistories``).
    private func takeHistory(_ rows: [Row]) throws(NoteTakerError) {
        guard let noteId: String = rows.first?["noteId"] else { return }
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM note_version WHERE noteId = ?", arguments: [noteId]) != true else { return }
            let insert = try db.cachedStatement(sql: """
                INSERT INTO note_version (noteId, modifiedAt, replacedAt, replacedBy, title, bodySize, body, isDelta, device, author)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for row in rows {
                try insert.execute(arguments: [row["noteId"], row["modifiedAt"], row["replacedAt"], row["replacedBy"], row["title"],
                                               row["bodySize"], row["body"], row["isDelta"], row["device"], row["author"]])
            }
            try MovedHistories.mark(db, noteId: noteId)
        }
    }

    /// `folders`, each after its parent, starting with `root`.
    private static func parentsFirst(_ folders: [Folder], root: UUID) -> [Folder] {
        var children: [UUID: [Folder]] = [:]
        for folder in folders { if let parent = folder.parentId { children[parent, default: []].append(folder) } }
        guard var pending = folders.first(where: { $0.id == root }).map({ [$0] }) else { return [] }
        var ordered: [Folder] = []
        while !pending.isEmpty {
            let folder = pending.removeFirst()
            ordered.append(folder)
            pending += children[folder.id] ?? []
        }
        return ordered
    }
}
