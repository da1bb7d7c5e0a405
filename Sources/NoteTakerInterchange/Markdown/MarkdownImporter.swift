import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Reads a folder of Markdown files as Obsidian, Joplin or NoteTaker write them (or one
/// `.md` file, or a `.zip` of such a folder, read in place: ``MarkdownFiles``): directories become folders, front matter gives the title, tags, dates and
/// pin, `#tags` in the text become tags, and relative links to files inside the folder
/// become attachments. Nothing outside the folder is read, nor any hidden file or folder in it
/// (`.ssh/`, `.env`), and every file attached is named in the report.
struct MarkdownImporter {
    /// The largest Markdown file read: the largest body and room for front matter.
    static let maximumFileSize = NoteStore.maximumBodySize + 64 * 1024

    let store: NoteStore
    /// How ids are derived from paths and contents.
    let identity: DerivedIdentity
    /// A folder, one `.md` file, or a zip of a folder.
    let input: URL

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let root = input.resolvingSymlinksInPath().standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) else {
            throw .unreadable(path: input.path, reason: Wording("reasonNoSuchPath"))
        }
        let base: MarkdownFiles, files: FileList
        if isFolder.boolValue {
            base = .folder(root)
            files = try base.list()
        } else if MarkdownFiles.isNote(root.lastPathComponent) {
            base = .folder(root.deletingLastPathComponent())
            files = FileList(markdown: [root.lastPathComponent], others: [:])
        } else {
            base = try MarkdownFiles(zip: root)
            files = try base.list()
        }
        defer { base.remove() }
        var folders = FolderMaker(store: store, identity: identity)
        // A linked note's id is read from its file when a link first needs it, so that links
        // between the notes become links by id; a folder without such links reads each file once.
        let ids = IdCache()
        let (store, identity) = (store, identity)
        let links = NoteLinkIndex(paths: files.markdown, noteId: { relativePath in
            if let known = ids.values[relativePath] { return known }
            guard case .text(let data, let text, _)? = try? Self.read(relativePath, base: base) else { return nil }
            let id = Self.noteId(relativePath, data: data, frontMatter: FrontMatter.split(text).0?.fields ?? [:], identity: identity)
            ids.values[relativePath] = id
            return id
        }, existing: { title in
            // The store's titles are read once, when a link first names no note of the import.
            if ids.titles == nil { ids.titles = (try? store.noteIdsByTitle()) ?? [:] }
            guard let matches = ids.titles?[title], matches.count == 1 else { return nil }
            return matches[0]
        })
        for (index, relativePath) in files.markdown.enumerated() {
            try importFile(relativePath, base: base, files: files, links: links, folders: &folders, batcher)
            batcher.reportProgress(done: Int64(index + 1), total: Int64(files.markdown.count))
        }
        // The last notes' attachments may be copies inflated from a zip: written before they go.
        try batcher.flush()
    }

    /// A Markdown file as read: its bytes, text and modification date, or why it cannot be imported.
    enum FileRead {
        case text(Data, String, Date?)
        case problem(Wording)
    }

    static func read(_ relativePath: String, base: MarkdownFiles) throws(InterchangeError) -> FileRead {
        switch try base.read(relativePath, maximumSize: Int64(maximumFileSize)) {
        case .refused(let reason): return .problem(reason)
        case .bytes(let data, let modified):
            guard let text = decodeText(data) else { return .problem(Wording("skipNotUTF8")) }
            return .text(data, text, modified)
        }
    }

    /// A file's note id: the one its front matter names (a NoteTaker export), else one derived
    /// from its path and bytes, so importing the same folder again adds nothing twice.
    static func noteId(_ relativePath: String, data: Data, frontMatter fields: [String: FrontMatter.Value], identity: DerivedIdentity) -> UUID {
        fields["id"]?.text.flatMap(UUID.init(uuidString:)) ?? identity.importedID("markdown:\(relativePath):\(sha256Hex(data))")
    }

    private func importFile(
        _ relativePath: String, base: MarkdownFiles, files: FileList, links: NoteLinkIndex, folders: inout FolderMaker, _ batcher: ImportBatcher
    ) throws(InterchangeError) {
        let data: Data, text: String, modifiedOnDisk: Date?
        switch try Self.read(relativePath, base: base) {
        case .problem(let reason): return batcher.skip(relativePath, reason: reason)
        case .text(let read, let decoded, let found): (data, text, modifiedOnDisk) = (read, decoded, found)
        }
        let (frontMatter, content) = FrontMatter.split(text)
        let fields = frontMatter?.fields ?? [:]
        let directory = (relativePath as NSString).deletingLastPathComponent
        let stem = ((relativePath as NSString).lastPathComponent as NSString).deletingPathExtension
        let noteId = Self.noteId(relativePath, data: data, frontMatter: fields, identity: identity)
        var warnings: [Wording] = []
        var body = String(content)
        var attachments: [NoteImport.File] = []
        var replacements: [(Range<String.Index>, String)] = []
        var attached: [String: NoteImport.File] = [:]
        var copies: [URL] = []
        for link in MarkdownLink.links(in: body) {
            switch links.resolve(link, from: directory) {
            case .note(let id):
                let text = link.text.isEmpty ? link.target : link.text
                replacements.append((link.range, "[\(text)](\(NoteStore.linkScheme)\(id.key))"))
                batcher.report.linksKept += 1
                continue
            case .unresolved(let target):
                warnings.append(Wording("warnLinkNoNote", ["target": target]))
                batcher.report.linksUnresolved += 1
                continue
            case .notANote:
                break
            }
            switch resolve(link, from: directory, base: base, files: files) {
            case .notAFile:
                continue
            case .problem(let reason):
                warnings.append(Wording("warnLinkLeft", ["target": link.target, "reason": reason]))
            case .file(let path):
                let file: NoteImport.File
                if let known = attached[path] {
                    file = known
                } else {
                    let source = try base.source(path)
                    if source.isCopy { copies.append(source.url) }
                    file = NoteImport.File(id: identity.importedID("\(noteId.key):\(path)"), fileName: ArchivePath.name(path), source: source.url)
                    attached[path] = file
                    attachments.append(file)
                }
                let isImage = Attachment.Kind.detect(header: [], fileName: file.fileName) == .image
                let text = link.text.isEmpty || link.isWikilink ? file.fileName : link.text
                replacements.append((link.range, "\(link.isEmbed && isImage ? "!" : "")[\(text)](attachment:\(file.id.key))"))
            }
        }
        body = MarkdownLink.replacing(replacements, in: body)
        let modified = modifiedOnDisk ?? Date()
        let created = Self.date(fields, ["created", "date", "created_at", "creation date"]) ?? modified
        var tags = (fields["tags"]?.items ?? []) + (fields["tag"]?.items ?? []) + InlineTags.tags(in: body)
        tags = tags.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
        let folderId = directory.isEmpty ? nil : folders.folder(for: directory, warnings: &warnings)
        // Front matter keys no note field takes (Obsidian's properties) stay the note's properties.
        if let properties = frontMatter?.propertyLines, !properties.isEmpty {
            body = NoteProperties.block(properties) + "\n\n" + body
        }
        let draft = NoteDraft(
            title: fields["title"]?.text ?? stem, body: body,
            isPinned: ["true", "yes"].contains(fields["pinned"]?.text?.lowercased() ?? ""),
            folderId: folderId, tags: tags, id: noteId, createdAt: created,
            modifiedAt: Self.date(fields, ["modified", "updated", "updated_at", "last modified"]) ?? modified)
        let fileBytes = copies.reduce(Int64(0)) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize).map(Int64.init) ?? 0) }
        try batcher.add(
            NoteImport(draft: draft, files: attachments, followsSource: fields["id"]?.text.flatMap(UUID.init(uuidString:)) != nil),
            label: relativePath, warnings: warnings, temporaryFiles: copies, localFiles: attached.keys.sorted(), fileBytes: fileBytes)
    }

    private enum Resolution {
        case notAFile
        case problem(Wording)
        case file(String)
    }

    /// Where a link points: a file inside the imported folder (as a path relative to it),
    /// a problem to report, or something that is not a local file (a web link, a note).
    private func resolve(_ link: MarkdownLink, from directory: String, base: MarkdownFiles, files: FileList) -> Resolution {
        let target = link.target.removingPercentEncoding ?? link.target
        if target.isEmpty || target.hasPrefix("#") || Self.hasScheme(target) { return .notAFile }
        let lowercased = target.lowercased()
        if lowercased.hasSuffix(".md") || (link.isWikilink && !target.contains(".")) { return .notAFile }
        if link.isWikilink {
            let name = (target as NSString).lastPathComponent.lowercased()
            guard let path = files.others[name]?.first else { return .problem(Wording("linkNoFile")) }
            return .file(path)
        }
        switch base.locate(target, from: directory) {
        case .file(let relative): return .file(relative)
        case .refused(let reason): return .problem(reason)
        }
    }

    /// Whether a link target starts with a URL scheme (`https:`, `mailto:`, `obsidian:`...);
    /// a file name may contain a colon, and `C:` is a drive.
    static func hasScheme(_ target: String) -> Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        let scheme = target[..<colon]
        guard scheme.count >= 2, let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
    }

    private static func date(_ fields: [String: FrontMatter.Value], _ keys: [String]) -> Date? {
        for key in keys {
            if let text = fields[key]?.text, let date = Timestamp.date(from: text.replacingOccurrences(of: " ", with: "T")) { return date }
        }
        return nil
    }

    /// UTF-8 (with or without a byte-order mark), or UTF-16 with one; `nil` for anything else.
    static func decodeText(_ data: Data) -> String? {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return String(data: data.dropFirst(3), encoding: .utf8) }
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return String(data: data, encoding: .utf16) }
        return String(validating: data, as: UTF8.self)
    }
}

/// The note ids read so far during one import, by relative path.
private final class IdCache {
    var values: [String: UUID] = [:]
    /// The notes already in the store by title in lower case (`nil`: not read yet).
    var titles: [String: [UUID]]?
}
