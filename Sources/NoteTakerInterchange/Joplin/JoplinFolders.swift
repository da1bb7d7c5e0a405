import Foundation
import NoteTakerKit

/// Joplin's notebooks made folders, each under the folder of its parent notebook: a parent
/// first, whatever order the export lists them in. A notebook in Joplin's trash is not made
/// (its notes go to the trash unfiled); one whose parent is not in the export, or that would
/// be its own ancestor, goes at the top.
struct JoplinFolders {
    private var made: [String: UUID] = [:]

    /// Makes the folders of `catalog`'s notebooks in `store` (or finds those an earlier import
    /// made).
    init(catalog: JoplinCatalog, store: NoteStore, identity: DerivedIdentity) throws(InterchangeError) {
        var settled: Set<String> = []
        for id in catalog.folders.keys.sorted() {
            // The notebook and its ancestors not made yet, from it upwards.
            var chain: [String] = [], current: String? = id
            while let next = current, !settled.contains(next), let folder = catalog.folders[next] {
                settled.insert(next)
                chain.append(next)
                current = folder.reference("parent_id")
            }
            for next in chain.reversed() {
                guard let folder = catalog.folders[next], folder.date("deleted_time") == nil else { continue }
                let created = folder.userDate("created_time") ?? Date()
                made[next] = try storeCall { () throws(NoteTakerError) in
                    try store.importFolder(Folder(
                        id: identity.importedID("joplin:\(next)"), name: Self.name(folder.title), icon: Self.emoji(folder.fields["icon"]),
                        createdAt: created, modifiedAt: folder.userDate("updated_time"),
                        parentId: folder.reference("parent_id").flatMap { made[$0] }))
                }
            }
        }
    }

    /// The folder that stands for the notebook with Joplin id `id`, if it was made.
    func id(_ id: String) -> UUID? {
        made[id]
    }

    /// A notebook's title as a folder name: a slash (which separates folders in a path) and
    /// line breaks written otherwise, and cut to the longest name a folder may have.
    static func name(_ title: String) -> String {
        let cleaned = title.map { $0 == "/" ? "∕" : $0.isNewline ? " " : $0 }
        let name = String(String(cleaned).trimmingCharacters(in: .whitespaces).prefix(NoteStore.maximumFolderNameLength))
        return name.isEmpty ? "Untitled" : name
    }

    /// The emoji of a notebook's icon (`{"emoji":"📓","name":"notebook","type":1}`), `nil`
    /// when it has none (an icon Joplin keeps as a picture is not kept).
    static func emoji(_ icon: String?) -> String? {
        guard let icon, !icon.isEmpty, var fields = JSONFields(data: Data(icon.utf8)), let emoji = fields.string("emoji") else { return nil }
        return emoji.isEmpty || emoji.utf8.count > 64 ? nil : emoji
    }
}
