import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit
import NoteTakerMarkdown

/// Writes notes as Markdown files for other tools: a directory per folder, one `.md` per
/// note with YAML front matter (id, title, tags, created, modified, pinned), and the
/// attachments in `assets/`, linked by relative paths.
struct MarkdownExporter {
    static let assetsFolder = "assets"

    let store: NoteStore

    func export(_ selection: NoteSelection, into root: URL, progress: InterchangeProgressHandler?) throws(InterchangeError) -> ExportReport {
        let scope = try ExportScope(store: store)
        var names = NameAllocator()
        _ = names.allocate(Self.assetsFolder, pathExtension: "", in: "")
        var directories: [UUID: [String]] = [:]
        var report = ExportReport(format: .markdown)
        // Every note's file first, so that links between notes can point at the files.
        var placed: [UUID: NotePlace] = [:]
        try eachNote(of: store, in: selection) { notes throws(InterchangeError) in
            for note in notes {
                let folder = note.folderId.map { directory(for: $0, scope: scope, names: &names, cache: &directories) } ?? []
                placed[note.id] = NotePlace(folder: folder, fileName: names.allocate(
                    SafeName.component(note.displayTitle, fallback: "Untitled"), pathExtension: "md", in: folder.joined(separator: "/")))
            }
        }
        try eachNote(of: store, in: selection) { notes throws(InterchangeError) in
            for note in notes {
                guard let place = placed[note.id] else { continue }
                let (folder, fileName) = (place.folder, place.fileName)
                var links: [UUID: String] = [:]
                for attachment in note.attachments {
                    let stem = (attachment.fileName as NSString).deletingPathExtension
                    let assetName = names.allocate(
                        SafeName.component(stem, fallback: "file"),
                        pathExtension: SafeName.component((attachment.fileName as NSString).pathExtension, fallback: ""),
                        in: Self.assetsFolder)
                    try copyFile(
                        from: store.fileURL(for: attachment),
                        to: root.appendingPathComponent(Self.assetsFolder).appendingPathComponent(assetName))
                    links[attachment.id] = String(repeating: "../", count: folder.count)
                        + Self.assetsFolder + "/" + Self.percentEncoded(assetName)
                    report.attachments += 1
                }
                let noteFolder = folder.reduce(root) { $0.appendingPathComponent($1, isDirectory: true) }
                do {
                    try OwnerOnly.createDirectory(at: noteFolder)
                    let body = Self.document(for: note, links: links) { placed[$0]?.path(from: folder) }
                    let file = noteFolder.appendingPathComponent(fileName)
                    guard OwnerOnly.createFile(at: file, contents: Data(body.utf8)) else { throw CocoaError(.fileWriteUnknown) }
                } catch {
                    throw .writeFailed(path: noteFolder.appendingPathComponent(fileName).path, reason: .verbatim(error.localizedDescription))
                }
            }
            report.notes += notes.count
            progress?(InterchangeProgress(done: Int64(report.notes), total: nil, notes: report.notes))
        }
        report.folders = directories.count
        return report
    }

    /// The directory path (safe names) for a folder, its parents made first.
    private func directory(for id: UUID, scope: ExportScope, names: inout NameAllocator, cache: inout [UUID: [String]]) -> [String] {
        if let known = cache[id] { return known }
        guard let folder = scope.allFolders.first(where: { $0.id == id }) else { return [] }
        let parent = folder.parentId.map { directory(for: $0, scope: scope, names: &names, cache: &cache) } ?? []
        let name = names.allocate(SafeName.component(folder.name, fallback: "Folder"), pathExtension: "", in: parent.joined(separator: "/"))
        cache[id] = parent + [name]
        return parent + [name]
    }

    /// Where a note's file goes: its folder's path and its file name.
    struct NotePlace {
        var folder: [String]
        var fileName: String

        /// A relative link to the file from a note in `other`.
        func path(from other: [String]) -> String {
            String(repeating: "../", count: other.count) + (folder + [fileName]).map(MarkdownExporter.percentEncoded).joined(separator: "/")
        }
    }

    /// The file's text: front matter, then the body with `attachment:ID` links pointing at
    /// the exported files, links to exported notes (`note:ID`) at their files, and links to
    /// attachments the body does not mention.
    static func document(for note: Note, links: [UUID: String], notePath: (UUID) -> String? = { _ in nil }) -> String {
        var lines = ["---", "id: \(note.id.key)", "title: \(FrontMatter.quoted(note.title))"]
        lines.append(note.tags.isEmpty ? "tags: []" : "tags:")
        lines += note.tags.map { "  - \(FrontMatter.quoted($0))" }
        lines += ["created: \(Timestamp.string(note.createdAt))", "modified: \(Timestamp.string(note.modifiedAt))",
                  "pinned: \(note.isPinned)"]
        var body = note.body
        // The note's properties go back into the front matter, where they came from.
        if let properties = NoteProperties.split(body) {
            // Keys a note field writes above are left out, so the front matter names each once.
            let written = FrontMatter.split("---\n" + properties.lines.joined(separator: "\n") + "\n---\n").frontMatter
            lines += written?.propertyLines ?? []
            body = String(properties.rest)
        }
        lines += ["---", ""]
        for target in NoteStore.linkedIds(in: body) {
            guard let path = notePath(target) else { continue }
            body = body.replacingOccurrences(of: "](\(NoteStore.linkScheme)\(target.key))", with: "](\(path))")
        }
        var unmentioned: [String] = []
        for attachment in note.attachments {
            guard let path = links[attachment.id] else { continue }
            let reference = "](attachment:\(attachment.id.key))"
            if body.contains(reference) {
                body = body.replacingOccurrences(of: reference, with: "](\(path))")
            } else {
                unmentioned.append("\(attachment.kind == .image ? "!" : "")[\(escapedLinkText(attachment.fileName))](\(path))")
            }
        }
        if !unmentioned.isEmpty {
            body += (body.isEmpty || body.hasSuffix("\n\n") ? "" : body.hasSuffix("\n") ? "\n" : "\n\n") + unmentioned.joined(separator: "\n\n") + "\n"
        }
        return lines.joined(separator: "\n") + body
    }

    private static func escapedLinkText(_ text: String) -> String {
        text.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
    }

    /// A relative link target other Markdown tools read: spaces and brackets percent-encoded.
    static func percentEncoded(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "()[]<> ")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}
