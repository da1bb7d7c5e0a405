import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Imports a Joplin export (`.jex`: a tar of Joplin's RAW items, one `<id>.md` file each, and
/// their resources' bytes in `resources/`), read in place.
///
/// Notebooks become folders (nested as they were), tags tags, resources attachments shown where
/// the note shows them, `:/id` links between notes links by id, to-dos notes that open with a
/// task (ticked when done, due date in the properties block), dates, and Joplin's trash the
/// trash. Notes of Joplin's Conflicts notebook are left out and named in the report, as are
/// encrypted items, resources no note shows and links to items not in the export.
struct JoplinImporter {
    let store: NoteStore
    /// How ids are derived from Joplin's.
    let identity: DerivedIdentity
    let archive: URL

    /// An item file larger than this is not a Joplin item.
    static let maximumItemSize: Int64 = 64 << 20

    /// Whether `path` (inside the tar) is an item: a `.md` file at the top.
    static func isItem(_ path: String) -> Bool {
        !path.contains("/") && path.hasSuffix(".md")
    }

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let tar = try TarReader(url: archive)
        let catalog = try JoplinCatalog(tar: tar, batcher: batcher)
        guard catalog.holdsItems else { throw .badExport(path: archive.path, reason: Wording("reasonJoplinNoItems")) }
        let folders = try JoplinFolders(catalog: catalog, store: store, identity: identity)
        let scratch = try ScratchFolder(prefix: "notetaker-joplin")
        // The staged resources must outlive the last batch: it is flushed before this returns.
        defer { scratch.remove() }
        var resources = JoplinResources(tar: tar, catalog: catalog)
        batcher.report.warnings += catalog.warnings
        for (position, entry) in catalog.notes.enumerated() {
            batcher.reportProgress(done: Int64(position), total: Int64(catalog.notes.count))
            // The first read kept the note's fields; its text is read again here, one note at a time.
            guard let note = JoplinItem(text: String(decoding: try tar.data(entry.file), as: UTF8.self)) else { continue }
            let label = note.title.isEmpty ? entry.file.path : "'\(note.title)' (\(entry.file.path))"
            if note.flag("is_conflict") {
                batcher.report.warnings.append(.init(item: label, wording: Wording("warnJoplinConflict")))
                continue
            }
            let noteId = catalog.noteID(note.id, identity: identity)
            var warnings: [Wording] = []
            var staged: [String: NoteImport.File] = [:]
            var stagedBytes: Int64 = 0
            for id in JoplinLinks.ids(in: note.body) where catalog.note(id) == nil {
                switch try resources.stage(id, for: noteId, identity: identity, into: scratch) {
                case .staged(let file, let bytes):
                    staged[id] = file
                    stagedBytes += bytes
                case .missing(let name): warnings.append(Wording("warnJoplinResourceMissing", ["name": name]))
                case .tooLarge(let name): warnings.append(Wording("warnAttachmentTooLarge", ["name": name]))
                case .unknown: warnings.append(Wording("warnJoplinLinkUnresolved", ["id": id]))
                }
            }
            let text = JoplinLinks.rewritten(note.body.withUnixLineEnds) { id in
                if let file = staged[id] { return "attachment:\(file.id.key)" }
                return catalog.note(id) != nil ? "note:\(catalog.noteID(id, identity: identity).key)" : nil
            }
            if note.fields["markup_language"] == "2" { warnings.append(Wording("warnJoplinHTML")) }
            let draft = NoteDraft(
                title: note.title, body: note.noteBody(text: text), folderId: note.reference("parent_id").flatMap(folders.id), tags: catalog.tags(of: note.id),
                id: noteId, createdAt: note.userDate("created_time"), modifiedAt: note.userDate("updated_time"), trashedAt: note.date("deleted_time"))
            let files = Array(staged.values)
            try batcher.add(
                NoteImport(draft: draft, files: files, followsSource: true), label: label, warnings: warnings, temporaryFiles: files.map(\.source),
                fileBytes: stagedBytes)
        }
        for path in resources.unused() {
            batcher.report.warnings.append(.init(item: path, wording: Wording("warnJoplinResourceUnused")))
        }
        try batcher.flush()
    }
}
