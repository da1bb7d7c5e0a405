import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit
import NoteTakerMarkdown
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Imports an Evernote `.enex` file into a folder named after it: titles, tags, dates, the
/// ENML body as Markdown, and the resources as attachments. The file is streamed, so its
/// size does not matter; a cut-off or broken file keeps the notes before the break.
struct EvernoteImporter {
    let store: NoteStore
    /// How ids are derived from notebooks, notes and files.
    let identity: DerivedIdentity
    let file: URL

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        guard let stream = InputStream(url: file) else { throw .unreadable(path: file.path, reason: Wording("reasonCannotOpen")) }
        let scratch = try ScratchFolder(prefix: "notetaker-enex")
        // The temporary files must outlive the last batch: it is flushed before this returns.
        defer { scratch.remove() }
        let notebook = file.deletingPathExtension().lastPathComponent
        let folderId = try storeCall { () throws(NoteTakerError) in
            try store.importFolder(Folder(id: identity.importedID("enex-folder:\(notebook)"), name: SafeName.component(notebook, fallback: "Evernote")))
        }
        let parser = XMLParser(stream: stream)
        var failure: InterchangeError?
        var seen: [UUID: Int] = [:]
        var links = EvernoteNoteLinks()
        let reader = ENEXReader(temporaryFolder: scratch.url) { note in
            guard failure == nil else { return }
            do throws(InterchangeError) {
                try add(note, folderId: folderId, seen: &seen, links: &links, batcher)
            } catch {
                failure = error
                parser.abortParsing()
            }
        }
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        if let failure { throw failure }
        if reader.sawEnd, !finished {
            // Whatever follows </en-export> (a second export pasted after, stray bytes) is not
            // read; every note of the export was.
            batcher.report.warnings.append(.init(
                item: file.lastPathComponent, wording: Wording("warnTrailingData", ["line": String(parser.lineNumber)])))
        } else if !finished || !reader.sawEnd {
            let reason = parser.parserError.map(XMLErrorText.describe) ?? Wording("xmlEndsBeforeExport")
            batcher.report.stop = Wording("stopCutOff", ["line": String(parser.lineNumber), "column": String(parser.columnNumber), "reason": reason])
            if let unfinished = reader.unfinishedNote {
                discard(unfinished)
                batcher.skip(label(unfinished), reason: Wording("skipBreaksOff"))
            }
        } else if !reader.sawExportRoot {
            batcher.report.stop = Wording("stopNotEvernote")
        }
        // The notes linking to others, now that every title in the file is known.
        let existing = { (title: String) -> UUID? in
            guard let found = try? store.notesTitled(prefix: title, limit: 1).first,
                  found.title.compare(title, options: .caseInsensitive) == .orderedSame else { return nil }
            return found.id
        }
        for note in links.resolved(counting: &batcher.report, existing: existing) {
            try batcher.add(note.item, label: note.label, warnings: note.warnings, temporaryFiles: note.temporaryFiles, fileBytes: note.fileBytes)
        }
        try batcher.flush()
    }

    private func add(
        _ note: ENEXNote, folderId: UUID, seen: inout [UUID: Int], links: inout EvernoteNoteLinks, _ batcher: ImportBatcher
    ) throws(InterchangeError) {
        let label = label(note)
        if note.contentTooLong {
            discard(note)
            return batcher.skip(label, reason: Wording("skipTextTooLong"))
        }
        if let broken = note.resources.first(where: { $0.file.problem != nil }), let problem = broken.file.problem {
            discard(note)
            return batcher.skip(label, reason: Wording("skipAttachmentBroken", ["name": broken.fileName ?? broken.mime, "reason": problem]))
        }
        // A note's identity is its title, date and text; two such notes in one file are two
        // notes (the second and later ones numbered), one note imported twice is one.
        let fingerprint = "enex:\(note.title)|\(note.created.map(Timestamp.string) ?? "")|\(sha256Hex(Data(note.content.utf8)))"
        let firstId = identity.importedID(fingerprint)
        let occurrence = seen[firstId, default: 0]
        seen[firstId] = occurrence + 1
        let noteId = occurrence == 0 ? firstId : identity.importedID("\(fingerprint)#\(occurrence + 1)")
        var media: [String: ENMLConverter.Media] = [:]
        var files: [NoteImport.File] = []
        for (index, resource) in note.resources.enumerated() where media[resource.md5] == nil {
            let name = resource.fileName.flatMap { $0.isEmpty ? nil : $0 } ?? "Attachment \(index + 1).\(Self.fileExtension(resource.mime))"
            let file = NoteImport.File(id: identity.importedID("\(noteId.key):\(resource.md5)"), fileName: name, source: resource.file.url)
            media[resource.md5] = ENMLConverter.Media(id: file.id, fileName: name, isImage: resource.mime.hasPrefix("image/"))
            files.append(file)
        }
        var body = ""
        var converter = ENMLConverter(media: media, tasks: note.tasks)
        var warnings: [Wording] = []
        if note.content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // Evernote for Windows writes web clips with an empty <content>: an empty note.
            body = converter.remainingTasks()
        } else {
            switch ENMLNode.parse(note.content) {
            case .success(let root): body = converter.markdown(root)
            case .failure(let error):
                guard let recovered = ENMLRecovery.parse(note.content) else {
                    discard(note)
                    return batcher.skip(label, reason: Wording("skipContentDamaged", ["reason": error.wording]))
                }
                body = converter.markdown(recovered)
                warnings.append(Wording("warnContentDamaged", ["reason": error.wording]))
            }
        }
        let properties = Self.properties(note.attributes)
        if !properties.isEmpty { body = NoteProperties.block(properties) + (body.isEmpty ? "" : "\n\n" + body) }
        let draft = NoteDraft(
            title: note.title, body: body, folderId: folderId, tags: note.tags.filter { !$0.isEmpty }, id: noteId,
            createdAt: note.created, modifiedAt: note.updated ?? note.created)
        links.noteTitle(note.title, id: noteId)
        let item = EvernoteNoteLinks.Waiting(
            item: NoteImport(draft: draft, files: files), label: label, warnings: warnings + Array(Set(converter.warnings)).sorted { $0.key < $1.key },
            temporaryFiles: note.resources.map(\.file.url), fileBytes: note.resources.reduce(0) { $0 + $1.file.size })
        if links.holdIfLinking(item) { return }
        try batcher.add(item.item, label: item.label, warnings: item.warnings, temporaryFiles: item.temporaryFiles, fileBytes: item.fileBytes)
    }

    /// The note's attributes as properties: Evernote's names, its dates as ISO 8601, and
    /// latitude, longitude and altitude as one `location`.
    static func properties(_ attributes: [(name: String, value: String)]) -> [String] {
        var lines: [String] = []
        var location: [String] = []
        for (name, value) in attributes {
            switch name {
            case "latitude", "longitude", "altitude": location.append(value)
            case _ where name.hasSuffix("-time") || name.hasSuffix("-date"):
                let date = ENEXReader.date(value).map(Timestamp.string) ?? value
                lines.append("\(name): \(FrontMatter.quoted(date))")
            default: lines.append("\(name): \(FrontMatter.quoted(value))")
            }
        }
        if location.count >= 2 { lines.append("location: \(FrontMatter.quoted(location.joined(separator: ", ")))") }
        return lines
    }

    private func label(_ note: ENEXNote) -> String {
        "note \(note.position)" + (note.title.isEmpty ? "" : " '\(note.title)'")
    }

    private func discard(_ note: ENEXNote) {
        for resource in note.resources { try? FileManager.default.removeItem(at: resource.file.url) }
    }

    private static func fileExtension(_ mime: String) -> String {
        switch mime.lowercased() {
        case "image/png": return "png"
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        case "image/svg+xml": return "svg"
        case "application/pdf": return "pdf"
        case "audio/mpeg": return "mp3"
        case "audio/wav", "audio/x-wav": return "wav"
        case "video/mp4": return "mp4"
        case "text/plain": return "txt"
        default: return "bin"
        }
    }
}
