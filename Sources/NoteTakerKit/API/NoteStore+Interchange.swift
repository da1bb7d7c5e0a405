import Foundation
import GRDB

/// Which notes an export takes: everything, a folder with its subfolders, a tag, or one note.
public struct NoteSelection: Sendable, Hashable {
    /// Only notes in this folder or its subfolders.
    public var folderId: UUID?
    /// Only notes carrying this tag (compared case-insensitively).
    public var tag: String?
    /// Only this note.
    public var noteId: UUID?
    /// Whether notes in the trash are taken too.
    public var includeTrashed: Bool

    /// Creates a selection; with no arguments, every note not in the trash.
    public init(folderId: UUID? = nil, tag: String? = nil, noteId: UUID? = nil, includeTrashed: Bool = false) {
        self.folderId = folderId
        self.tag = tag
        self.noteId = noteId
        self.includeTrashed = includeTrashed
    }
}

/// What imports and exports need beyond notes: folders and tags kept as they were, and
/// every selected note read in batches.
extension NoteStore {
    /// Brings a folder in and returns the id of the folder that now stands for it: the one
    /// with this id when it exists, else its parent's subfolder of the same name, else a new
    /// folder with the given id, name, icon, order and dates.
    public func importFolder(_ folder: Folder) throws(NoteTakerError) -> UUID {
        try write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [folder.id.key]) == true {
                return folder.id
            }
            let name = try Self.validatedFolderName(folder.name)
            try Self.validateIcon(folder.icon)
            if let parentId = folder.parentId { _ = try Self.fetchFolder(db, id: parentId.key) }
            let siblings = try Row.fetchAll(
                db, sql: "SELECT id, name FROM folder WHERE parentId IS ?", arguments: [folder.parentId?.key])
            if let same = siblings.first(where: { Self.sameName($0["name"], name) }), let id = same.uuid("id") {
                return id
            }
            try RecordWriter.insertFolder(db, Folder(
                id: folder.id, name: name, icon: folder.icon, sortOrder: folder.sortOrder,
                createdAt: folder.createdAt, modifiedAt: folder.modifiedAt, parentId: folder.parentId))
            return folder.id
        }
    }

    /// Brings tags in: each one missing (by name) is created with its creation date, under the
    /// id this store gives its name (the tags' own ids are not taken).
    public func importTags(_ tags: [Tag]) throws(NoteTakerError) {
        try write { db in
            let identity = try DerivedIdentity.current(db)
            for tag in tags {
                let name = try Self.validatedTagName(tag.name)
                guard try Self.findTag(db, named: name) == nil else { continue }
                try RecordWriter.insertTag(db, Tag(id: identity.tagID(name), name: name, createdAt: tag.createdAt))
            }
        }
    }

    /// Calls `body` with the selected notes, `batchSize` at a time, in the order they were
    /// added to this store, so memory stays flat however many there are.
    public func forEachNote(
        in selection: NoteSelection, batchSize: Int = 250, _ body: ([Note]) throws(NoteTakerError) -> Void
    ) throws(NoteTakerError) {
        var conditions = ["note.rowid > ?"]
        var conditionArguments: StatementArguments = []
        var joins = ""
        var joinArguments: StatementArguments = []
        if !selection.includeTrashed { conditions.append("note.trashedAt IS NULL") }
        if let noteId = selection.noteId {
            conditions.append("note.id = ?")
            conditionArguments += [noteId.key]
        }
        if let folderId = selection.folderId {
            _ = try folder(id: folderId)
            conditions.append("note.folderId IN (\(Self.folderSubtreeSQL))")
            conditionArguments += [folderId.key]
        }
        if let tag = selection.tag {
            let tagId = try read { db in try Self.fetchTag(db, named: tag).id.key }
            joins = "JOIN noteTag ON noteTag.noteId = note.id AND noteTag.tagId = ?"
            joinArguments = [tagId]
        }
        let sql = """
            SELECT \(Columns.note), note.rowid AS position FROM note \(joins)
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY note.rowid LIMIT ?
            """
        var after: Int64 = 0
        while true {
            let page: (notes: [Note], last: Int64?) = try read { db in
                let arguments = joinArguments + [after] + conditionArguments + [batchSize]
                let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
                var notes = rows.map(Note.init(row:))
                try Self.fillAttachments(db, &notes)
                return (notes, rows.last?["position"])
            }
            guard let last = page.last else { return }
            try body(page.notes)
            after = last
        }
    }
}
