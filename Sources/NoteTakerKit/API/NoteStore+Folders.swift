import Foundation
import GRDB

/// Folders: create, rename, move, delete, and the folder tree.
extension NoteStore {
    /// The longest folder name accepted, in characters.
    public static let maximumFolderNameLength = 200
    /// The most bytes of a folder's icon (an emoji or a short symbol name), wherever it comes
    /// from: this device, an import, or another device through sync.
    public static let maximumIconBytes = 200

    /// Creates a folder; without a sort order it goes after its siblings.
    public func createFolder(name: String, parentId: UUID? = nil, icon: String? = nil, sortOrder: Int? = nil) throws(NoteTakerError) -> Folder {
        try write { db in
            let name = try Self.validatedFolderName(name)
            try Self.validateIcon(icon)
            if let parentId { _ = try Self.fetchFolder(db, id: parentId.key) }
            try Self.requireUniqueName(db, name, parentId: parentId?.key, excluding: nil)
            let order = try sortOrder ?? Int.fetchOne(
                db, sql: "SELECT IFNULL(MAX(sortOrder), -1) + 1 FROM folder WHERE parentId IS ?",
                arguments: [parentId?.key]) ?? 0
            let folder = Folder(id: sources.newID(), name: name, icon: icon, sortOrder: order, createdAt: sources.now, parentId: parentId)
            try RecordWriter.insertFolder(db, folder)
            return folder
        }
    }

    /// The folder with this id.
    public func folder(id: UUID) throws(NoteTakerError) -> Folder {
        try read { db in try Self.fetchFolder(db, id: id.key) }
    }

    /// Renames a folder.
    public func renameFolder(id: UUID, to newName: String) throws(NoteTakerError) -> Folder {
        try write { db in
            let folder = try Self.fetchFolder(db, id: id.key)
            let name = try Self.validatedFolderName(newName)
            try Self.requireUniqueName(db, name, parentId: folder.parentId?.key, excluding: id.key)
            try RecordWriter.renameFolder(db, id: id.key, to: name, at: sources.now)
            return try Self.fetchFolder(db, id: id.key)
        }
    }

    /// Moves a folder under another, or to the top level when `parentId` is `nil`.
    ///
    /// - Throws: ``NoteTakerError/folderCycle(folder:target:)`` for a move under the folder
    ///   itself or one of its subfolders.
    public func moveFolder(id: UUID, toParent parentId: UUID?) throws(NoteTakerError) -> Folder {
        try write { db in
            let folder = try Self.fetchFolder(db, id: id.key)
            if let parentId {
                let target = try Self.fetchFolder(db, id: parentId.key)
                let subtree = try String.fetchSet(db, sql: Self.folderSubtreeSQL, arguments: [id.key])
                if subtree.contains(parentId.key) {
                    throw NoteTakerError.folderCycle(folder: folder.name, target: target.name)
                }
            }
            guard folder.parentId != parentId else { return folder }
            try Self.requireUniqueName(db, folder.name, parentId: parentId?.key, excluding: id.key)
            try RecordWriter.moveFolder(db, id: id.key, toParent: parentId?.key, at: sources.now)
            return try Self.fetchFolder(db, id: id.key)
        }
    }

    /// Deletes a folder. Its notes stay, with no folder; its subfolders move up to its parent.
    public func deleteFolder(id: UUID) throws(NoteTakerError) {
        try write { db in
            _ = try Self.fetchFolder(db, id: id.key)
            try RecordWriter.deleteFolder(db, id: id.key)
        }
    }

    /// Finds a folder by path (`Work/Projects`), by name when only one folder has it, or by
    /// id prefix. Names compare case-insensitively.
    public func resolveFolder(_ text: String) throws(NoteTakerError) -> Folder {
        try read { db in
            let folders = try Self.fetchAllFolders(db)
            let segments = text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !segments.isEmpty else { throw NoteTakerError.folderNotFound(text) }
            if segments.count > 1 || text.hasPrefix("/") {
                var parent: UUID?
                var found: Folder?
                for segment in segments {
                    found = folders.first { $0.parentId == parent && Self.sameName($0.name, segment) }
                    guard let next = found else { throw NoteTakerError.folderNotFound(text) }
                    parent = next.id
                }
                guard let found else { throw NoteTakerError.folderNotFound(text) }
                return found
            }
            let named = folders.filter { Self.sameName($0.name, segments[0]) }
            if named.count == 1 { return named[0] }
            if named.count > 1 {
                let paths = FolderTree(folders: folders)
                throw NoteTakerError.ambiguousIdentifier(
                    text, candidates: named.map { "\($0.id.key)  \(paths.path(of: $0.id))" })
            }
            let byId = try Self.idsWithPrefix(db, table: "folder", labelColumn: "name", prefix: text)
            guard byId.count <= 1 else {
                throw NoteTakerError.ambiguousIdentifier(text, candidates: byId.map { "\($0.id.key)  \($0.label)" })
            }
            guard let match = byId.first, let folder = folders.first(where: { $0.id == match.id }) else {
                throw NoteTakerError.folderNotFound(text)
            }
            return folder
        }
    }
}

extension NoteStore {
    /// SQL selecting the ids of a folder (the one argument) and all its subfolders. `UNION`
    /// (not `UNION ALL`) ends even on a cycle that sync might have created.
    static let folderSubtreeSQL = """
        WITH RECURSIVE subtree(id) AS (
            SELECT ? UNION SELECT folder.id FROM folder JOIN subtree ON folder.parentId = subtree.id)
        SELECT id FROM subtree
        """

    static func fetchFolder(_ db: Database, id: String) throws -> Folder {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Columns.folder) FROM folder WHERE id = ?", arguments: [id]) else {
            throw NoteTakerError.folderNotFound(id)
        }
        return Folder(row: row)
    }

    static func fetchAllFolders(_ db: Database) throws -> [Folder] {
        try Row.fetchAll(db, sql: "SELECT \(Columns.folder) FROM folder ORDER BY sortOrder, name COLLATE NOCASE")
            .map(Folder.init(row:))
    }

    static func validatedFolderName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw NoteTakerError.invalidInput(Wording("folderNameEmpty")) }
        guard !trimmed.contains("/"), !trimmed.contains(where: \.isNewline) else {
            throw NoteTakerError.invalidInput(Wording("folderNameInvalid", ["name": trimmed]))
        }
        guard trimmed.count <= maximumFolderNameLength else {
            throw NoteTakerError.invalidInput(Wording("folderNameTooLong", ["maximum": maximumFolderNameLength]))
        }
        return trimmed
    }

    /// Refuses an icon over ``maximumIconBytes``.
    static func validateIcon(_ icon: String?) throws {
        guard let icon, icon.utf8.count > maximumIconBytes else { return }
        throw NoteTakerError.invalidInput(Wording("folderIconTooLong", ["maximum": maximumIconBytes, "given": icon.utf8.count]))
    }

    static func requireUniqueName(_ db: Database, _ name: String, parentId: String?, excluding id: String?) throws {
        let siblings = try Row.fetchAll(
            db, sql: "SELECT id, name FROM folder WHERE parentId IS ?", arguments: [parentId])
        if siblings.contains(where: { $0["id"] != id && sameName($0["name"], name) }) {
            let parentName = try parentId.map { try fetchFolder(db, id: $0).name }
            throw NoteTakerError.folderNameTaken(name: name, parent: parentName)
        }
    }

    static func sameName(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive]) == .orderedSame
    }
}
