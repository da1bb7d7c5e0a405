import Foundation
import NoteTakerKit

/// The files of a Markdown folder: the notes, and the other files by name (how Obsidian's
/// `![[name]]` finds them). Hidden files and folders (`.obsidian`, `.trash`) and symbolic
/// links are left out.
struct FileList {
    /// Relative paths of the `.md` files, sorted.
    var markdown: [String]
    /// Relative paths of the other files, by lowercased file name.
    var others: [String: [String]]
}

extension MarkdownImporter {
    static func listFiles(under root: URL) throws(InterchangeError) -> FileList {
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { throw .unreadable(path: root.path, reason: Wording("reasonFolderUnlisted")) }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        var list = FileList(markdown: [], others: [:])
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: Set(keys))
            guard values?.isSymbolicLink != true, values?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            let relative = String(path.dropFirst(prefix.count))
            if url.pathExtension.lowercased() == "md" || url.pathExtension.lowercased() == "markdown" {
                list.markdown.append(relative)
            } else {
                list.others[url.lastPathComponent.lowercased(), default: []].append(relative)
            }
        }
        list.markdown.sort()
        return list
    }
}

/// Makes (or finds) the store folders for relative directory paths, parents first.
struct FolderMaker {
    let store: NoteStore
    let identity: DerivedIdentity
    private var made: [String: UUID?] = [:]

    init(store: NoteStore, identity: DerivedIdentity) {
        self.store = store
        self.identity = identity
    }

    /// The folder for `path` (`A/B/C`), `nil` with a warning when one of its names is refused.
    mutating func folder(for path: String, warnings: inout [Wording]) -> UUID? {
        if let known = made[path] { return known }
        let parentPath = (path as NSString).deletingLastPathComponent
        let parent = parentPath.isEmpty ? nil : folder(for: parentPath, warnings: &warnings)
        let name = (path as NSString).lastPathComponent
        let id: UUID?
        do {
            id = try store.importFolder(Folder(id: identity.importedID("folder:\(path)"), name: name, parentId: parent))
        } catch {
            warnings.append(Wording("warnNoFolder", ["path": path, "reason": error.wording]))
            id = nil
        }
        made[path] = id
        return id
    }
}
