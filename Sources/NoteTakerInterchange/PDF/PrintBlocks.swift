import Foundation

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

    private static let listItem = try? NSRegularExpression(pattern: #"^(\s*)([-*+]|\d{1,9}[.)])\s+(?:\[([ xX])\]\s+)?(.*)$"#)
    private static let imageLine = try? NSRegularExpression(pattern: #"^\s*!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)\s*$"#)

    /// The blocks of a Markdown text.
    static func blocks(_ markdown: String) -> [PrintBlock] {
        var blocks: [PrintBlock] = []
        var paragraph: [String] = []
        var quote: [String] = []
        var code: [String]?
        var fence = ""
        func flush() {
            if !paragraph.isEmpty { blocks.append(.paragraph(markup: inline(paragraph.joined(separator: " ")))) }
            if !quote.isEmpty { blocks.append(.quote(markup: inline(quote.joined(separator: " ")))) }
            paragraph = []
            quote = []
        }
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine.trimmingSuffix("\r"))
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var lines = code {
                if trimmed.hasPrefix(fence) {
                    blocks.append(.code(text: lines.joined(separator: "\n")))
                    code = nil
                } else {
                    lines.append(line)
                    code = lines
                }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                flush()
                fence = String(trimmed.prefix(3))
                code = []
            } else if trimmed.isEmpty {
                flush()
            } else if let level = headingLevel(trimmed) {
                flush()
                blocks.append(.heading(level: level, markup: inline(String(trimmed.dropFirst(level)).trimmingCharacters(in: .whitespaces))))
            } else if ["---", "***", "___"].contains(trimmed.replacingOccurrences(of: " ", with: "")) && paragraph.isEmpty {
                flush()
                blocks.append(.rule)
            } else if trimmed.hasPrefix(">") {
                if !paragraph.isEmpty { flush() }
                quote.append(String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces))
            } else if trimmed.hasPrefix("|") {
                flush()
                if case .code(let previous)? = blocks.last, previous.hasPrefix("|") {
                    blocks[blocks.count - 1] = .code(text: previous + "\n" + trimmed)
                } else {
                    blocks.append(.code(text: trimmed))
                }
            } else if let image = match(imageLine, line) {
                flush()
                blocks.append(.image(target: image[2], alt: image[1]))
            } else if let item = match(listItem, line) {
                flush()
                let depth = item[1].replacingOccurrences(of: "\t", with: "    ").count / 2
                let marker: String
                switch item[3] {
                case " ": marker = "☐"
                case "x", "X": marker = "☑"
                default: marker = item[2].first?.isNumber == true ? item[2] : "•"
                }
                blocks.append(.listItem(depth: depth, marker: marker, markup: inline(item[4])))
            } else if !quote.isEmpty {
                quote.append(trimmed)
            } else {
                paragraph.append(trimmed)
            }
        }
        if let code { blocks.append(.code(text: code.joined(separator: "\n"))) }
        flush()
        return blocks
    }

    private static func headingLevel(_ line: String) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        return rest.isEmpty || rest.first == " " ? hashes : nil
    }

    private static func match(_ expression: NSRegularExpression?, _ line: String) -> [String]? {
        let text = line as NSString
        guard let result = expression?.firstMatch(in: line, range: NSRange(location: 0, length: text.length)) else { return nil }
        return (0..<result.numberOfRanges).map {
            result.range(at: $0).location == NSNotFound ? "" : text.substring(with: result.range(at: $0))
        }
    }

    private static let inlineRules: [(NSRegularExpression?, String)] = [
        (try? NSRegularExpression(pattern: #"!\[([^\]]*)\]\([^)]*\)"#), "[picture: $1]"),
        (try? NSRegularExpression(pattern: #"\[([^\]]+)\]\(([^)\s]+)[^)]*\)"#), "<u>$1</u> <span foreground=\"#666666\">($2)</span>"),
        (try? NSRegularExpression(pattern: #"\*\*(?=\S)(.+?)(?<=\S)\*\*"#), "<b>$1</b>"),
        (try? NSRegularExpression(pattern: #"__(?=\S)(.+?)(?<=\S)__"#), "<b>$1</b>"),
        (try? NSRegularExpression(pattern: #"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"#), "<i>$1</i>"),
        (try? NSRegularExpression(pattern: #"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])"#), "<i>$1</i>"),
        (try? NSRegularExpression(pattern: #"~~(?=\S)(.+?)(?<=\S)~~"#), "<s>$1</s>"),
        (try? NSRegularExpression(pattern: #"\\([!-/:-@\[-`{-~])"#), "$1"),
    ]

    /// Inline Markdown as Pango markup: code spans, links (text and address), bold, italic,
    /// strikethrough; everything else as escaped text.
    static func inline(_ text: String) -> String {
        var codeSpans: [String] = []
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "`"), let close = rest[rest.index(after: open)...].firstIndex(of: "`") {
            result += rest[..<open]
            codeSpans.append(String(rest[rest.index(after: open)..<close]))
            result += "\u{E001}\(codeSpans.count - 1)\u{E002}"
            rest = rest[rest.index(after: close)...]
        }
        result = escape(result + rest)
        for (expression, template) in inlineRules {
            guard let expression else { continue }
            result = expression.stringByReplacingMatches(
                in: result, range: NSRange(location: 0, length: (result as NSString).length), withTemplate: template)
        }
        for (index, span) in codeSpans.enumerated() {
            result = result.replacingOccurrences(of: "\u{E001}\(index)\u{E002}", with: "<tt>\(escape(span))</tt>")
        }
        return result
    }

    /// Text safe inside Pango markup.
    static func escape(_ text: some StringProtocol) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
