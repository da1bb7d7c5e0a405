import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/folders`: the sidebar's tree with counts, and its changes.
struct FolderRoutes {
    let stores: WebStores

    /// The body of `POST /folders`.
    struct NewFolder: Decodable {
        var name: String
        var parentId: UUID?
    }

    /// The body of `PATCH /folders/{id}`: a new name or a new parent (`null`: top level).
    struct FolderPatch: Decodable {
        var name: String?
        var parentId: UUID??

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Present, a name is a string: null is not "unchanged" (the document says so).
            name = container.contains(.name) ? try container.decode(String.self, forKey: .name) : nil
            parentId = container.contains(.parentId) ? .some(try container.decodeIfPresent(UUID.self, forKey: .parentId)) : nil
        }

        private enum CodingKeys: String, CodingKey { case name, parentId }
    }

    /// The answer of `GET /folders`: the tree, and the counts the sidebar shows beside it.
    struct Sidebar: Encodable {
        var folders: [FolderJSON]
        var allNotes: Int
        var pinnedNotes: Int
        var recentNotes: Int
        var trashedNotes: Int
    }

    func register(on router: Router<BasicRequestContext>) {
        let folders = router.group("/api/v1/folders")
        folders.get { request, _ in
            let store = try stores.store(for: request)
            let (tree, statistics) = try storeCall { () throws(NoteTakerError) in (try store.folderTree(), try store.statistics()) }
            return try JSON.response(Sidebar(
                folders: tree.map(FolderJSON.init), allNotes: statistics.notes, pinnedNotes: statistics.pinnedNotes,
                recentNotes: statistics.recentNotes, trashedNotes: statistics.trashedNotes))
        }
        folders.post { request, _ in
            let store = try stores.store(for: request)
            let new = try await JSON.decode(NewFolder.self, from: request)
            let folder = try storeCall { () throws(NoteTakerError) in try store.createFolder(name: new.name, parentId: new.parentId) }
            return try JSON.response(try node(folder.id, in: store), status: .created)
        }
        folders.patch(":id") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let patch = try await JSON.decode(FolderPatch.self, from: request)
            if patch.name != nil, patch.parentId != nil {
                throw WebAPIError.invalid("Rename a folder and move it in two requests, so that each either happens or is refused whole.")
            }
            try storeCall { () throws(NoteTakerError) in
                if let parentId = patch.parentId { _ = try store.moveFolder(id: id, toParent: parentId) }
                if let name = patch.name { _ = try store.renameFolder(id: id, to: name) }
                if patch.name == nil, patch.parentId == nil { _ = try store.folder(id: id) }
            }
            return try JSON.response(try node(id, in: store))
        }
        folders.delete(":id") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            try storeCall { () throws(NoteTakerError) in try store.deleteFolder(id: id) }
            return Response(status: .noContent)
        }
    }

    private func node(_ id: UUID, in store: NoteStore) throws(WebAPIError) -> FolderJSON {
        try storeCall { () throws(NoteTakerError) in
            guard let node = try store.folderTree().lazy.compactMap({ $0.find(id) }).first else { throw .folderNotFound(id.uuidString) }
            return FolderJSON(node)
        }
    }
}

extension FolderNode {
    /// This node or the descendant with the id.
    func find(_ id: UUID) -> FolderNode? {
        if folder.id == id { return self }
        return children.lazy.compactMap { $0.find(id) }.first
    }
}
