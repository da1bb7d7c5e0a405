import Foundation
import NoteTakerMarkdown

/// Keeps the HTML that Markdown may produce and nothing else.
///
/// Every tag is parsed and rebuilt: a tag on the allowlist keeps only its allowed attributes,
/// their values decoded, checked and re-encoded; any other tag — `script`, `style`, `iframe`,
/// a form, an SVG — is shown as text, so a note that mentions HTML reads as written and none
/// of it runs. Links and images keep only `http`, `https`, `mailto` and relative addresses;
/// `attachment:ID` becomes the API's address of that attachment. For a published page
/// (``Addressing/published(pictures:)``) addresses lead nowhere but to the web, mail and the
/// note's own pictures, inlined.
enum HTMLSanitizer {
    /// Where the addresses of a sanitized page lead.
    enum Addressing: Sendable {
        /// The app's preview: `attachment:ID` to the API's copy, `note:ID` and `[[Title]]` to
        /// the note in the app, relative addresses kept.
        case app
        /// A published page (docs/sharing.md §5.1), read outside the app: a picture
        /// `attachment:ID` becomes its `data:` address in `pictures` (by attachment id), links
        /// go only to the web and to mail; every other address is dropped.
        case published(pictures: [UUID: String])

        /// URL schemes a link may use.
        var linkSchemes: Set<String> {
            switch self {
            case .app: ["http", "https", "mailto", "note"]
            case .published: ["http", "https", "mailto"]
            }
        }

        /// URL schemes an image may use.
        var imageSchemes: Set<String> {
            switch self {
            case .app: ["http", "https"]
            case .published: []
            }
        }
    }

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

    /// The sanitized form of `html`, its addresses leading where `addressing` says.
    static func sanitize(_ html: String, addressing: Addressing = .app) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<" {
                if let (tag, end) = HTMLTag.parse(html, at: index) {
                    output += rebuild(tag, addressing: addressing) ?? escapeText(String(html[index..<end]))
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
    static func rebuild(_ tag: HTMLTag, addressing: Addressing = .app) -> String? {
        guard let allowedAttributes = allowed[tag.name] else { return nil }
        if tag.isClosing { return "</\(tag.name)>" }
        var attributes = tag.attributes.filter { allowedAttributes.contains($0.0) }.compactMap { kept($0.0, $0.1, in: tag.name, addressing: addressing) }
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
    static func kept(_ name: String, _ value: String?, in tag: String, addressing: Addressing = .app) -> (String, String?)? {
        switch name {
        case "href": return value.flatMap { safeURL($0, image: false, addressing: addressing) }.map { (name, $0) }
        case "src": return value.flatMap { safeURL($0, image: true, addressing: addressing) }.map { (name, $0) }
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

    /// `url` as `addressing` lets an image's (`image`) or a link's address lead: relative, or
    /// with one of its schemes; `attachment:ID` rewritten to the API, or to the picture inlined.
    static func safeURL(_ url: String, image: Bool, addressing: Addressing = .app) -> String? {
        let schemes = image ? addressing.imageSchemes : addressing.linkSchemes
        let keepsRelative = if case .app = addressing { true } else { false }
        let compact = String(url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        guard let colon = compact.firstIndex(of: ":") else { return keepsRelative ? compact : nil }
        let scheme = compact[..<colon]
        if scheme.contains(where: { "/?#".contains($0) }) { return keepsRelative ? compact : nil }
        switch scheme.lowercased() {
        case "attachment":
            guard let id = UUID(uuidString: String(compact[compact.index(after: colon)...])) else { return nil }
            switch addressing {
            case .app: return AttachmentJSON.contentPath(id)
            case .published(let pictures): return image ? pictures[id] : nil
            }
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
