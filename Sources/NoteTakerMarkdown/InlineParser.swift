/// The second phase of parsing: a paragraph's or heading's text into inlines, by the
/// specification's algorithm: text, escapes, code, autolinks and raw HTML as they come;
/// emphasis and links through a stack of delimiters and brackets resolved at the end.
///
/// Nodes live in an array (`nodes`) linked by index, so that emphasis can wrap a run of
/// siblings and links can take theirs without copying.
struct InlineParser {
    struct Node {
        enum Kind { case root, text, softBreak, hardBreak, code, emphasis, strong, strikethrough, link, image, html }
        var kind: Kind
        var literal: [UInt8] = []
        var destination = ""
        var title: String?
        /// A delimiter run's or bracket's text: never joined with the text around it.
        var isMarker = false
        var parent = -1, first = -1, last = -1, previous = -1, next = -1
    }

    struct Delimiter {
        var node: Int
        var character: UInt8
        var count: Int
        let originalCount: Int
        let canOpen: Bool
        let canClose: Bool
    }

    struct Bracket {
        var node: Int
        /// How many delimiters were on the stack when the bracket opened.
        var delimiterBottom: Int
        /// Where the bracket's text starts.
        var textStart: Int
        var isImage: Bool
        var isActive = true
        var bracketAfter = false
    }

    let text: ArraySlice<UInt8>
    let references: LinkReferences
    let syntax: MarkdownSyntax
    var position: Int
    var nodes: [Node] = [Node(kind: .root)]
    var delimiters: [Delimiter] = []
    var brackets: [Bracket] = []
    /// Where each run of backticks in the text starts, by the run's length (`nil`: not
    /// looked yet): one pass finds every code span's closer, however many openers there are.
    var backtickRuns: [Int: [Int]]?

    /// Parses `content` (the raw text of a paragraph, heading or cell).
    static func parse(_ content: ArraySlice<UInt8>, references: LinkReferences, syntax: MarkdownSyntax) -> [MarkdownInline] {
        var parser = InlineParser(text: InlineText.trimmed(content), references: references, syntax: syntax)
        parser.parseAll()
        return InlineConversion(nodes: parser.nodes, autolinks: syntax.contains(.autolinks), wikiLinks: syntax.contains(.wikiLinks),
            lineBreaks: syntax.contains(.lineBreaks))
            .children(of: 0)
    }

    init(text: ArraySlice<UInt8>, references: LinkReferences, syntax: MarkdownSyntax) {
        self.text = text
        self.references = references
        self.syntax = syntax
        position = text.startIndex
    }

    mutating func parseAll() {
        while position < text.endIndex {
            switch text[position] {
            case .newline: parseNewline()
            case .backslash: parseBackslash()
            case .backtick: parseBackticks()
            case .asterisk, .underscore: parseDelimiterRun()
            case .tilde where syntax.contains(.strikethrough): parseDelimiterRun()
            case .openBracket:
                appendBracket(image: false, start: position)
                position += 1
            case .exclamation:
                if position + 1 < text.endIndex, text[position + 1] == .openBracket {
                    appendBracket(image: true, start: position)
                    position += 2
                } else {
                    appendText(text[position...position])
                    position += 1
                }
            case .closeBracket: parseCloseBracket()
            case .lessThan: parseAngleBracket()
            case .ampersand: parseEntity()
            default: parseText()
            }
        }
        processEmphasis(bottom: 0)
    }

    // MARK: - Nodes

    @discardableResult
    mutating func append(_ node: Node, to parent: Int = 0) -> Int {
        var node = node
        let index = nodes.count
        node.parent = parent
        node.previous = nodes[parent].last
        if node.previous >= 0 { nodes[node.previous].next = index } else { nodes[parent].first = index }
        nodes[parent].last = index
        nodes.append(node)
        return index
    }

    @discardableResult
    mutating func appendText(_ bytes: ArraySlice<UInt8>) -> Int {
        // Consecutive plain text joins the node before it.
        let last = nodes[0].last
        if last >= 0, nodes[last].kind == .text, !nodes[last].isMarker {
            nodes[last].literal.append(contentsOf: bytes)
            return last
        }
        return append(Node(kind: .text, literal: Array(bytes)))
    }

    /// Takes a node out of its siblings.
    mutating func unlink(_ index: Int) {
        let node = nodes[index]
        if node.previous >= 0 { nodes[node.previous].next = node.next } else if node.parent >= 0 { nodes[node.parent].first = node.next }
        if node.next >= 0 { nodes[node.next].previous = node.previous } else if node.parent >= 0 { nodes[node.parent].last = node.previous }
        nodes[index].parent = -1
        nodes[index].previous = -1
        nodes[index].next = -1
    }

    /// Moves the siblings after `start` (up to, not including, `end`; -1 for all) into `parent`.
    mutating func moveSiblings(after start: Int, before end: Int, into parent: Int) {
        var current = nodes[start].next
        while current >= 0, current != end {
            let next = nodes[current].next
            unlink(current)
            appendExisting(current, to: parent)
            current = next
        }
    }

    mutating func appendExisting(_ index: Int, to parent: Int) {
        nodes[index].parent = parent
        nodes[index].previous = nodes[parent].last
        nodes[index].next = -1
        if nodes[index].previous >= 0 { nodes[nodes[index].previous].next = index } else { nodes[parent].first = index }
        nodes[parent].last = index
    }

    /// Puts a new node right after `sibling`.
    mutating func insert(_ node: Node, after sibling: Int) -> Int {
        var node = node
        let index = nodes.count
        let parent = nodes[sibling].parent
        node.parent = parent
        node.previous = sibling
        node.next = nodes[sibling].next
        nodes.append(node)
        if node.next >= 0 { nodes[node.next].previous = index } else { nodes[parent].last = index }
        nodes[sibling].next = index
        return index
    }

    // MARK: - Simple inlines

    mutating func parseText() {
        let start = position
        while position < text.endIndex, !Self.isSpecial(text[position]) { position += 1 }
        if position == start { position += 1 }
        appendText(text[start..<position])
    }

    static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case .newline, .backslash, .backtick, .asterisk, .underscore, .tilde, .openBracket, .closeBracket, .exclamation,
             .lessThan, .ampersand:
            true
        default: false
        }
    }

    mutating func parseNewline() {
        position += 1
        var isHard = false
        let last = nodes[0].last
        if last >= 0, nodes[last].kind == .text, nodes[last].literal.last == .space {
            var spaces = 0
            while nodes[last].literal.last == .space {
                nodes[last].literal.removeLast()
                spaces += 1
            }
            isHard = spaces >= 2
        }
        append(Node(kind: isHard ? .hardBreak : .softBreak))
        while position < text.endIndex, text[position] == .space || text[position] == .tab { position += 1 }
    }

    mutating func parseBackslash() {
        let next = position + 1
        if next < text.endIndex, text[next] == .newline {
            append(Node(kind: .hardBreak))
            position += 2
            while position < text.endIndex, text[position] == .space || text[position] == .tab { position += 1 }
        } else if next < text.endIndex, text[next].isASCIIPunctuation {
            appendText(text[next...next])
            position += 2
        } else {
            appendText(text[position...position])
            position += 1
        }
    }

    mutating func parseBackticks() {
        let start = position
        while position < text.endIndex, text[position] == .backtick { position += 1 }
        let length = position - start
        if backtickRuns == nil { backtickRuns = Self.backtickRuns(in: text) }
        let starts = backtickRuns?[length] ?? []
        // The first run of this length after the opener closes it.
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < position { low = middle + 1 } else { high = middle }
        }
        guard low < starts.count else {
            appendText(text[start..<position])
            return
        }
        let found = starts[low]
        var code = text[position..<found].map { $0 == .newline ? UInt8.space : $0 }
        if code.count >= 2, code.first == .space, code.last == .space, code.contains(where: { $0 != .space }) {
            code = Array(code.dropFirst().dropLast())
        }
        append(Node(kind: .code, literal: code))
        position = found + length
    }

    /// The start of every maximal run of backticks in `text`, by its length, in order.
    static func backtickRuns(in text: ArraySlice<UInt8>) -> [Int: [Int]] {
        var runs: [Int: [Int]] = [:]
        var index = text.startIndex
        while let found = text[index...].firstIndex(of: .backtick) {
            var end = found
            while end < text.endIndex, text[end] == .backtick { end += 1 }
            runs[end - found, default: []].append(found)
            index = end
        }
        return runs
    }

    mutating func parseEntity() {
        if let (decoded, end) = Entities.reference(in: text, at: position) {
            appendText(Array(decoded.utf8)[...])
            position = end
        } else {
            appendText(text[position...position])
            position += 1
        }
    }

    /// `<…>`: an autolink, raw HTML, or a plain `<`.
    mutating func parseAngleBracket() {
        if let (destination, end) = Self.autolink(text, at: position) {
            let link = append(Node(kind: .link, destination: destination))
            append(Node(kind: .text, literal: Array(text[(position + 1)..<(end - 1)])), to: link)
            position = end
        } else if let end = HTMLScanner.inline(text, at: position) {
            append(Node(kind: .html, literal: Array(text[position..<end])))
            position = end
        } else {
            appendText(text[position...position])
            position += 1
        }
    }

    /// `<scheme:…>` or `<user@example.com>`: the link's destination and the index after `>`.
    static func autolink(_ text: ArraySlice<UInt8>, at start: Int) -> (String, Int)? {
        guard let close = text[(start + 1)...].firstIndex(where: { $0 == .greaterThan || $0 == .lessThan || $0 <= 0x20 }),
              text[close] == .greaterThan else { return nil }
        let inner = text[(start + 1)..<close]
        if let colon = inner.firstIndex(of: .colon), (2...32).contains(colon - inner.startIndex), inner.first?.isLetter == true,
           inner[..<colon].allSatisfy({ $0.isAlphanumeric || $0 == .plus || $0 == .period || $0 == .dash }) {
            return (String(decoding: inner, as: UTF8.self), close + 1)
        }
        if EmailSyntax.isAddress(inner) { return ("mailto:" + String(decoding: inner, as: UTF8.self), close + 1) }
        return nil
    }
}
