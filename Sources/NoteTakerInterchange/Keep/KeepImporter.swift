import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Imports a Google Keep export from Google Takeout (a `.zip` with a `Keep/` folder holding a
/// JSON file and an HTML file per note, and the notes' pictures and recordings), read in place.
///
/// Each note keeps its title, text, checklist (as a task list, ticked items ticked), labels (as
/// tags), pin, attachments, links and dates; an archived note goes to a folder "Archive" (Keep
/// keeps archived notes out of its main list, as a folder does); a trashed one to the trash; its
/// colour, sharing and any field NoteTaker has no place for into its properties block. A field
/// that cannot be written there, and a file no note names, is named in the report.
struct KeepImporter {
    let store: NoteStore
    /// How ids are derived from notes and files.
    let identity: DerivedIdentity
    let archive: URL

    /// A note's JSON file larger than this is not a Keep note.
    static let maximumNoteFileSize: Int64 = 16 << 20

    /// Whether `path` (inside a Takeout archive) is a Keep note's JSON file.
    static func isNote(_ path: String) -> Bool {
        path.hasSuffix(".json") && keepFolder(path) != nil
    }

    /// The `Keep` folder `path` is directly in (`Takeout/Keep`, or `Keep` when the archive was
    /// made from inside `Takeout`), or `nil`.
    static func keepFolder(_ path: String) -> String? {
        let folder = ArchivePath.folder(path)
        return ArchivePath.name(folder) == "Keep" ? folder : nil
    }

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let parts = try TakeoutParts.open(archive)
        let notes = parts.files.filter { Self.isNote($0.file.path) }
        guard !notes.isEmpty else { throw .badExport(path: archive.path, reason: Wording("reasonKeepNoNotes")) }
        let scratch = try ScratchFolder(prefix: "notetaker-keep")
        // The staged attachments must outlive the last batch: it is flushed before this returns.
        defer { scratch.remove() }
        var attachments = KeepAttachments(parts: parts)
        var seen: [String: Int] = [:]
        var archived = ArchiveFolder(source: "keep")
        for (position, (zip, file)) in notes.enumerated() {
            batcher.reportProgress(done: Int64(position), total: Int64(notes.count))
            guard file.size <= Self.maximumNoteFileSize, let fields = JSONFields(data: try zip.data(file)) else {
                batcher.skip(file.path, reason: Wording("skipKeepNotNote"))
                continue
            }
            let note = KeepNote(fields: fields)
            guard note.looksLikeKeep else {
                batcher.skip(file.path, reason: Wording("skipKeepNotNote"))
                continue
            }
            // Takeout has no note ids: a note is its creation time (to the microsecond), and
            // two notes created in the same microsecond are told apart by their order.
            let fingerprint = "keep:" + (note.created.map(String.init) ?? file.path)
            let occurrence = seen[fingerprint, default: 0]
            seen[fingerprint] = occurrence + 1
            let noteId = identity.importedID(occurrence == 0 ? fingerprint : "\(fingerprint)#\(occurrence + 1)")
            let folderId = try archived.folder(isArchived: note.isArchived, store: store, identity: identity)
            let staged = try attachments.stage(note.attachments, of: file.path, noteId: noteId, identity: identity, into: scratch)
            let body = note.body(files: staged.files)
            let created = note.created.flatMap { EpochDate.date($0, perSecond: 1_000_000) }
            let edited = note.edited.flatMap { EpochDate.date($0, perSecond: 1_000_000) }
            let draft = NoteDraft(
                title: note.title, body: body, isPinned: note.isPinned, folderId: folderId, tags: note.labels, id: noteId,
                createdAt: created, modifiedAt: edited, trashedAt: note.isTrashed ? (edited ?? created ?? Date()) : nil)
            try batcher.add(
                NoteImport(draft: draft, files: staged.files.map(\.file), followsSource: true), label: file.path, warnings: note.warnings + staged.warnings,
                temporaryFiles: staged.files.map(\.file.source), fileBytes: staged.bytes)
        }
        for path in attachments.unused(besides: notes.map(\.file.path)) {
            batcher.report.warnings.append(.init(item: path, wording: Wording("warnKeepFileUnused")))
        }
        try batcher.flush()
    }
}

/// The files of a Takeout's `Keep` folders, found for the notes that name them.
struct KeepAttachments {
    /// A file staged for a note: the attachment, and whether it shows as a picture.
    struct Staged {
        var file: NoteImport.File
        var isImage: Bool
    }

    private let parts: ZipParts
    /// The files of each `Keep` folder by name without extension: Takeout names a picture
    /// `.jpg` in one place and `.jpeg` in the other.
    private let byStem: [String: [String]]
    private var named: Set<String> = []

    init(parts: ZipParts) {
        self.parts = parts
        byStem = Dictionary(grouping: parts.files.map(\.file.path).filter { KeepImporter.keepFolder($0) != nil }) {
            ArchivePath.stem($0)
        }
    }

    /// Inflates the files a note names into `scratch`; a file missing from the export or too
    /// large to attach is left out with a warning.
    mutating func stage(
        _ wanted: [(path: String, mimetype: String?)], of note: String, noteId: UUID, identity: DerivedIdentity, into scratch: ScratchFolder
    ) throws(InterchangeError) -> (files: [Staged], warnings: [Wording], bytes: Int64) {
        let folder = ArchivePath.folder(note)
        var files: [Staged] = [], warnings: [Wording] = [], bytes: Int64 = 0
        for (name, mimetype) in wanted {
            let exact = folder + "/" + name
            // Found by its stem, a note's own JSON and HTML are not the picture it names.
            let path = parts.file(exact) != nil ? exact : byStem[ArchivePath.stem(exact)]?.first(where: {
                !["json", "html"].contains(ArchivePath.fileExtension($0))
            })
            guard let path, let (zip, entry) = parts.file(path) else {
                warnings.append(Wording("warnKeepAttachmentMissing", ["name": name]))
                continue
            }
            named.insert(path)
            guard entry.size <= Attachment.maximumSize else {
                warnings.append(Wording("warnAttachmentTooLarge", ["name": name]))
                continue
            }
            let source = scratch.newFile()
            try zip.copy(entry, to: source)
            let fileName = ArchivePath.name(path)
            let isImage = mimetype?.hasPrefix("image/") ?? ["jpg", "jpeg", "png", "gif", "webp"].contains(ArchivePath.fileExtension(path))
            files.append(Staged(file: NoteImport.File(id: identity.importedID("\(noteId.key):\(fileName)"), fileName: fileName, source: source), isImage: isImage))
            bytes += entry.size
        }
        return (files, warnings, bytes)
    }

    /// The files in `Keep` folders that are neither a note (`notes`), nor a note's HTML copy,
    /// nor the list of labels, and that no note named.
    func unused(besides notes: [String]) -> [String] {
        let notes = Set(notes.map(ArchivePath.stem))
        return byStem.flatMap { stem, paths in
            paths.filter { path in
                !named.contains(path) && ArchivePath.name(path) != "Labels.txt"
                    && !(notes.contains(stem) && ["json", "html"].contains(ArchivePath.fileExtension(path)))
            }
        }.sorted()
    }
}
