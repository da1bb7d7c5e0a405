import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Imports a Simplenote export: the `.zip` that Simplenote's "Export Notes" writes, read in
/// place (its `source/notes.json`; the `.txt` copies beside it are renderings of the same
/// notes), or that `notes.json` alone.
///
/// Notes in use and in Simplenote's trash come in, each with its first line as its title (as
/// Simplenote shows it, a Markdown note's heading marks left out) and the rest as its body,
/// its tags, pin and dates; its public link and collaborators go into its properties block.
struct SimplenoteImporter {
    let store: NoteStore
    /// How ids are derived from Simplenote's.
    let identity: DerivedIdentity
    /// The `.zip`, or a `notes.json`.
    let input: URL

    /// Where the notes are in Simplenote's zip.
    static let notesPath = "source/notes.json"
    /// The largest `notes.json` read.
    static let maximumFileSize: Int64 = 1 << 30

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let file = try ExportFile.data(
            of: input, zipped: input.pathExtension.lowercased() != "json", matching: { $0 == Self.notesPath }, maximumSize: Self.maximumFileSize)
        guard var root = JSONFields(data: file) else {
            throw .badExport(path: input.path, reason: Wording("reasonSimplenoteNotJSON"))
        }
        guard root.holdsList("activeNotes") || root.holdsList("trashedNotes") else {
            throw .badExport(path: input.path, reason: Wording("reasonSimplenoteNoNotes"))
        }
        let notes = root.objects("activeNotes").map { ($0, false) } + root.objects("trashedNotes").map { ($0, true) }
        for (position, (fields, inTrash)) in notes.enumerated() {
            batcher.reportProgress(done: Int64(position), total: Int64(notes.count))
            var fields = fields
            guard let id = fields.string("id"), let content = fields.string("content") else {
                batcher.skip("note \(position + 1)", reason: Wording("skipSimplenoteNoContent"))
                continue
            }
            let isMarkdown = fields.bool("markdown") ?? false
            let (title, text) = Self.split(content.withUnixLineEnds, markdown: isMarkdown)
            let created = fields.string("creationDate").flatMap(Timestamp.date(from:))
            let modified = fields.string("lastModified").flatMap(Timestamp.date(from:))
            var properties: [String] = []
            var warnings: [Wording] = []
            if let url = fields.string("publicURL") { properties.append("published: \(FrontMatter.quoted(url))") }
            let collaborators = fields.strings("collaboratorEmails")
            if !collaborators.isEmpty { properties.append("shared-with: \(FrontMatter.quoted(collaborators.joined(separator: ", ")))") }
            let tags = fields.strings("tags").filter { !$0.isEmpty }
            let isPinned = fields.bool("pinned") ?? false
            fields.ignore("deleted")
            for (name, value) in fields.leftovers {
                if let value { properties.append("\(name): \(FrontMatter.quoted(value))") } else { warnings.append(Wording("warnFieldNotKept", ["field": name])) }
            }
            let body = properties.isEmpty ? text : NoteProperties.block(properties) + (text.isEmpty ? "" : "\n\n" + text)
            let draft = NoteDraft(
                title: title, body: body, isPinned: isPinned, tags: tags, id: identity.importedID("simplenote:\(id)"),
                createdAt: created, modifiedAt: modified ?? created, trashedAt: inTrash ? (modified ?? created ?? Date()) : nil)
            try batcher.add(NoteImport(draft: draft, followsSource: true), label: "note \(position + 1)" + (title.isEmpty ? "" : " '\(title)'"), warnings: warnings)
        }
        try batcher.flush()
    }

    /// Longer first lines are a paragraph, not a title: Simplenote shows the first 64
    /// characters of them; they stay whole in the body.
    static let longestTitle = 120

    /// The title Simplenote shows for `content` (its first line that is not blank, trimmed,
    /// without a Markdown note's heading marks) and the text after that line; a first line
    /// too long for a title stays in the body, and its first words are the title.
    static func split(_ content: String, markdown: Bool) -> (title: String, body: String) {
        var rest = content[...]
        while let newline = rest.firstIndex(of: "\n"), rest[..<newline].allSatisfy(\.isWhitespace) {
            rest = rest[rest.index(after: newline)...]
        }
        let end = rest.firstIndex(of: "\n") ?? rest.endIndex
        var title = rest[..<end].trimmingCharacters(in: .whitespaces)
        if title.count > longestTitle {
            let start = title.prefix(64)
            let cut = start.lastIndex(of: " ").map { start[..<$0] } ?? start
            return (cut.trimmingCharacters(in: .whitespaces) + "…", String(rest))
        }
        if markdown, let marks = title.firstIndex(where: { $0 != "#" }), marks != title.startIndex, title[marks] == " " {
            title = title[marks...].trimmingCharacters(in: .whitespaces)
        }
        var body = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
        while let newline = body.firstIndex(of: "\n"), body[..<newline].allSatisfy(\.isWhitespace) {
            body = body[body.index(after: newline)...]
        }
        return (title, String(body))
    }
}
