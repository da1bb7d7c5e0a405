/// A code block's text as HTML with its comments, strings, numbers, keywords and literal
/// words each in a `<span class="hl-…">` (the classes in ``CodeHighlighter/classes``), the rest
/// escaped as ``MarkdownDocument/escapedMarkup(_:)`` escapes it.
///
/// One pass over the bytes: a comment or string is read to its end once, and one that never
/// ends stops at the end of its line (or of the text, for the kinds that span lines), so any
/// text takes time in proportion to its length.
public enum CodeHighlighter {
    /// Every class a highlighted block's spans carry: the only ones a page need allow.
    public static let classes: Set<String> = Set(Token.allCases.map(\.className))

    enum Token: CaseIterable {
        case comment, string, number, keyword, literal, property, tag, attribute

        var className: String {
            switch self {
            case .comment: "hl-comment"
            case .string: "hl-string"
            case .number: "hl-number"
            case .keyword: "hl-keyword"
            case .literal: "hl-literal"
            case .property: "hl-property"
            case .tag: "hl-tag"
            case .attribute: "hl-attribute"
            }
        }
    }

    /// `text` highlighted as `language`.
    public static func html(_ text: String, language: CodeLanguage) -> String {
        var pass = Pass(bytes: Array(text.utf8), language: language)
        pass.run()
        return String(decoding: pass.output, as: UTF8.self)
    }

    private struct Pass {
        let bytes: [UInt8]
        let language: CodeLanguage
        var output: [UInt8] = []
        var index = 0
        /// Where the current line's first byte that is not a space is, for keys and directives.
        var lineStart = true

        init(bytes: [UInt8], language: CodeLanguage) {
            self.bytes = bytes
            self.language = language
            output.reserveCapacity(bytes.count + bytes.count / 4)
        }

        mutating func run() {
            while index < bytes.count {
                let start = index
                let byte = bytes[index]
                if language.isMarkup, byte == .lessThan, markupTag() {
                } else if let close = blockComment() {
                    emit(.comment, until: close)
                } else if language.lineComments.contains(where: { starts(with: $0, at: index) }) {
                    emit(.comment, until: lineEnd(from: index))
                } else if language.tripleQuotes, byte == .quote || byte == .apostrophe, starts(with: [byte, byte, byte], at: index) {
                    emit(.string, until: closing([byte, byte, byte], from: index + 3) ?? bytes.count)
                } else if language.quotes.contains(byte) {
                    let end = stringEnd(quote: byte)
                    emit(isKey(after: end) ? .property : .string, until: end)
                } else if byte.isDigit, index == 0 || !bytes[index - 1].isWordByte {
                    emit(.number, until: wordEnd(from: index, allowing: [.period]))
                } else if byte.isWordByte || (byte == .hash || byte == .at || byte == .exclamation) && index + 1 < bytes.count && bytes[index + 1].isLetter {
                    word()
                } else {
                    copy(byte)
                    index += 1
                }
                if start < index { lineStart = bytes[start..<index].last == .newline || lineStart && bytes[start..<index].allSatisfy { $0 == .space || $0 == .tab } }
            }
        }

        /// A word: a keyword or literal of the language, a key at the start of a line (YAML's
        /// `key:`, TOML's `key =`), or plain text.
        mutating func word() {
            let end = wordEnd(from: index + 1, allowing: [])
            let word = String(decoding: bytes[index..<end], as: UTF8.self)
            let folded = language.caseInsensitive ? word.lowercased() : word
            if language.keywords.contains(folded) {
                emit(.keyword, until: end)
            } else if language.literals.contains(folded) {
                emit(.literal, until: end)
            } else if lineStart, isKey(after: end) {
                emit(.property, until: end)
            } else if !bytes[index].isWordByte {
                // `#`, `@` or `!` before a word that is no keyword: only the mark is passed.
                copy(bytes[index])
                index += 1
            } else {
                emit(nil, until: end)
            }
        }

        /// Whether the language's key separator follows `end` (after spaces): `:` in YAML and
        /// JSON, `=` in TOML.
        func isKey(after end: Int) -> Bool {
            guard let separator = language.keySeparator else { return false }
            var next = end
            while next < bytes.count, bytes[next] == .space || bytes[next] == .tab { next += 1 }
            return next < bytes.count && bytes[next] == separator
        }

        /// A tag of markup at `index` (`<name attribute="value">`, `</name>`), highlighted;
        /// `false` when the `<` opens none.
        mutating func markupTag() -> Bool {
            var cursor = index + 1
            if cursor < bytes.count, bytes[cursor] == .slash || bytes[cursor] == .question || bytes[cursor] == .exclamation { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor].isLetter else { return false }
            emit(.tag, until: wordEnd(from: cursor, allowing: [.dash, .colon, .period]))
            while index < bytes.count, bytes[index] != .greaterThan, bytes[index] != .lessThan {
                let byte = bytes[index]
                if byte == .quote || byte == .apostrophe {
                    emit(.string, until: closing([byte], from: index + 1).map { $0 } ?? bytes.count)
                } else if byte.isLetter {
                    emit(.attribute, until: wordEnd(from: index, allowing: [.dash, .colon, .period]))
                } else {
                    copy(byte)
                    index += 1
                }
            }
            if index < bytes.count, bytes[index] == .greaterThan { emit(.tag, until: index + 1) }
            return true
        }

        /// The end of a block comment that opens at `index`, or `nil` when none opens there.
        func blockComment() -> Int? {
            for (open, close) in language.blockComments where starts(with: open, at: index) {
                return closing(close, from: index + open.count) ?? bytes.count
            }
            return nil
        }

        /// The end of a string opened by `quote` at `index`: past its closing quote; at the end
        /// of the line when it does not close there, unless the language lets it span lines.
        func stringEnd(quote: UInt8) -> Int {
            let multiline = language.multilineQuotes.contains(quote)
            var cursor = index + 1
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if byte == .backslash, !(language.name == "shell" && quote == .apostrophe) {
                    cursor += 2
                    continue
                }
                if byte == quote { return cursor + 1 }
                if byte == .newline, !multiline { return cursor }
                cursor += 1
            }
            return bytes.count
        }

        /// Past the first `pattern` at or after `from`, or `nil` when it never comes.
        func closing(_ pattern: [UInt8], from: Int) -> Int? {
            var cursor = from
            while cursor + pattern.count <= bytes.count {
                if starts(with: pattern, at: cursor) { return cursor + pattern.count }
                cursor += bytes[cursor] == .backslash && pattern.count == 1 ? 2 : 1
            }
            return nil
        }

        func starts(with pattern: [UInt8], at position: Int) -> Bool {
            position + pattern.count <= bytes.count && bytes[position..<(position + pattern.count)].elementsEqual(pattern)
        }

        func lineEnd(from position: Int) -> Int {
            bytes[position...].firstIndex(of: .newline) ?? bytes.count
        }

        func wordEnd(from position: Int, allowing extra: [UInt8]) -> Int {
            var cursor = position
            while cursor < bytes.count, bytes[cursor].isWordByte || extra.contains(bytes[cursor]) { cursor += 1 }
            return cursor
        }

        /// Writes the bytes up to `end` (at most the text's end), in a span when `token` is given.
        mutating func emit(_ token: Token?, until end: Int) {
            let end = min(max(end, index + 1), bytes.count)
            if let token { output += Array("<span class=\"\(token.className)\">".utf8) }
            for byte in bytes[index..<end] { copy(byte) }
            if token != nil { output += Array("</span>".utf8) }
            index = end
        }

        mutating func copy(_ byte: UInt8) {
            switch byte {
            case .ampersand: output += Array("&amp;".utf8)
            case .lessThan: output += Array("&lt;".utf8)
            case .greaterThan: output += Array("&gt;".utf8)
            case .quote: output += Array("&quot;".utf8)
            default: output.append(byte)
            }
        }
    }
}

private extension UInt8 {
    /// A letter, digit or `_` of an identifier, or any byte of a character beyond ASCII.
    var isWordByte: Bool { isAlphanumeric || self == .underscore || self >= 0x80 }
}
