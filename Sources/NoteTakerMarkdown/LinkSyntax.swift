/// The parts of links shared by inline links and link reference definitions: labels,
/// destinations and titles.
enum LinkSyntax {
    /// `[label]`: the index after its `]`, when the label has no unescaped brackets and at
    /// most 999 characters.
    static func label(_ text: ArraySlice<UInt8>, at start: Int) -> Int? {
        guard start < text.endIndex, text[start] == .openBracket else { return nil }
        var index = start + 1
        while index < text.endIndex, index - start <= 1000 {
            switch text[index] {
            case .backslash where index + 1 < text.endIndex && text[index + 1].isASCIIPunctuation: index += 2; continue
            case .openBracket: return nil
            case .closeBracket: return index - start - 1 <= 999 ? index + 1 : nil
            default: index += 1
            }
        }
        return nil
    }

    /// Spaces and tabs, with at most one line ending among them: the index after them.
    static func skipSpacesAndOneNewline(_ text: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start
        var newlines = 0
        while index < text.endIndex {
            if text[index] == .space || text[index] == .tab {
                index += 1
            } else if text[index] == .newline, newlines == 0 {
                newlines += 1
                index += 1
            } else {
                break
            }
        }
        return index
    }

    /// A link destination, `<…>` or bare with balanced parentheses: its text (escapes and
    /// references decoded) and the index after it.
    static func destination(_ text: ArraySlice<UInt8>, at start: Int) -> (String, Int)? {
        guard start < text.endIndex else { return nil }
        if text[start] == .lessThan {
            var index = start + 1
            while index < text.endIndex {
                switch text[index] {
                case .backslash where index + 1 < text.endIndex && text[index + 1].isASCIIPunctuation: index += 2; continue
                case .newline, .lessThan: return nil
                case .greaterThan: return (InlineText.unescaped(text[(start + 1)..<index]), index + 1)
                default: index += 1
                }
            }
            return nil
        }
        var index = start
        var depth = 0
        loop: while index < text.endIndex {
            let byte = text[index]
            switch byte {
            case .backslash where index + 1 < text.endIndex && text[index + 1].isASCIIPunctuation: index += 2; continue
            case .openParen:
                depth += 1
                guard depth <= 32 else { return nil }
            case .closeParen:
                if depth == 0 { break loop }
                depth -= 1
            default:
                if byte <= 0x20 || byte == 0x7F { break loop }
            }
            index += 1
        }
        guard index > start, depth == 0 else { return nil }
        return (InlineText.unescaped(text[start..<index]), index)
    }

    /// A link title in `"…"`, `'…'` or `(…)`: its text and the index after it.
    static func title(_ text: ArraySlice<UInt8>, at start: Int) -> (String, Int)? {
        guard start < text.endIndex else { return nil }
        let open = text[start]
        let close: UInt8
        switch open {
        case .quote, .apostrophe: close = open
        case .openParen: close = .closeParen
        default: return nil
        }
        var index = start + 1
        while index < text.endIndex {
            let byte = text[index]
            if byte == .backslash, index + 1 < text.endIndex, text[index + 1].isASCIIPunctuation {
                index += 2
                continue
            }
            if byte == close { return (InlineText.unescaped(text[(start + 1)..<index]), index + 1) }
            if open == .openParen, byte == .openParen { return nil }
            // A title cannot hold a blank line.
            if byte == .newline {
                var next = index + 1
                while next < text.endIndex, text[next] == .space || text[next] == .tab { next += 1 }
                if next == text.endIndex || text[next] == .newline { return nil }
            }
            index += 1
        }
        return nil
    }
}

/// The link reference definitions of a document (`[label]: destination "title"`), the
/// first of each label kept.
struct LinkReferences {
    struct Reference {
        var destination: String
        var title: String?
    }

    private(set) var byLabel: [String: Reference] = [:]

    subscript(label: ArraySlice<UInt8>) -> Reference? {
        byLabel.isEmpty ? nil : byLabel[InlineText.normalizedLabel(label)]
    }

    /// Reads the definitions at the start of a paragraph's text; returns how many bytes they took.
    mutating func takeDefinitions(from content: [UInt8]) -> Int {
        let text = content[...]
        var consumed = 0
        while consumed < text.endIndex, let end = definition(text, at: consumed) { consumed = end }
        return consumed
    }

    /// One definition starting at `start`: records it and returns the index after its line.
    private mutating func definition(_ text: ArraySlice<UInt8>, at start: Int) -> Int? {
        var index = start
        var indent = 0
        while index < text.endIndex, text[index] == .space, indent < 3 { index += 1; indent += 1 }
        guard let labelEnd = LinkSyntax.label(text, at: index), labelEnd < text.endIndex, text[labelEnd] == .colon else { return nil }
        let label = text[(index + 1)..<(labelEnd - 1)]
        guard label.contains(where: { !$0.isASCIIWhitespace }) else { return nil }
        index = LinkSyntax.skipSpacesAndOneNewline(text, from: labelEnd + 1)
        guard let (destination, destinationEnd) = LinkSyntax.destination(text, at: index) else { return nil }
        let beforeTitle = destinationEnd
        index = LinkSyntax.skipSpacesAndOneNewline(text, from: destinationEnd)
        var title: String?
        var end: Int?
        if index > beforeTitle, let (parsed, titleEnd) = LinkSyntax.title(text, at: index) {
            var after = titleEnd
            while after < text.endIndex, text[after] == .space || text[after] == .tab { after += 1 }
            if after == text.endIndex || text[after] == .newline {
                title = parsed
                end = min(after + 1, text.endIndex)
            }
        }
        if end == nil {
            var after = beforeTitle
            while after < text.endIndex, text[after] == .space || text[after] == .tab { after += 1 }
            guard after == text.endIndex || text[after] == .newline else { return nil }
            end = min(after + 1, text.endIndex)
        }
        let key = InlineText.normalizedLabel(label)
        if byLabel[key] == nil { byLabel[key] = Reference(destination: destination, title: title) }
        return end
    }
}
