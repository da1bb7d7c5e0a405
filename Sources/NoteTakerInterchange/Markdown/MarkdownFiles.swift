import Foundation
import NoteTakerKit

/// Where a Markdown import's files are: a folder on disk (or the folder of one `.md` file), or
/// a `.zip` of a Markdown folder read in place (an Obsidian vault zipped to be sent, the
/// Markdown zip Export makes), checked as every archive is and never unpacked to disk.
///
/// Both answer the importer the same way, with paths relative to the root, so that importing a
/// zip and importing the folder it holds add the same notes once. A zip whose files all lie in
/// one top folder (a zip of a folder, as Finder and Export make them) has that folder as its
/// root. Hidden files and folders (`.obsidian`, `.trash`, `.ssh`), symbolic links, and the
/// `__MACOSX/…/._name` copies of macOS's Finder are left out.
enum MarkdownFiles {
    /// Files under a folder on disk.
    case folder(URL)
    /// Files of a zip under a root folder inside it (`""`, or `Vault/`), and the folder its
    /// attachments are inflated into, each until its note is written (``remove()`` at the end).
    case zip(ZipReader, root: String, scratch: ScratchFolder)

    /// Whether `path` is a Markdown note, by its extension.
    static func isNote(_ path: String) -> Bool {
        ["md", "markdown"].contains(ArchivePath.fileExtension(path))
    }

    /// Whether the zip entry at `path` is a Markdown note, which tells a zip of a Markdown folder.
    static func isZippedNote(_ path: String) -> Bool {
        isNote(path) && !path.hasPrefix("__MACOSX/")
    }

    /// The zip at `url` (checked by ``ZipReader``), rooted at its one top folder if it has one.
    init(zip url: URL) throws(InterchangeError) {
        let reader = try ZipReader(url: url)
        let paths = reader.files.map(\.path).filter { !$0.hasPrefix("__MACOSX/") }
        let tops = Set(paths.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? $0 })
        let single = tops.count == 1 && paths.allSatisfy { $0.contains("/") }
        self = .zip(reader, root: single ? (tops.first ?? "") + "/" : "", scratch: try ScratchFolder(prefix: "notetaker-markdown"))
    }

    /// Removes what was inflated from a zip.
    func remove() {
        if case .zip(_, _, let scratch) = self { scratch.remove() }
    }

    /// The notes and the other files, relative to the root.
    func list() throws(InterchangeError) -> FileList {
        switch self {
        case .folder(let root): return try MarkdownImporter.listFiles(under: root)
        case .zip(let reader, let root, _):
            var list = FileList(markdown: [], others: [:])
            for file in reader.files where file.path.hasPrefix(root) {
                let relative = String(file.path.dropFirst(root.count))
                guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
                if Self.isNote(relative) {
                    list.markdown.append(relative)
                } else {
                    list.others[ArchivePath.name(relative).lowercased(), default: []].append(relative)
                }
            }
            list.markdown.sort()
            return list
        }
    }

    /// A file as read, or why it is not.
    enum Read {
        case bytes(Data, modified: Date?)
        case refused(Wording)
    }

    /// A link's target as found, or why it is not attached.
    enum Located {
        case file(String)
        case refused(Wording)
    }

    /// The file at `relativePath`: its bytes and when it was last modified, or why it is not
    /// read. A zip's entry that does not inflate as it declares is a damaged archive: thrown.
    func read(_ relativePath: String, maximumSize: Int64) throws(InterchangeError) -> Read {
        switch self {
        case .folder(let root):
            let url = root.appendingPathComponent(relativePath)
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
            guard size <= maximumSize else { return .refused(Wording("skipFileTooLarge", ["size": size / 1_000_000])) }
            guard let data = FileManager.default.contents(atPath: url.path) else { return .refused(Wording("skipFileUnreadable")) }
            return .bytes(data, modified: attributes?[.modificationDate] as? Date)
        case .zip(let reader, let root, _):
            guard let file = reader.file(root + relativePath) else { return .refused(Wording("skipFileUnreadable")) }
            guard file.size <= maximumSize else { return .refused(Wording("skipFileTooLarge", ["size": file.size / 1_000_000])) }
            return .bytes(try reader.data(file), modified: file.modified)
        }
    }

    /// The file a relative link `target`, written in a note of `directory`, points to (relative
    /// to the root), or why it is not attached: outside the root, hidden, or not there.
    func locate(_ target: String, from directory: String) -> Located {
        switch self {
        case .folder(let root):
            let candidate = root.appendingPathComponent(directory).appendingPathComponent(target).standardizedFileURL.resolvingSymlinksInPath()
            let basePath = root.path.hasSuffix("/") ? root.path : root.path + "/"
            guard candidate.path.hasPrefix(basePath) else { return .refused(Wording("linkOutside")) }
            let relative = String(candidate.path.dropFirst(basePath.count))
            guard !Self.isHidden(relative) else { return .refused(Wording("linkHidden")) }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue else {
                return .refused(Wording("linkMissing"))
            }
            return .file(relative)
        case .zip(let reader, let root, _):
            guard let relative = ArchivePath.resolve(target, from: directory) else { return .refused(Wording("linkOutside")) }
            guard !Self.isHidden(relative) else { return .refused(Wording("linkHidden")) }
            guard reader.file(root + relative) != nil else { return .refused(Wording("linkMissing")) }
            return .file(relative)
        }
    }

    /// Where the file at `relativePath` can be copied into the store from: the file itself in a
    /// folder; from a zip, a copy inflated into its scratch folder, to remove once its note is
    /// written.
    func source(_ relativePath: String) throws(InterchangeError) -> (url: URL, isCopy: Bool) {
        switch self {
        case .folder(let root): return (root.appendingPathComponent(relativePath), false)
        case .zip(let reader, let root, let scratch):
            guard let file = reader.file(root + relativePath) else {
                throw .unreadable(path: relativePath, reason: Wording("reasonNoSuchPath"))
            }
            let copy = scratch.newFile()
            try reader.copy(file, to: copy)
            return (copy, true)
        }
    }

    private static func isHidden(_ relativePath: String) -> Bool {
        relativePath.split(separator: "/").contains { $0.hasPrefix(".") }
    }
}
