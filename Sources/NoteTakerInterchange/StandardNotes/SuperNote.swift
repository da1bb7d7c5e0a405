import Foundation
import NoteTakerKit

/// A Standard Notes "Super" note's text (the Lexical editor's JSON: a `root` node whose children
/// are blocks, each with children down to text nodes) written as Markdown: paragraphs, headings,
/// quotes, bulleted, numbered and check lists (nested), code blocks with their language, rules,
/// tables, links and text formats (bold, italic, strikethrough, code). Anything else comes in as
/// its text, and is named in a warning.
enum SuperNote {
    /// Lexical's text format bits.
    private static let bold = 1, italic = 2, strikethrough = 4, code = 16

    /// Nodes nested deeper than this come in as plain text (a real note is a few levels deep).
    private static let deepest = 64

    /// The Markdown for `json`, and what was not kept as it was; `nil` when it is not Lexical's.
    static func markdown(_ json: String) -> (text: String, warnings: [Wording])? {
        guard var document = JSONFields(data: Data(json.utf8)), var root = document.nested("root") else { return nil }
        var writer = Writer()
        let text = writer.blocks(root.objects("children"), depth: 0).joined(separator: "\n\n")
        return (text, writer.unknown.sorted().map { Wording("warnStandardNotesSuperNode", ["type": $0]) })
    }

    private struct Writer {
        var unknown: Set<String> = []

        mutating func blocks(_ nodes: [JSONFields], depth: Int) -> [String] {
            nodes.map { block($0, depth: depth) }.filter { !$0.isEmpty }
        }

        mutating func block(_ node: JSONFields, depth: Int) -> String {
            var node = node
            let children = node.objects("children")
            guard depth < SuperNote.deepest else { return plain(children) }
            switch node.string("type") {
            case "paragraph": return inline(children)
            case "heading":
                let level = Int(node.string("tag")?.dropFirst() ?? "1") ?? 1
                return String(repeating: "#", count: min(max(level, 1), 6)) + " " + inline(children)
            case "quote": return inline(children).split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n")
            case "list": return list(node, children, depth: depth)
            case "code":
                let body = children.map { child -> String in
                    var child = child
                    return child.string("type") == "linebreak" ? "\n" : child.string("type") == "tab" ? "\t" : child.string("text") ?? ""
                }.joined()
                return "```" + (node.string("language") ?? "") + "\n" + body + "\n```"
            case "horizontalrule": return "---"
            case "table": return table(children)
            default:
                unknown.insert(node.string("type") ?? "?")
                return children.isEmpty ? "" : children.contains { $0.holds("children") } ? blocks(children, depth: depth + 1).joined(separator: "\n\n") : inline(children)
            }
        }

        /// A list's items, a nested list indented under the item before it.
        mutating func list(_ node: JSONFields, _ items: [JSONFields], depth: Int) -> String {
            var node = node
            let kind = node.string("listType") ?? "bullet"
            var number = Int(node.integer("start") ?? 1)
            var lines: [String] = []
            for item in items {
                var item = item
                let children = item.objects("children")
                if children.count == 1, var only = children.first, only.string("type") == "list" {
                    let nested = list(only, only.objects("children"), depth: depth + 1)
                    lines.append(nested.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                    continue
                }
                let marker = kind == "number" ? "\(number)." : kind == "check" ? ((item.bool("checked") ?? false) ? "- [x]" : "- [ ]") : "-"
                number += 1
                lines.append(marker + " " + inline(children))
            }
            return lines.joined(separator: "\n")
        }

        /// A table, its first row the header.
        mutating func table(_ rows: [JSONFields]) -> String {
            MarkdownTable.text(rows.map { row in
                var row = row
                return row.objects("children").map { cell in
                    var cell = cell
                    return blocks(cell.objects("children"), depth: SuperNote.deepest - 1).joined(separator: " ")
                }
            })
        }

        /// Text nodes with their formats, links, and line breaks.
        mutating func inline(_ nodes: [JSONFields]) -> String {
            var text = ""
            for node in nodes {
                var node = node
                switch node.string("type") {
                case "text", "code-highlight", "hashtag":
                    text += formatted(node.string("text") ?? "", format: Int(node.integer("format") ?? 0))
                case "linebreak": text += "\\\n"
                case "tab": text += "\t"
                case "link", "autolink":
                    let url = (node.string("url") ?? "").replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
                    text += "[" + inline(node.objects("children")) + "](<" + url + ">)"
                default:
                    unknown.insert(node.string("type") ?? "?")
                    text += node.string("text") ?? inline(node.objects("children"))
                }
            }
            return text
        }

        func formatted(_ text: String, format: Int) -> String {
            guard !text.isEmpty, format != 0 else { return text }
            if format & SuperNote.code != 0 { return "`" + text + "`" }
            var marked = text
            if format & SuperNote.strikethrough != 0 { marked = "~~" + marked + "~~" }
            if format & SuperNote.italic != 0 { marked = "*" + marked + "*" }
            if format & SuperNote.bold != 0 { marked = "**" + marked + "**" }
            return marked
        }

        func plain(_ nodes: [JSONFields]) -> String {
            nodes.compactMap { node in
                var node = node
                return node.string("text")
            }.joined()
        }
    }
}
