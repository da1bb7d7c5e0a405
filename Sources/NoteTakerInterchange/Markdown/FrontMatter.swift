import Foundation

/// YAML front matter, the `---` block at the top of a Markdown file that Obsidian, Joplin,
/// Jekyll and NoteTaker use for metadata. Reads the common subset (scalars, quoted strings,
/// `[a, b]` and `- item` lists); writes every string quoted.
struct FrontMatter {
    /// A value: text or a list of texts.
    enum Value: Equatable {
        case text(String)
        case list([String])

        /// The value as a list (a comma-separated text counts as a list).
        var items: [String] {
            switch self {
            case .list(let items): return items
            case .text(let text):
                return text.split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty }
            }
        }

        /// The value as text (the first item of a list).
        var text: String? {
            switch self {
            case .text(let text): return text
            case .list(let items): return items.first
            }
        }
    }

    /// The fields, keys lowercased.
    var fields: [String: Value] = [:]
    /// Each top-level key (lowercased) with its lines as written, continuation lines included,
    /// in order: what an import keeps as the note's properties when it has no field for it.
    var entries: [(key: String, lines: [Substring])] = []

    /// The front matter keys a note's own fields take (title, tags, dates, pinned, id).
    static let noteKeys: Set<String> = [
        "id", "title", "tags", "tag", "pinned", "created", "date", "created_at", "creation date",
        "modified", "updated", "updated_at", "last modified",
    ]

    /// The lines of the keys no note field takes, as written.
    var propertyLines: [String] {
        entries.filter { !Self.noteKeys.contains($0.key) }.flatMap { $0.lines.map(String.init) }
    }

    /// Splits `text` into its front matter (when it opens with one) and the rest.
    static func split(_ text: String) -> (frontMatter: FrontMatter?, body: Substring) {
        guard text.hasPrefix("---\n") || text.hasPrefix("---\r\n") else { return (nil, text[...]) }
        var lines: [Substring] = []
        var index = text.index(after: text.firstIndex(of: "\n") ?? text.startIndex)
        while index < text.endIndex {
            let end = text[index...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[index..<end].trimmingSuffix("\r")
            let next = end == text.endIndex ? end : text.index(after: end)
            if line == "---" || line == "..." {
                return (parse(lines), text[next...])
            }
            lines.append(line)
            index = next
        }
        return (nil, text[...])
    }

    private static func parse(_ lines: [Substring]) -> FrontMatter {
        var matter = FrontMatter()
        var listKey: String?
        for line in lines {
            let trimmed = line.trimmedSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if line.hasPrefix(" ") || line.hasPrefix("\t") || trimmed.hasPrefix("- ") || trimmed == "-" || !line.contains(":") {
                if !matter.entries.isEmpty { matter.entries[matter.entries.count - 1].lines.append(line) }
            } else if let colon = line.firstIndex(of: ":") {
                matter.entries.append((line[..<colon].trimmedSpaces.lowercased(), [line]))
            }
            if let key = listKey, trimmed.hasPrefix("- ") || trimmed == "-" {
                let item = unquote(String(trimmed.dropFirst(1)).trimmedSpaces)
                if case .list(var items) = matter.fields[key] ?? .list([]) {
                    if !item.isEmpty { items.append(item) }
                    matter.fields[key] = .list(items)
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") else { continue }
            let key = line[..<colon].trimmedSpaces.lowercased()
            let raw = line[line.index(after: colon)...].trimmedSpaces
            if raw.isEmpty {
                listKey = key
                matter.fields[key] = .list([])
            } else if raw.hasPrefix("["), raw.hasSuffix("]") {
                listKey = nil
                matter.fields[key] = .list(splitFlowList(String(raw.dropFirst().dropLast())))
            } else {
                listKey = nil
                matter.fields[key] = .text(unquote(raw))
            }
        }
        return matter
    }

    private static func splitFlowList(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
                current.append(character)
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items.map { unquote($0.trimmedSpaces) }.filter { !$0.isEmpty }
    }

    /// A scalar without its quotes, escapes read (`"..."` as YAML double-quoted, `'...'` single).
    static func unquote(_ raw: String) -> String {
        if raw.count >= 2, raw.hasPrefix("'"), raw.hasSuffix("'") {
            return String(raw.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        guard raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") else {
            if let comment = raw.firstRange(of: " #") { return String(raw[..<comment.lowerBound]).trimmedSpaces }
            return raw
        }
        var result = ""
        var characters = raw.dropFirst().dropLast().makeIterator()
        while let character = characters.next() {
            guard character == "\\", let escaped = characters.next() else {
                result.append(character)
                continue
            }
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "u":
                let hex = String((0..<4).compactMap { _ in characters.next() })
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { result.unicodeScalars.append(scalar) }
            default: result.append(escaped)
            }
        }
        return result
    }

    /// `text` as a YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension Substring {
    func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's trimming bridges to
    /// NSString, which costs more than the rest of reading front matter).
    var trimmedSpaces: String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
