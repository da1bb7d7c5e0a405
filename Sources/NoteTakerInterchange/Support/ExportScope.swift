import Foundation
import NoteTakerKit

/// What an export writes besides notes: the folders (parents first) the selected notes
/// live in, and the whole tree when everything is exported.
struct ExportScope {
    /// Every folder of the store, parents before children, in display order.
    let allFolders: [Folder]
    /// The folders' paths from the top level, by id.
    let paths: [UUID: [String]]

    init(store: NoteStore) throws(InterchangeError) {
        let tree = try storeCall { () throws(NoteTakerError) in try store.folderTree() }
        var folders: [Folder] = []
        var paths: [UUID: [String]] = [:]
        func visit(_ node: FolderNode, _ path: [String]) {
            folders.append(node.folder)
            paths[node.folder.id] = path + [node.folder.name]
            for child in node.children { visit(child, path + [node.folder.name]) }
        }
        for node in tree { visit(node, []) }
        allFolders = folders
        self.paths = paths
    }

    /// The folders to write for `selection` when its notes use `usedFolderIds`: everything
    /// for a whole export; else the used folders, the selected folder's subtree, and their parents.
    func folders(for selection: NoteSelection, usedFolderIds: Set<UUID>) -> [Folder] {
        if selection.folderId == nil, selection.tag == nil, selection.noteId == nil { return allFolders }
        let byId = Dictionary(allFolders.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var wanted = usedFolderIds
        if let root = selection.folderId {
            wanted.formUnion(allFolders.filter { isInside($0.id, root, byId) }.map(\.id))
        }
        for id in wanted {
            var current = byId[id]?.parentId
            while let parent = current, wanted.insert(parent).inserted { current = byId[parent]?.parentId }
        }
        return allFolders.filter { wanted.contains($0.id) }
    }

    private func isInside(_ id: UUID, _ root: UUID, _ byId: [UUID: Folder]) -> Bool {
        var seen = Set<UUID>()
        var current: UUID? = id
        while let folder = current, seen.insert(folder).inserted {
            if folder == root { return true }
            current = byId[folder]?.parentId
        }
        return false
    }
}

/// Calls `body` with the selected notes a batch at a time (see ``NoteStore/forEachNote(in:batchSize:_:)``),
/// letting it fail with an ``InterchangeError``.
func eachNote(
    of store: NoteStore, in selection: NoteSelection, _ body: ([Note]) throws(InterchangeError) -> Void
) throws(InterchangeError) {
    var failure: InterchangeError?
    do throws(NoteTakerError) {
        try store.forEachNote(in: selection) { notes throws(NoteTakerError) in
            do throws(InterchangeError) {
                try body(notes)
            } catch {
                failure = error
                throw NoteTakerError.invalidInput(error.wording)
            }
        }
    } catch {
        throw failure ?? .store(error)
    }
}
