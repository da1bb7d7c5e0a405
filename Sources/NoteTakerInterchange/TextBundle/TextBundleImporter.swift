import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Imports TextBundles (textbundle.org): a `.textbundle` folder, a `.textpack` (one bundle,
/// zipped) or Bear's `.bear2bk` backup (a zip of a bundle per note), read in place.
///
/// A bundle is `info.json`, its text (`text.md`, `text.markdown`…) and the files it shows,
/// in `assets/` or anywhere else inside it. Each note keeps its text, a first-line heading as
/// its title (as Bear writes one), its files attached where it shows them, its `#tags`
/// (Bear's `#nested/tags` and `#tags with spaces#` too), and from Bear's part of `info.json`
/// its dates, pin and trash; an archived note goes to a folder "Archive".
struct TextBundleImporter {
    let store: NoteStore
    /// How ids are derived from Bear's and from bundles' contents.
    let identity: DerivedIdentity
    /// The bundle folder, or the zip.
    let input: URL

    /// A bundle's text file larger than this is skipped.
    static let maximumTextSize: Int64 = 64 << 20

    /// Whether `path` (inside a zip) is in a TextBundle.
    static func isBundleFile(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { $0.lowercased().hasSuffix(".textbundle") }
    }

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let files = try TextBundleFiles(input)
        let bundles = Self.bundles(files.paths)
        guard !bundles.isEmpty else { throw .badExport(path: input.path, reason: Wording("reasonTextBundleNone")) }
        let scratch = try ScratchFolder(prefix: "notetaker-textbundle")
        // The staged files must outlive the last batch: it is flushed before this returns.
        defer { scratch.remove() }
        var archived = ArchiveFolder(source: "textbundle")
        for (position, bundle) in bundles.enumerated() {
            batcher.reportProgress(done: Int64(position), total: Int64(bundles.count))
            let label = bundle.root.isEmpty ? ArchivePath.name(input.path) : bundle.root
            guard let textPath = bundle.text, files.size(textPath) <= Self.maximumTextSize,
                  let text = MarkdownImporter.decodeText(try files.data(textPath)) else {
                batcher.skip(label, reason: Wording("skipTextBundleNoText"))
                continue
            }
            var info = bundle.info.flatMap { path in try? files.data(path) }.flatMap { JSONFields(data: $0) } ?? JSONFields()
            let bear = BearInfo(info.nested("net.shinyfrog.bear"))
            let noteId = identity.importedID("textbundle:" + (bear.identifier ?? "\(bundle.root):\(sha256Hex(Data(text.utf8)))"))
            var note = TextBundleNote(text: text.withUnixLineEnds, fallbackTitle: ArchivePath.stem(ArchivePath.name(bundle.root.isEmpty ? input.path : bundle.root)))
            let attached = try note.attach(in: bundle, files: files, noteId: noteId, identity: identity, scratch: scratch)
            let folderId = try archived.folder(isArchived: bear.isArchived, store: store, identity: identity)
            let body = bear.properties.isEmpty ? note.body : NoteProperties.block(bear.properties) + (note.body.isEmpty ? "" : "\n\n" + note.body)
            let draft = NoteDraft(
                title: note.title, body: body, isPinned: bear.isPinned, folderId: folderId, tags: note.tags,
                id: noteId, createdAt: bear.created, modifiedAt: bear.modified ?? bear.created,
                trashedAt: bear.isTrashed ? (bear.trashed ?? bear.modified ?? Date()) : nil)
            try batcher.add(
                NoteImport(draft: draft, files: attached.files, followsSource: bear.identifier != nil), label: label, warnings: note.warnings,
                temporaryFiles: attached.copies, fileBytes: attached.bytes)
        }
        try batcher.flush()
    }

    /// A bundle: its folder (`""` for a `.textpack` zipped at its top), its `info.json`, its
    /// text file and every other file in it.
    struct Bundle {
        var root: String
        var info: String?
        var text: String?
        var others: [String] = []
    }

    /// The bundles `paths` hold: each folder named `*.textbundle`, or the top of the archive
    /// when `info.json` and a text file are there.
    static func bundles(_ paths: [String]) -> [Bundle] {
        var byRoot: [String: Bundle] = [:], order: [String] = []
        for path in paths {
            let parts = path.split(separator: "/")
            let rootEnd = parts.dropLast().firstIndex { $0.lowercased().hasSuffix(".textbundle") }
            let root = rootEnd.map { parts[...$0].joined(separator: "/") } ?? ""
            if byRoot[root] == nil {
                byRoot[root] = Bundle(root: root)
                order.append(root)
            }
            let inside = root.isEmpty ? path : String(path.dropFirst(root.count + 1))
            if inside == "info.json" {
                byRoot[root]?.info = path
            } else if !inside.contains("/"), inside.lowercased().hasPrefix("text."), byRoot[root]?.text == nil {
                byRoot[root]?.text = path
            } else {
                byRoot[root]?.others.append(path)
            }
        }
        // At the top of an archive, files are a bundle only with both of a bundle's files.
        return order.compactMap { byRoot[$0] }.filter { !$0.root.isEmpty || ($0.text != nil && $0.info != nil) }
    }
}
