import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// A note's Markdown cut into the blocks a printed page shows, each with its text as Pango
/// markup: headings, paragraphs, list items (bullets, numbers, checkboxes, nesting),
/// quotes, code, tables (as monospaced text), rules and pictures.
enum PrintBlock: Equatable {
    case heading(level: Int, markup: String)
    case paragraph(markup: String)
    case listItem(depth: Int, marker: String, markup: String)
    case quote(markup: String)
    case code(text: String)
    case rule
    case image(target: String, alt: String)

    /// The blocks of a Markdown text, read by the same parser as the web app's preview, its
    /// single line breaks shown as `preferences` say.
    static func blocks(_ markdown: String, preferences: Preferences = Preferences()) -> [PrintBlock] {
        let syntax: MarkdownSyntax = preferences.lineBreaks ? [.gitHub, .lineBreaks] : .gitHub
        return blocks(MarkdownDocument(parsing: markdown, syntax: syntax).blocks, depth: 0, inQuote: false)
    }

    private static func blocks(_ blocks: [MarkdownBlock], depth: Int, inQuote: Bool) -> [PrintBlock] {
        var printed: [PrintBlock] = []
        for block in blocks {
            switch block {
            case .paragraph(let inlines):
                if inlines.count == 1, case .image(let source, _, let description) = inlines[0], !inQuote {
                    printed.append(.image(target: source, alt: MarkdownInline.plainText(description)))
                } else {
                    printed.append(inQuote ? .quote(markup: markup(inlines)) : .paragraph(markup: markup(inlines)))
                }
            case .heading(let level, let inlines): printed.append(.heading(level: level, markup: markup(inlines)))
            case .thematicBreak: printed.append(.rule)
            case .blockQuote(let children): printed += Self.blocks(children, depth: depth, inQuote: true)
            case .code(_, let text): printed.append(.code(text: text.hasSuffix("\n") ? String(text.dropLast()) : text))
            case .html(let raw): printed.append(.paragraph(markup: escape(raw)))
            case .list(let list):
                for (index, item) in list.items.enumerated() {
                    let marker = switch item.task {
                    case true?: "☑"
                    case false?: "☐"
                    case nil: list.start.map { "\($0 + index)." } ?? "•"
                    }
                    var children = item.blocks[...]
                    var text = ""
                    if case .paragraph(let inlines)? = children.first {
                        text = markup(inlines)
                        children = children.dropFirst()
                    }
                    printed.append(.listItem(depth: depth, marker: marker, markup: text))
                    printed += Self.blocks(Array(children), depth: depth + 1, inQuote: inQuote)
                }
            case .table(let table):
                let rows = ([table.header] + table.rows).map { "| " + $0.map(MarkdownInline.plainText).joined(separator: " | ") + " |" }
                printed.append(.code(text: rows.joined(separator: "\n")))
            }
        }
        return printed
    }

    /// Inlines as Pango markup: code, links (text and address), bold, italic, struck text;
    /// pictures inside text by their description.
    static func markup(_ inlines: [MarkdownInline]) -> String {
        var result = ""
        for inline in inlines {
            switch inline {
            case .text(let text), .html(let text): result += escape(text)
            case .softBreak: result += " "
            case .hardBreak: result += "\n"
            case .code(let code): result += "<tt>\(escape(code))</tt>"
            case .emphasis(let children): result += "<i>\(markup(children))</i>"
            case .strong(let children): result += "<b>\(markup(children))</b>"
            case .strikethrough(let children): result += "<s>\(markup(children))</s>"
            case .link(let destination, _, let children):
                let text = markup(children)
                result += MarkdownInline.plainText(children) == destination || "mailto:" + MarkdownInline.plainText(children) == destination
                    ? "<u>\(text)</u>" : "<u>\(text)</u> <span foreground=\"#666666\">(\(escape(destination)))</span>"
            case .image(_, _, let description): result += "[picture: \(escape(MarkdownInline.plainText(description)))]"
            }
        }
        return result
    }

    /// Text safe inside Pango markup.
    static func escape(_ text: some StringProtocol) -> String {
        MarkdownDocument.escapedMarkup(String(text))
    }
}
