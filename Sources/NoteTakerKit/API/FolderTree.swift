import Foundation
import GRDB

/// Arranges a flat list of folders into a tree. A folder whose parent is missing, or that
/// sits on a cycle (which only a sync race could create), is shown at the top level, so
/// every folder appears exactly once.
struct FolderTree {
    private let byId: [UUID: Folder]
    private let children: [UUID?: [Folder]]

    init(folders: [Folder]) {
        byId = Dictionary(folders.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let byId = self.byId
        var reachable = Set<UUID>()
        var frontier = folders.filter { folder in folder.parentId.map { byId[$0] == nil } ?? true }
        while let next = frontier.popLast() {
            guard reachable.insert(next.id).inserted else { continue }
            frontier += folders.filter { $0.parentId == next.id }
        }
        var children: [UUID?: [Folder]] = [:]
        for folder in folders {
            let parent = reachable.contains(folder.id) ? folder.parentId.flatMap { byId[$0] == nil ? nil : $0 } : nil
            children[parent, default: []].append(folder)
        }
        self.children = children
    }

    /// The folder's slash-separated path from the top level.
    func path(of id: UUID) -> String {
        var names: [String] = []
        var seen = Set<UUID>()
        var current = byId[id]
        while let folder = current, seen.insert(folder.id).inserted {
            names.append(folder.name)
            current = folder.parentId.flatMap { byId[$0] }
        }
        return names.reversed().joined(separator: "/")
    }

    /// The tree, with note counts taken from `directCounts` (notes filed directly in each folder).
    func nodes(directCounts: [UUID: Int]) -> [FolderNode] {
        func build(_ folder: Folder, path: String) -> FolderNode {
            let kids = (children[folder.id] ?? []).map { build($0, path: path + "/" + $0.name) }
            let direct = directCounts[folder.id] ?? 0
            return FolderNode(
                folder: folder, path: path, noteCount: direct,
                totalNoteCount: direct + kids.reduce(0) { $0 + $1.totalNoteCount }, children: kids)
        }
        return (children[nil] ?? []).map { build($0, path: $0.name) }
    }
}

extension NoteStore {
    /// Every folder, as a tree in display order (sort order, then name), with note counts.
    public func folderTree() throws(NoteTakerError) -> [FolderNode] {
        try read { db in try Self.fetchFolderTree(db) }
    }

    /// The slash-separated path of a folder, for example `Work/Projects`.
    public func folderPath(id: UUID) throws(NoteTakerError) -> String {
        try read { db in
            _ = try Self.fetchFolder(db, id: id.key)
            return FolderTree(folders: try Self.fetchAllFolders(db)).path(of: id)
        }
    }

    static func fetchFolderTree(_ db: Database) throws -> [FolderNode] {
        let folders = try fetchAllFolders(db)
        var counts: [UUID: Int] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT folderId, COUNT(*) AS count FROM note
            WHERE trashedAt IS NULL AND folderId IS NOT NULL GROUP BY folderId
            """) {
            if let id = row.uuid("folderId") { counts[id] = row["count"] }
        }
        return FolderTree(folders: folders).nodes(directCounts: counts)
    }
}
