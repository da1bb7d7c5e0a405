import Foundation
import GRDB

/// Folders' rows, as this device changes them.
///
/// Deleting a folder never deletes notes: its notes are left with no folder, and its
/// subfolders (with their notes) move up to take its place under its parent.
extension RecordWriter {
    /// Inserts a folder row and its outbox entry (name and parent are checked by the caller).
    static func insertFolder(_ db: Database, _ folder: Folder) throws {
        try db.execute(
            sql: """
                INSERT INTO folder (id, name, icon, sortOrder, createdAt, modifiedAt, parentId)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [folder.id.key, folder.name, folder.icon, folder.sortOrder,
                        folder.createdAt.storageValue, folder.modifiedAt.storageValue, folder.parentId?.key])
        try Outbox.append(db, .folder, folder.id.key)
    }

    /// Renames a folder at `date` (the name is checked by the caller).
    static func renameFolder(_ db: Database, id: String, to name: String, at date: Date) throws {
        try db.execute(sql: "UPDATE folder SET name = ?, modifiedAt = ? WHERE id = ?", arguments: [name, date.storageValue, id])
        try Outbox.record(db, .folder, id)
    }

    /// Moves a folder under another (`nil`: to the top level) at `date` and refreshes the
    /// search fields of the notes in it and below. The caller checks that the move makes no
    /// cycle; the move replaces a parent asked for and not shown (``FolderCycles``).
    static func moveFolder(_ db: Database, id: String, toParent parentId: String?, at date: Date) throws {
        let notes = try String.fetchAll(db, sql: "SELECT id FROM note WHERE folderId IN (\(NoteStore.folderSubtreeSQL))", arguments: [id])
        try db.execute(sql: "UPDATE folder SET parentId = ?, modifiedAt = ? WHERE id = ?", arguments: [parentId, date.storageValue, id])
        try Outbox.record(db, .folder, id)
        try SearchFields.refresh(db, noteIds: notes)
        try FolderCycles.settle(db)
    }

    /// Shows a folder under `parent` (`nil`: at the top level) with no change of its own: the
    /// parent its record asks for stays `askedFor`, kept as a reference while another is shown
    /// (``FolderCycles``). Refreshes the search fields of the notes in it and below.
    static func showFolder(_ db: Database, id: String, under parent: String?, askedFor: String) throws {
        try db.execute(sql: "UPDATE folder SET parentId = ? WHERE id = ?", arguments: [parent, id])
        if parent != askedFor { try UnresolvedReferences.keep(db, .parent, of: id, targets: [askedFor]) }
        let notes = try String.fetchAll(db, sql: "SELECT id FROM note WHERE folderId IN (\(NoteStore.folderSubtreeSQL))", arguments: [id])
        try SearchFields.refresh(db, noteIds: notes)
    }

    /// Deletes a folder here and queues its deletion (see ``removeFolder(_:id:)``).
    static func deleteFolder(_ db: Database, id: String) throws {
        try removeFolder(db, id: id)
        try Outbox.record(db, .folder, id, .delete)
    }

    /// Removes a folder's row, deleted here or elsewhere alike: its subfolders move up to its
    /// parent and its notes are left unfiled. Those are changes the software makes, so they
    /// go up *derived* (see ``Outbox``): every device agrees on them even if the folder comes
    /// back because someone edited it meanwhile, and they never outrank a person's change,
    /// such as another device's deletion of a subfolder or a note.
    static func removeFolder(_ db: Database, id: String) throws {
        let affectedNotes = try String.fetchAll(db, sql: "SELECT id FROM note WHERE folderId IN (\(NoteStore.folderSubtreeSQL))", arguments: [id])
        let subfolders = try String.fetchAll(db, sql: "SELECT id FROM folder WHERE parentId = ?", arguments: [id])
        let notes = try String.fetchAll(db, sql: "SELECT id FROM note WHERE folderId = ?", arguments: [id])
        try db.execute(sql: "UPDATE folder SET parentId = (SELECT parentId FROM folder WHERE id = ?1) WHERE parentId = ?1", arguments: [id])
        try db.execute(sql: "UPDATE note SET folderId = NULL WHERE folderId = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM folder WHERE id = ?", arguments: [id])
        for folder in subfolders { try Outbox.record(db, .folder, folder, derived: true) }
        // A folder shown at the top level that asked for this one as its parent stays there.
        for (type, holder) in try UnresolvedReferences.forget(db, deleted: id) { try Outbox.record(db, type, holder, derived: true) }
        for note in notes { try Outbox.record(db, .note, note, derived: true) }
        try SearchFields.refresh(db, noteIds: affectedNotes)
    }
}
