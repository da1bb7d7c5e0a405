import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// One Google Keep note, as its Takeout JSON file has it, and the body NoteTaker gives it.
struct KeepNote {
    var title: String
    var text: String?
    var checklist: [(text: String, isChecked: Bool)]
    var labels: [String]
    var isPinned: Bool
    var isArchived: Bool
    var isTrashed: Bool
    /// Microseconds since 1970.
    var created: Int64?
    var edited: Int64?
    var attachments: [(path: String, mimetype: String?)]
    /// Links Keep found in the note (`annotations`): title and address.
    var links: [(title: String, url: String)]
    /// The properties block's lines: colour, sharing, and the fields NoteTaker has no place for.
    var properties: [String]
    /// What the note had that it does not keep.
    var warnings: [Wording]
    /// Whether the file had any of Keep's fields (another JSON file has none).
    var looksLikeKeep: Bool

    init(fields: JSONFields) {
        var fields = fields
        created = fields.integer("createdTimestampUsec")
        edited = fields.integer("userEditedTimestampUsec").flatMap { $0 > 0 ? $0 : nil } ?? created
        let title = fields.string("title"), text = fields.string("textContent")
        let items = fields.objects("listContent")
        looksLikeKeep = created != nil || title != nil || text != nil || !items.isEmpty
        self.title = Self.normalized(title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        self.text = text.map(Self.normalized)
        checklist = items.map { item in
            var item = item
            item.ignore("textHtml")
            return (Self.normalized(item.string("text") ?? "").replacingOccurrences(of: "\n", with: " "), item.bool("isChecked") ?? false)
        }
        labels = fields.objects("labels").compactMap { label in
            var label = label
            return label.string("name").flatMap { $0.isEmpty ? nil : $0 }
        }
        isPinned = fields.bool("isPinned") ?? false
        isArchived = fields.bool("isArchived") ?? false
        isTrashed = fields.bool("isTrashed") ?? false
        attachments = fields.objects("attachments").compactMap { file in
            var file = file
            return file.string("filePath").map { ($0, file.string("mimetype")) }
        }
        links = fields.objects("annotations").compactMap { link in
            var link = link
            guard let url = link.string("url"), !url.isEmpty else { return nil }
            link.ignore("source", "description")
            return (link.string("title") ?? "", url)
        }
        properties = []
        warnings = []
        if let color = fields.string("color"), color != "DEFAULT" { properties.append("color: \(FrontMatter.quoted(color.lowercased()))") }
        let sharees = fields.objects("sharees").compactMap { sharee -> String? in
            var sharee = sharee
            sharee.ignore("type")
            return sharee.string("email").map { (sharee.bool("isOwner") ?? false) ? "\($0) (owner)" : $0 }
        }
        if !sharees.isEmpty { properties.append("shared-with: \(FrontMatter.quoted(sharees.joined(separator: ", ")))") }
        if let html = fields.string("textContentHtml"), Self.formattingMarks.contains(where: html.contains) {
            warnings.append(Wording("warnKeepFormatting"))
        }
        for (name, text) in fields.leftovers {
            if let text { properties.append("\(name): \(FrontMatter.quoted(text))") } else { warnings.append(Wording("warnFieldNotKept", ["field": name])) }
        }
    }

    /// The Markdown body: the properties block, the text, the checklist as a task list, the
    /// attachments in place, and Keep's links.
    func body(files: [KeepAttachments.Staged]) -> String {
        var parts: [String] = []
        if !properties.isEmpty { parts.append(NoteProperties.block(properties)) }
        if let text, !text.isEmpty { parts.append(text) }
        if !checklist.isEmpty { parts.append(checklist.map { "- [\($0.isChecked ? "x" : " ")] \($0.text)" }.joined(separator: "\n")) }
        if !files.isEmpty {
            parts.append(files.map { "\($0.isImage ? "!" : "")[\(ENMLConverter.escaped($0.file.fileName))](attachment:\($0.file.id.key))" }
                .joined(separator: "\n\n"))
        }
        if !links.isEmpty {
            parts.append(links.map { link in
                let address = link.url.replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
                return "- [\(ENMLConverter.escaped(link.title.isEmpty ? link.url : link.title))](<\(address)>)"
            }.joined(separator: "\n"))
        }
        return parts.joined(separator: "\n\n")
    }

    /// Keep's HTML text marks formatting with these, as tags or as a span's style; plain
    /// text has none of them (its spans say `font-weight:400`, `font-style:normal`).
    private static let formattingMarks = [
        "<b>", "<i>", "<u>", "<h1", "<h2", "<h3", "<strong", "<em>", "font-weight:700", "font-weight:bold", "font-style:italic",
        "text-decoration:underline", "text-decoration:line-through",
    ]

    /// `text` with Windows line ends made plain.
    private static func normalized(_ text: String) -> String {
        text.withUnixLineEnds
    }
}
