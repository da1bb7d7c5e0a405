import Foundation
import NoteTakerMarkdown

/// Keeps the HTML that Markdown may produce and nothing else.
///
/// Every tag is parsed and rebuilt: a tag on the allowlist keeps only its allowed attributes,
/// their values decoded, checked and re-encoded; any other tag — `script`, `style`, `iframe`,
/// a form, an SVG — is shown as text, so a note that mentions HTML reads as written and none
/// of it runs. Links and images keep only `http`, `https`, `mailto` and relative addresses;
/// `attachment:ID` becomes the API's address of that attachment.
enum HTMLSanitizer {
    /// Allowed tags and, for each, its allowed attributes.
    static let allowed: [String: Set<String>] = {
        var tags: [String: Set<String>] = [
            "a": ["href", "title"], "img": ["src", "alt", "title"], "ol": ["start"], "li": ["class"],
            "th": ["align"], "td": ["align"], "table": ["class"], "input": ["type", "checked", "disabled", "data-task"],
            "code": ["class"], "span": ["class"],
        ]
        for plain in ["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "u", "s", "del",
                      "pre", "blockquote", "ul", "thead", "tbody", "tr", "sup", "sub", "kbd", "mark"] {
            tags[plain] = []
        }
        return tags
    }()

    /// URL schemes a link may use.
    static let linkSchemes: Set<String> = ["http", "https", "mailto", "note"]
    /// URL schemes an image may use.
    static let imageSchemes: Set<String> = ["http", "https"]

    /// The sanitized form of `html`.
    static func sanitize(_ html: String) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<" {
                if let (tag, end) = HTMLTag.parse(html, at: index) {
                    output += rebuild(tag) ?? escapeText(String(html[index..<end]))
                    index = end
                } else {
                    output += "&lt;"
                    index = html.index(after: index)
                }
            } else {
                output.append(character == ">" ? "&gt;" : String(character))
                index = html.index(after: index)
            }
        }
        return output
    }

    /// The tag as allowed, or `nil` when the tag itself is not.
    static func rebuild(_ tag: HTMLTag) -> String? {
        guard let allowedAttributes = allowed[tag.name] else { return nil }
        if tag.isClosing { return "</\(tag.name)>" }
        var attributes = tag.attributes.filter { allowedAttributes.contains($0.0) }.compactMap { kept($0.0, $0.1, in: tag.name) }
        switch tag.name {
        case "input":
            guard attributes.contains(where: { $0.0 == "type" && $0.1 == "checkbox" }) else { return nil }
            // Only a task list's own boxes tick (the page changes the task's line); any other is disabled.
            if !attributes.contains(where: { $0.0 == "disabled" || $0.0 == "data-task" }) { attributes.append(("disabled", nil)) }
        case "a" where attributes.contains(where: { $0.0 == "href" && $0.1?.hasPrefix("#") == true }):
            // A link to a note opens it in the app.
            attributes.append(("class", "note-link-inline"))
        case "a" where attributes.contains(where: { $0.0 == "href" }):
            attributes.append(("rel", "noopener noreferrer"))
            attributes.append(("target", "_blank"))
        default:
            break
        }
        let rendered = attributes.map { name, value in value.map { "\(name)=\"\(escapeAttribute($0))\"" } ?? name }
        return "<" + ([tag.name] + rendered).joined(separator: " ") + ">"
    }

    /// The classes each tag may carry: a task's, the properties table's, a code block's
    /// language, and the highlighter's.
    static let classes: [String: Set<String>] = [
        "li": ["task", "task done"], "table": ["properties"],
        "code": Set(CodeLanguage.names.map { "language-" + $0 }), "span": CodeHighlighter.classes,
    ]

    /// The attribute of a `tag` as kept (a `nil` value for a bare attribute), or `nil` to drop it.
    static func kept(_ name: String, _ value: String?, in tag: String) -> (String, String?)? {
        switch name {
        case "href": return value.flatMap { safeURL($0, schemes: linkSchemes) }.map { (name, $0) }
        case "src": return value.flatMap { safeURL($0, schemes: imageSchemes) }.map { (name, $0) }
        case "class": return classes[tag]?.contains(value ?? "") == true ? (name, value) : nil
        case "data-task": return value.flatMap { Int($0) }.map { (name, String($0)) }
        case "type": return value?.lowercased() == "checkbox" ? (name, "checkbox") : nil
        case "checked", "disabled": return (name, nil)
        case "align":
            guard let alignment = value?.lowercased(), ["left", "right", "center"].contains(alignment) else { return nil }
            return (name, alignment)
        case "start": return value.flatMap { Int($0) }.map { (name, String($0)) }
        default: return (name, value ?? "")
        }
    }

    /// `url` when it is relative or uses one of `schemes`; `attachment:ID` rewritten to the API.
    static func safeURL(_ url: String, schemes: Set<String>) -> String? {
        let compact = String(url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        guard let colon = compact.firstIndex(of: ":") else { return compact }
        let scheme = compact[..<colon]
        if scheme.contains(where: { "/?#".contains($0) }) { return compact }
        switch scheme.lowercased() {
        case "attachment":
            guard let id = UUID(uuidString: String(compact[compact.index(after: colon)...])) else { return nil }
            return AttachmentJSON.contentPath(id)
        case "note" where schemes.contains("note"):
            guard let id = UUID(uuidString: String(compact[compact.index(after: colon)...])) else { return nil }
            return "#note=\(id.uuidString.lowercased())"
        case "wiki" where schemes.contains("note"):
            // `[[Title]]`: the app finds the note by title, or offers to make it.
            let written = String(compact[compact.index(after: colon)...])
            let title = written.removingPercentEncoding ?? written
            return "#wiki=" + (title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        case let name where schemes.contains(name):
            return compact
        default:
            return nil
        }
    }

    static func escapeText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func escapeAttribute(_ text: String) -> String {
        escapeText(text).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
