import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Imports a Standard Notes backup: the `.zip` its "Download backup" writes (read in place: its
/// `Standard Notes Backup and Import File.txt`; the per-item files beside it are copies), or
/// that `.txt` alone, decrypted.
///
/// Notes come in with their title, text by note type (Markdown, plain text and the task
/// editor's lists as they are, code in a fenced block, Super notes' Lexical JSON turned into
/// Markdown, rich text as HTML with a warning), tags (a tag nested under another as `a/b`), pin,
/// dates, trash; archived notes go to a folder "Archive", as Keep's do. An encrypted backup is
/// refused with what to do instead: its keys come from the password through Argon2id, which
/// NoteTaker does not carry.
struct StandardNotesImporter {
    let store: NoteStore
    /// How ids are derived from Standard Notes'.
    let identity: DerivedIdentity
    /// The `.zip`, or the backup's `.txt`.
    let input: URL

    /// The backup file's name inside the zip.
    static let backupName = "Standard Notes Backup and Import File.txt"
    /// The largest backup file read.
    static let maximumFileSize: Int64 = 1 << 30

    /// Whether `path` (inside a zip) is the backup file.
    static func isBackup(_ path: String) -> Bool {
        ArchivePath.name(path) == backupName
    }

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let file = try ExportFile.data(
            of: input, zipped: !["txt", "json"].contains(ArchivePath.fileExtension(input.path)), matching: Self.isBackup,
            maximumSize: Self.maximumFileSize)
        guard var root = JSONFields(data: file), root.holdsList("items") else {
            throw .badExport(path: input.path, reason: Wording("reasonStandardNotesNotBackup"))
        }
        let items = root.objects("items")
        // An encrypted backup states its key's parameters, and its items' content is text ("004:…").
        if root.holds("keyParams") || root.holds("auth_params") || items.contains(where: { $0.holdsText("content") }) {
            throw .badExport(path: input.path, reason: Wording("reasonStandardNotesEncrypted"))
        }
        let catalog = StandardNotesCatalog(items: items)
        var archived = ArchiveFolder(source: "standardnotes")
        for (position, item) in catalog.notes.enumerated() {
            batcher.reportProgress(done: Int64(position), total: Int64(catalog.notes.count))
            var note = StandardNotesNote(item: item)
            guard let uuid = note.uuid else {
                batcher.skip("note \(position + 1)", reason: Wording("skipStandardNotesNoId"))
                continue
            }
            let label = note.title.isEmpty ? "note \(position + 1)" : "'\(note.title)'"
            let folderId = try archived.folder(isArchived: note.isArchived, store: store, identity: identity)
            let body = note.body()
            let draft = NoteDraft(
                title: note.title, body: body, isPinned: note.isPinned, folderId: folderId,
                tags: catalog.tags(of: uuid, naming: note.references), id: identity.importedID("standardnotes:\(uuid)"),
                createdAt: note.created, modifiedAt: note.updated ?? note.created,
                trashedAt: note.isTrashed ? (note.updated ?? note.created ?? Date()) : nil)
            try batcher.add(NoteImport(draft: draft, followsSource: true), label: label, warnings: note.warnings + catalog.missingFiles(of: note.references))
        }
        batcher.report.warnings += catalog.warnings
        try batcher.flush()
    }
}
