/// A note's Markdown as a search snippet shows it: the words a reader sees, without the
/// markers around them (`# `, `- [ ] `, `**`, `` ` ``, `[text](address)`'s address, `[[…]]`'s
/// brackets, table pipes, fences), every run of spaces and line breaks one space.
///
/// Written as one pass over the bytes rather than with the Markdown parser: search reads it
/// for every hit shown, a note can be megabytes long, and a snippet needs readable words,
/// not an exact rendering. Code is kept as it is written, since its words are searched too.
/// Linear in the text: each byte is read a bounded number of times.
enum SnippetText {
    static func plain(_ markdown: String) -> String {
        var pass = Pass(bytes: Array(markdown.utf8))
        pass.run()
        return pass.result()
    }

    private struct Pass {
        let bytes: [UInt8]
        var out: [UInt8] = []
        /// Where each `[` not yet closed was written, to take it out when it opens a link.
        var openBrackets: [Int] = []
        /// The fence a code block opened with (its byte and length), while inside one.
        var fence: (byte: UInt8, count: Int)?

        init(bytes: [UInt8]) {
            self.bytes = bytes
            out.reserveCapacity(bytes.count)
        }

        mutating func run() {
            var start = skipFrontMatter()
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: .newline) ?? bytes.count
                line(start, end > start && bytes[end - 1] == .carriageReturn ? end - 1 : end)
                out.append(.space)
                start = end + 1
            }
        }

        /// The bytes written, without the brackets taken out, spaces collapsed and trimmed.
        func result() -> String {
            var text: [UInt8] = []
            text.reserveCapacity(out.count)
            for byte in out where byte != Self.removed {
                let isSpace = byte == .space || byte == .tab
                if isSpace, text.last == .space || text.isEmpty { continue }
                text.append(isSpace ? .space : byte)
            }
            if text.last == .space { text.removeLast() }
            return String(decoding: text, as: UTF8.self)
        }

        /// A byte written where a `[` was, taken out by ``result()``.
        static let removed: UInt8 = 0

        /// Where the text starts after a block of properties (`---` lines around `key: value`s).
        func skipFrontMatter() -> Int {
            guard bytes.starts(with: Array("---\n".utf8)) || bytes.starts(with: Array("---\r\n".utf8)) else { return 0 }
            var start = bytes.firstIndex(of: .newline).map { $0 + 1 } ?? bytes.count
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: .newline) ?? bytes.count
                let line = bytes[start..<end].filter { $0 != .carriageReturn }
                if line.elementsEqual("---".utf8) || line.elementsEqual("...".utf8) { return min(end + 1, bytes.count) }
                start = end + 1
            }
            return 0
        }

        mutating func line(_ start: Int, _ end: Int) {
            var index = start
            while index < end, bytes[index] == .space || bytes[index] == .tab { index += 1 }
            if let run = fenceRun(at: index, end), fence == nil || run.byte == fence?.byte && run.count >= fence?.count ?? 0 {
                fence = fence == nil ? run : nil
                return
            }
            if fence != nil {
                out.append(contentsOf: bytes[start..<end])
                return
            }
            if isRule(index, end) { return }
            index = afterLineMarkers(index, end)
            let isTableRow = index < end && bytes[index] == .pipe
            inline(index, end, isTableRow: isTableRow)
            openBrackets.removeAll()
        }

        /// A fence of three or more backticks or tildes at `index`.
        func fenceRun(at index: Int, _ end: Int) -> (byte: UInt8, count: Int)? {
            guard index < end, bytes[index] == .backtick || bytes[index] == .tilde else { return nil }
            let count = bytes[index..<end].prefix { $0 == bytes[index] }.count
            return count >= 3 ? (bytes[index], count) : nil
        }

        /// A line that is only a thematic break, a heading's underline or a table's delimiter row.
        func isRule(_ start: Int, _ end: Int) -> Bool {
            let line = bytes[start..<end]
            let marks = line.filter { $0 == .dash || $0 == .equals || $0 == .asterisk || $0 == .underscore }.count
            return marks >= 3 && line.allSatisfy {
                [.dash, .equals, .asterisk, .underscore, .pipe, .colon, .space, .tab].contains($0)
            }
        }

        /// Past a line's quote marks, heading marks, list marker and task box.
        func afterLineMarkers(_ start: Int, _ end: Int) -> Int {
            var index = start
            func skipSpaces() { while index < end, bytes[index] == .space || bytes[index] == .tab { index += 1 } }
            while index < end, bytes[index] == .greaterThan { index += 1; skipSpaces() }
            let hashes = bytes[index..<end].prefix { $0 == .hash }.count
            if (1...6).contains(hashes), index + hashes == end || bytes[index + hashes] == .space {
                index += hashes
                skipSpaces()
            }
            let digits = bytes[index..<end].prefix { (0x30...0x39).contains($0) }.count
            let marker = digits > 0 && digits <= 9 ? index + digits : index
            let isBullet = digits == 0 && index < end && [.dash, .asterisk, .plus].contains(bytes[index])
            let isNumber = digits > 0 && marker < end && (bytes[marker] == .period || bytes[marker] == .closingParen)
            if isBullet || isNumber, marker + 1 == end || marker + 1 < end && bytes[marker + 1] == .space {
                index = marker + 1
                skipSpaces()
                if index + 2 < end, bytes[index] == .openingBracket, bytes[index + 2] == .closingBracket,
                   [.space, UInt8(ascii: "x"), UInt8(ascii: "X")].contains(bytes[index + 1]) {
                    index += 3
                }
            }
            return index
        }

        mutating func inline(_ start: Int, _ end: Int, isTableRow: Bool) {
            var index = start
            // Set once a search for a closing mark failed: none is looked for again on this line.
            var noClose = false
            let lastText = bytes[start..<end].lastIndex { $0 != .space && $0 != .tab }
            while index < end {
                let byte = bytes[index]
                let next = index + 1 < end ? bytes[index + 1] : 0
                switch byte {
                case .backslash where next.isASCIIPunctuation:
                    out.append(next)
                    index += 2
                    continue
                case .asterisk where index > start && bytes[index - 1] == .space && next == .space:
                    out.append(byte)
                case .backtick, .asterisk:
                    break
                case .tilde where next == .tilde:
                    index += 1
                case .underscore:
                    let before = index > start ? bytes[index - 1] : 0
                    if before.isWordByte && next.isWordByte { out.append(byte) }
                case .exclamation where next == .openingBracket:
                    break
                case .pipe where isTableRow:
                    if index != start && index != lastText { out.append(contentsOf: " · ".utf8) }
                case .openingBracket where next == .openingBracket && !noClose:
                    if let close = find(Array("]]".utf8), from: index + 2, end) {
                        let inner = bytes[(index + 2)..<close]
                        let shown = inner.lastIndex(of: .pipe).map { inner[($0 + 1)...] } ?? inner
                        out.append(contentsOf: shown)
                        index = close + 2
                        continue
                    }
                    noClose = true
                    out.append(byte)
                case .openingBracket:
                    openBrackets.append(out.count)
                    out.append(byte)
                case .closingBracket where !openBrackets.isEmpty && !noClose && (next == .openingParen || next == .openingBracket):
                    if let close = closing(next, from: index + 2, end) {
                        out[openBrackets.removeLast()] = Self.removed
                        index = close + 1
                        continue
                    }
                    noClose = true
                    out.append(byte)
                default:
                    out.append(byte)
                }
                index += 1
            }
        }

        /// Where `pattern` first starts at or after `from`, before `end`.
        func find(_ pattern: [UInt8], from: Int, _ end: Int) -> Int? {
            var index = from
            while index + pattern.count <= end {
                if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
                index += 1
            }
            return nil
        }

        /// The `)` that closes a link's address (parentheses inside it balanced), or the `]`
        /// that closes a reference's label, opened just before `from`.
        func closing(_ open: UInt8, from: Int, _ end: Int) -> Int? {
            var depth = 1
            var index = from
            while index < end {
                let byte = bytes[index]
                if open == .openingBracket, byte == .closingBracket { return index }
                if open == .openingParen, byte == .openingParen { depth += 1 }
                if open == .openingParen, byte == .closingParen {
                    depth -= 1
                    if depth == 0 { return index }
                }
                index += byte == .backslash ? 2 : 1
            }
            return nil
        }
    }
}

private extension UInt8 {
    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t"), backtick = UInt8(ascii: "`"), tilde = UInt8(ascii: "~")
    static let dash = UInt8(ascii: "-"), equals = UInt8(ascii: "="), asterisk = UInt8(ascii: "*")
    static let underscore = UInt8(ascii: "_"), pipe = UInt8(ascii: "|"), colon = UInt8(ascii: ":")
    static let greaterThan = UInt8(ascii: ">"), hash = UInt8(ascii: "#"), plus = UInt8(ascii: "+")
    static let period = UInt8(ascii: "."), openingParen = UInt8(ascii: "("), closingParen = UInt8(ascii: ")")
    static let openingBracket = UInt8(ascii: "["), closingBracket = UInt8(ascii: "]")
    static let backslash = UInt8(ascii: "\\"), exclamation = UInt8(ascii: "!")

    /// ASCII punctuation, which a backslash escapes.
    var isASCIIPunctuation: Bool {
        (0x21...0x2F).contains(self) || (0x3A...0x40).contains(self) || (0x5B...0x60).contains(self) || (0x7B...0x7E).contains(self)
    }

    /// A letter or digit of any script (every byte of a multi-byte character counts).
    var isWordByte: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || self >= 0x80
    }
}
