import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// One note of a Standard Notes backup: an item whose `content` holds its title, text, note
/// type, references and app data (`org.standardnotes.sn`: pinned, archived…), and the body
/// NoteTaker gives it.
struct StandardNotesNote {
    var uuid: String?
    var title: String
    var text: String
    /// Standard Notes' note type: `plain-text`, `markdown`, `task`, `code`, `rich-text`,
    /// `super`, `spreadsheet`, `authentication` (none in older backups).
    var noteType: String?
    var references: [String]
    var isPinned: Bool
    var isArchived: Bool
    var isTrashed: Bool
    var created: Date?
    var updated: Date?
    /// The properties block's lines: the fields NoteTaker has no place for.
    var properties: [String] = []
    /// What the note had that it does not keep as it was.
    var warnings: [Wording] = []

    init(item: JSONFields) {
        var item = item
        uuid = item.string("uuid")
        created = item.string("created_at").flatMap(Timestamp.date(from:)) ?? item.integer("created_at_timestamp").flatMap { EpochDate.date($0, perSecond: 1_000_000) }
        updated = item.string("updated_at").flatMap(Timestamp.date(from:)) ?? item.integer("updated_at_timestamp").flatMap { EpochDate.date($0, perSecond: 1_000_000) }
        var content = item.nested("content") ?? JSONFields()
        title = (content.string("title") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        text = (content.string("text") ?? "").withUnixLineEnds
        noteType = content.string("noteType")
        references = content.objects("references").compactMap { reference in
            var reference = reference
            reference.ignore("content_type", "reference_type")
            return reference.string("uuid")
        }
        isTrashed = content.bool("trashed") ?? false
        var appData = content.nested("appData")
        var app = appData?.nested("org.standardnotes.sn")
        isPinned = app?.bool("pinned") ?? false
        isArchived = app?.bool("archived") ?? false
        app?.ignore("client_updated_at")
        content.ignore("preview_plain", "preview_html", "spellcheck", "hidePreview", "editorWidth")
        for (name, value) in (app?.leftovers ?? []) + content.leftovers {
            if let value, !value.isEmpty { properties.append("\(name): \(FrontMatter.quoted(value))") }
        }
    }

    /// The Markdown body: the properties block, then the text as its note type writes it.
    mutating func body() -> String {
        let converted: String
        switch noteType {
        case "super":
            if let markdown = SuperNote.markdown(text) {
                converted = markdown.text
                warnings += markdown.warnings
            } else {
                converted = text
                warnings.append(Wording("warnStandardNotesSuperDamaged"))
            }
        case "code": converted = text.isEmpty ? "" : "```\n" + text + (text.hasSuffix("\n") ? "" : "\n") + "```"
        case "rich-text":
            converted = text
            warnings.append(Wording("warnStandardNotesRichText"))
        case "spreadsheet", "authentication":
            converted = text.isEmpty ? "" : "```json\n" + text + "\n```"
            warnings.append(Wording("warnStandardNotesKeptAsData", ["type": noteType ?? ""]))
        default: converted = text
        }
        guard !properties.isEmpty else { return converted }
        return NoteProperties.block(properties) + (converted.isEmpty ? "" : "\n\n" + converted)
    }
}
