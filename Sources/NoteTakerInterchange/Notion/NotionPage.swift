import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// One Notion page as a note: the title Notion writes as its first heading, a database row's
/// properties (the `Name: value` lines under it) in the properties block, and links to pages
/// and files of the export resolved.
struct NotionPage {
    var title: String
    var body: String
    /// Links to nothing in the export.
    var warnings: [Wording] = []

    /// A note with this title and body (a database's table).
    init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    /// Reads a page's Markdown; `fallbackTitle` (its name without the id) when it has no heading.
    init(text: String, fallbackTitle: String, isRow: Bool) {
        var rest = text[...]
        if rest.hasPrefix("# ") {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            title = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].trimmingCharacters(in: .whitespaces)
            rest = rest[end...].drop { $0.isNewline }
        } else {
            title = fallbackTitle
        }
        var properties: [String] = []
        while isRow, !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[..<end]
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex, line.distance(from: line.startIndex, to: colon) <= 60,
                  line.index(after: colon) < line.endIndex, line[line.index(after: colon)] == " " else { break }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            properties.append("\(FrontMatter.quoted(name)): \(FrontMatter.quoted(String(line[line.index(colon, offsetBy: 2)...])))")
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
        }
        let text = String(rest.drop { $0.isNewline })
        body = properties.isEmpty ? text : NoteProperties.block(properties) + (text.isEmpty ? "" : "\n\n" + text)
    }

    /// Makes links to the export's pages and databases links by id, and attaches the files it
    /// links to (pictures, PDFs) where it shows them; a link to nothing in the export stays as
    /// written, with a warning.
    mutating func resolveLinks(
        from folder: String, pages: NotionPages, parts: ZipParts, noteId: UUID, identity: DerivedIdentity, scratch: ScratchFolder,
        report: inout ImportReport
    ) throws(InterchangeError) -> (files: [NoteImport.File], bytes: Int64) {
        var attached: [String: NoteImport.File] = [:], files: [NoteImport.File] = [], bytes: Int64 = 0
        var replacements: [(Range<String.Index>, String)] = []
        for link in MarkdownLink.links(in: body) where !link.isWikilink {
            let target = link.target.removingPercentEncoding ?? link.target
            guard !target.isEmpty, !target.hasPrefix("#"), !MarkdownImporter.hasScheme(target) else { continue }
            let path = ArchivePath.resolve(target, from: folder)
            if let path, let note = pages.note(at: path) {
                let text = link.text.isEmpty ? NotionPath.split(ArchivePath.name(path)).title : link.text
                replacements.append((link.range, "[\(text)](\(NoteStore.linkScheme)\(note.key))"))
                report.linksKept += 1
                continue
            }
            guard let path, let (zip, entry) = parts.file(path), entry.size <= Attachment.maximumSize else {
                warnings.append(Wording("warnNotionLinkMissing", ["target": link.target]))
                report.linksUnresolved += 1
                continue
            }
            let file: NoteImport.File
            if let known = attached[path] {
                file = known
            } else {
                let copy = scratch.newFile()
                try zip.copy(entry, to: copy)
                file = NoteImport.File(id: identity.importedID("\(noteId.key):\(path)"), fileName: ArchivePath.name(path), source: copy)
                attached[path] = file
                files.append(file)
                bytes += entry.size
            }
            let text = link.text.isEmpty ? file.fileName : link.text
            replacements.append((link.range, "\(link.isEmbed ? "!" : "")[\(text)](attachment:\(file.id.key))"))
        }
        body = MarkdownLink.replacing(replacements, in: body)
        return (files, bytes)
    }
}
