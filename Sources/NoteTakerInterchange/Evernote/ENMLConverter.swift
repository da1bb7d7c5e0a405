import Foundation
import NoteTakerKit

/// Turns an ENML tree into Markdown: paragraphs, headings, bold, italic, strikethrough,
/// code, links, lists (nested), checklists (old `<en-todo>` and new checklist lists),
/// quotes, tables (GitHub style), rules, and `<en-media>` as links to the note's attachments.
struct ENMLConverter {
    /// An attachment an `<en-media hash="...">` can point at.
    struct Media {
        var id: UUID
        var fileName: String
        var isImage: Bool
    }

    /// Resources by the MD5 of their bytes (lowercase hex), as `<en-media>` names them.
    let media: [String: Media]
    /// Things that could not be carried over, for the report.
    private(set) var warnings: [Wording] = []
    /// The resources an `<en-media>` showed.
    private var shown: Set<String> = []

    private static let checkedMarker = "\u{E000}x"
    private static let uncheckedMarker = "\u{E000} "
    private static let blockNames: Set<String> = [
        "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "blockquote", "pre", "hr",
        "en-note", "center", "section", "article", "header", "footer", "dl", "address", "tbody", "thead",
    ]

    /// The note's tasks (Evernote's Tasks), placed where the content's placeholder for their
    /// group is; those no placeholder names go at the end.
    private var tasks: [ENEXNote.Task]

    init(media: [String: Media], tasks: [ENEXNote.Task] = []) {
        self.media = media
        self.tasks = tasks
    }

    /// The tasks of `group` as a checklist, in Evernote's order, taken out of those left.
    private mutating func taskList(group: String?) -> String {
        let chosen = tasks.enumerated().filter { group == nil || $0.element.group == group }
        let chosenIndexes = Set(chosen.map(\.offset))
        tasks = tasks.enumerated().filter { !chosenIndexes.contains($0.offset) }.map(\.element)
        return chosen.map(\.element).sorted { $0.sortWeight < $1.sortWeight }
            .map { "- [\($0.isDone ? "x" : " ")] \($0.title)" }.joined(separator: "\n")
    }

    /// The tasks no placeholder placed, as a checklist (empty when none).
    mutating func remainingTasks() -> String {
        taskList(group: nil)
    }

    /// The Markdown for a whole note. Blocks are separated by a blank line, except checklist
    /// items in a row (Evernote writes each as its own `<div>`), which stay one list.
    mutating func markdown(_ root: ENMLNode) -> String {
        guard case .element(_, _, let children) = root else { return "" }
        var parts = blocks(children)
        let left = remainingTasks()
        if !left.isEmpty { parts.append(left) }
        // Resources no <en-media> shows (Evernote keeps them; its apps list them under the note).
        let unshown = media.filter { !shown.contains($0.key) }.values.sorted { $0.fileName < $1.fileName }
        if !unshown.isEmpty { parts.append(unshown.map(Self.mediaLink).joined(separator: "  \n")) }
        var result = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { result += Self.isTask(parts[index - 1]) && Self.isTask(part) ? "\n" : "\n\n" }
            result += part
        }
        return result
    }

    private static func isTask(_ block: String) -> Bool {
        (block.hasPrefix("- [ ] ") || block.hasPrefix("- [x] ")) && !block.contains("\n")
    }

    private mutating func blocks(_ nodes: [ENMLNode]) -> [String] {
        var result: [String] = []
        var inline: [ENMLNode] = []
        func flush(_ converter: inout ENMLConverter) {
            let paragraph = converter.paragraph(inline)
            if !paragraph.isEmpty { result.append(paragraph) }
            inline = []
        }
        for node in nodes {
            guard case .element(let name, _, _) = node, Self.blockNames.contains(name) else {
                inline.append(node)
                continue
            }
            flush(&self)
            result += block(node)
        }
        flush(&self)
        return result
    }

    private mutating func block(_ node: ENMLNode) -> [String] {
        guard case .element(let name, let attributes, let children) = node else { return [] }
        let style = attributes["style"]?.lowercased() ?? ""
        if Self.isHidden(style.replacingOccurrences(of: " ", with: "")) { return [] }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let text = inlineText(children).replacingOccurrences(of: "  \n", with: " ")
            return text.isEmpty ? [] : [String(repeating: "#", count: Int(String(name.last ?? "1")) ?? 1) + " " + text]
        case "hr":
            return ["---"]
        case "pre":
            return codeBlock(node)
        case "div" where style.contains("--en-task-group"):
            // Evernote's "Content not supported" placeholder: the group's tasks, as a checklist.
            let group = Self.styleValue("--en-id", in: attributes["style"] ?? "")
            let list = taskList(group: group)
            return list.isEmpty ? [] : [list]
        case "div" where style.contains("-en-codeblock"):
            return codeBlock(node)
        case "ul", "ol":
            return [list(children, ordered: name == "ol", checklist: style.contains("--en-todo:true"))]
        case "blockquote":
            return [blocks(children).joined(separator: "\n\n").split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? ">" : "> " + $0 }.joined(separator: "\n")]
        case "table":
            let caption = children.first { if case .element("caption", _, _) = $0 { true } else { false } }
            let title = caption.map { inlineText([$0]).replacingOccurrences(of: "  \n", with: " ") } ?? ""
            return (title.isEmpty ? [] : [Self.wrapped(title, "*")]) + [table(node)]
        default:
            return blocks(children)
        }
    }

    private mutating func paragraph(_ nodes: [ENMLNode]) -> String {
        let text = inlineText(nodes)
        if text.hasPrefix(Self.checkedMarker) || text.hasPrefix(Self.uncheckedMarker) {
            let done = text.hasPrefix(Self.checkedMarker)
            let rest = text.dropFirst(Self.checkedMarker.count).trimmingCharacters(in: .whitespaces)
            return "- [\(done ? "x" : " ")] " + Self.restoringMarkers(rest)
        }
        return Self.restoringMarkers(text)
    }

    private mutating func list(_ items: [ENMLNode], ordered: Bool, checklist: Bool) -> String {
        var lines: [String] = []
        var number = 1
        for item in items {
            guard case .element(let name, let attributes, let children) = item else { continue }
            if name == "ul" || name == "ol" {
                let nested = block(item).joined(separator: "\n")
                lines += nested.split(separator: "\n", omittingEmptySubsequences: false).map { "   " + $0 }
                continue
            }
            guard name == "li" else { continue }
            var marker = ordered ? "\(number)." : "-"
            number += 1
            if checklist {
                marker += (attributes["style"]?.lowercased().contains("--en-checked:true") ?? false) ? " [x]" : " [ ]"
            }
            var parts = blocks(children)
            let indent = String(repeating: " ", count: ordered ? 3 : 2)
            // An item that starts with a checkbox is a task item, not a list inside an item.
            if !checklist, let first = parts.first, first.hasPrefix("- [ ] ") || first.hasPrefix("- [x] ") {
                marker += " " + first.prefix(5).dropFirst(2)
                parts[0] = String(first.dropFirst(6))
            }
            lines.append(marker + " " + (parts.first ?? ""))
            for part in parts.dropFirst() {
                lines += part.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    private mutating func table(_ node: ENMLNode) -> String {
        var rows: [[String]] = []
        func collect(_ node: ENMLNode, _ converter: inout ENMLConverter) {
            guard case .element(let name, _, let children) = node else { return }
            if name == "caption" { return }
            if name == "tr" {
                rows.append(children.compactMap { cell -> String? in
                    guard case .element(let cellName, _, let content) = cell, cellName == "td" || cellName == "th" else { return nil }
                    // Line breaks in a cell stay line breaks (GitHub's tables take <br>).
                    return converter.inlineText(content).components(separatedBy: "  \n")
                        .map { $0.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces) }
                        .joined(separator: "<br>").replacingOccurrences(of: "|", with: "\\|")
                })
            } else {
                for child in children { collect(child, &converter) }
            }
        }
        collect(node, &self)
        let width = max(1, rows.map(\.count).max() ?? 1)
        guard !rows.isEmpty else { return "" }
        let padded = rows.map { $0 + Array(repeating: "", count: width - $0.count) }
        var lines = ["| " + padded[0].joined(separator: " | ") + " |", "|" + Array(repeating: " --- |", count: width).joined()]
        lines += padded.dropFirst().map { "| " + $0.joined(separator: " | ") + " |" }
        return Self.restoringMarkers(lines.joined(separator: "\n"))
    }

    private mutating func inlineText(_ nodes: [ENMLNode]) -> String {
        var result = ""
        for node in nodes { result += inline(node) }
        guard result.contains("\n") else { return result.trimmingCharacters(in: .whitespaces) }
        return result.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) == "" ? "" : String($0) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private mutating func inline(_ node: ENMLNode) -> String {
        switch node {
        case .text(let text):
            return Self.escaped(Self.collapsingWhitespace(text))
        case .element(let name, let attributes, let children):
            let style = attributes["style"]?.lowercased().replacingOccurrences(of: " ", with: "") ?? ""
            // Hidden text (web clips carry menus, pop-ups and tracking text so) stays hidden.
            if Self.isHidden(style) { return "" }
            let inner = children.map { inline($0) }.joined()
            switch name {
            case "b", "strong": return Self.wrapped(inner, "**")
            case "i", "em": return Self.wrapped(inner, "*")
            case "s", "strike", "del": return Self.wrapped(inner, "~~")
            case "code", "tt", "kbd": return codeSpan(node)
            case "br": return "  \n"
            case "en-todo": return attributes["checked"]?.lowercased() == "true" ? Self.checkedMarker : Self.uncheckedMarker
            case "a":
                guard let href = attributes["href"], !href.isEmpty else { return inner }
                return "[\(inner.isEmpty ? Self.escaped(href) : inner)](\(Self.linkTarget(href)))"
            case "img":
                guard let source = attributes["src"] else { return "" }
                return "![\(Self.escaped(attributes["alt"] ?? ""))](\(source.replacingOccurrences(of: " ", with: "%20")))"
            case "en-media":
                guard let hash = attributes["hash"]?.lowercased(), let file = media[hash] else {
                    warnings.append(Wording("warnMissingResource"))
                    return ""
                }
                shown.insert(hash)
                return Self.mediaLink(file)
            case "en-crypt":
                warnings.append(Wording("warnEncryptedText"))
                return "[encrypted text]"
            default:
                var text = inner
                if Self.isBold(style) { text = Self.wrapped(text, "**") }
                if style.contains("font-style:italic") { text = Self.wrapped(text, "*") }
                if style.contains("line-through") { text = Self.wrapped(text, "~~") }
                if Self.isHighlight(style), !text.trimmingCharacters(in: .whitespaces).isEmpty { text = "<mark>\(text)</mark>" }
                if Self.blockNames.contains(name) { return text + "  \n" }
                return text
            }
        }
    }

    /// A link to an attachment, shown in place when it is a picture.
    private static func mediaLink(_ file: Media) -> String {
        "\(file.isImage ? "!" : "")[\(escaped(file.fileName))](attachment:\(file.id.key))"
    }

    /// `text` between `marker`s, with its outer spaces kept outside (Markdown needs that).
    private static func wrapped(_ text: String, _ marker: String) -> String {
        let core = text.trimmingCharacters(in: .whitespaces)
        guard !core.isEmpty else { return text }
        let leading = text.prefix { $0 == " " }
        let trailing = String(text.reversed().prefix { $0 == " " })
        return "\(leading)\(marker)\(core)\(marker)\(trailing)"
    }

    /// A code block; the targets of links inside it (which a code block cannot show as
    /// links) follow it.
    private func codeBlock(_ node: ENMLNode) -> [String] {
        let targets = node.linkTargets
        let code = fenced(node.plainText)
        guard !targets.isEmpty else { return [code] }
        return [code, "Links in the code above: " + targets.map { "<\($0)>" }.joined(separator: ", ")]
    }

    private func fenced(_ code: String) -> String {
        var fence = "```"
        while code.contains(fence) { fence += "`" }
        let body = code.hasSuffix("\n") ? String(code.dropLast()) : code
        return "\(fence)\n\(body)\n\(fence)"
    }

    /// Runs of spaces, tabs and line breaks as one space, as HTML shows text.
    static func collapsingWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var inSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if !inSpace { result.unicodeScalars.append(" ") }
                inSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                inSpace = false
            }
        }
        return result
    }

    /// Text with the characters Markdown would read as formatting escaped.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { "\\*_`[]<".utf8.contains($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if "\\*_`[]<".unicodeScalars.contains(scalar) { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    private static func restoringMarkers(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{E000}") else { return text }
        return text.replacingOccurrences(of: checkedMarker, with: "[x]").replacingOccurrences(of: uncheckedMarker, with: "[ ]")
    }

    /// Whether a style (spaces removed, lowercased) hides its element.
    static func isHidden(_ style: String) -> Bool {
        style.contains("display:none") || style.contains("visibility:hidden")
    }

    /// Whether a style makes its text bold: `bold`, `bolder`, or a weight of 600 and up.
    static func isBold(_ style: String) -> Bool {
        guard let range = style.range(of: "font-weight:") else { return false }
        let value = style[range.upperBound...].prefix { $0 != ";" && $0 != "!" }
        if value == "bold" || value == "bolder" { return true }
        return Int(value).map { $0 >= 600 } ?? false
    }

    /// Whether a style is Evernote's highlighter: `--en-highlight` (Evernote 10) or
    /// `-evernote-highlight:true` (the apps before it).
    static func isHighlight(_ style: String) -> Bool {
        style.contains("--en-highlight:") || style.contains("-evernote-highlight:true")
    }

    /// Code in a line; a link inside keeps its target (`[`code`](target)`, or the target
    /// after the code when only part of it is linked).
    private func codeSpan(_ node: ENMLNode) -> String {
        let code = Self.wrapped(node.plainText.replacingOccurrences(of: "`", with: "'"), "`")
        let targets = node.linkTargets
        guard !targets.isEmpty else { return code }
        if targets.count == 1, case .element(_, _, let children) = node, children.count == 1,
           case .element("a", _, _) = children[0] {
            return "[\(code)](\(Self.linkTarget(targets[0])))"
        }
        return code + " (" + targets.map { "<\($0)>" }.joined(separator: ", ") + ")"
    }

    /// A link target as Markdown takes it (spaces and parentheses escaped).
    static func linkTarget(_ href: String) -> String {
        href.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: ")", with: "%29").replacingOccurrences(of: "(", with: "%28")
    }

    /// A CSS custom property's value in a `style` attribute (`--en-id: abc;` → `abc`).
    static func styleValue(_ property: String, in style: String) -> String? {
        guard let range = style.range(of: property) else { return nil }
        let rest = style[range.upperBound...].drop { $0 == " " }
        guard rest.first == ":" else { return nil }
        let value = rest.dropFirst().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
