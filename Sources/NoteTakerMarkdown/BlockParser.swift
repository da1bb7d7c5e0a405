/// The first phase of parsing: the text's lines into blocks (CommonMark's "block
/// structure"), each open block continued or closed by every new line, as the specification's
/// appendix describes. Inline content is parsed afterwards, when every link reference
/// definition is known.
struct BlockParser {
    let bytes: [UInt8]
    let syntax: MarkdownSyntax
    let document: BlockNode
    var open: [BlockNode]
    var references = LinkReferences()

    // The line being read, and where in it.
    var lineStart = 0
    var lineEnd = 0
    var lineNumber = 0
    var offset = 0
    var column = 0
    var nextNonspace = 0
    var nextNonspaceColumn = 0
    var indent = 0
    var isIndented = false
    var isBlank = false
    var partiallyConsumedTab = false
    var allClosed = true
    var lastMatched = 0

    init(_ text: String, syntax: MarkdownSyntax) {
        self.syntax = syntax
        var bytes = Array(text.utf8)
        if bytes.contains(0) {
            bytes = bytes.flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
        }
        self.bytes = bytes
        document = BlockNode(.document, line: 0)
        open = [document]
    }

    var tip: BlockNode { open[open.count - 1] }

    func byte(_ index: Int) -> UInt8? { index < lineEnd ? bytes[index] : nil }

    mutating func parse() -> [MarkdownBlock] {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != .newline, bytes[end] != .carriageReturn { end += 1 }
            lineNumber += 1
            incorporateLine(start: start, end: end)
            if end < bytes.count, bytes[end] == .carriageReturn, end + 1 < bytes.count, bytes[end + 1] == .newline { end += 1 }
            start = end + 1
        }
        while open.count > 0 { finalize(open.count - 1) }
        return BlockConversion(syntax: syntax, references: references).blocks(of: document)
    }

    // MARK: - Position

    mutating func findNextNonspace() {
        var index = offset
        var columns = column
        while index < lineEnd {
            if bytes[index] == .space {
                index += 1
                columns += 1
            } else if bytes[index] == .tab {
                index += 1
                columns += 4 - columns % 4
            } else {
                break
            }
        }
        isBlank = index >= lineEnd
        nextNonspace = index
        nextNonspaceColumn = columns
        indent = columns - column
        isIndented = indent >= 4
    }

    mutating func advanceNextNonspace() {
        offset = nextNonspace
        column = nextNonspaceColumn
        partiallyConsumedTab = false
    }

    /// Moves `count` characters on, or `count` columns when `columns` (a tab then counts
    /// for the columns up to the next tab stop, and may be consumed in part).
    mutating func advanceOffset(_ count: Int, columns: Bool) {
        var count = count
        while count > 0, offset < lineEnd {
            if bytes[offset] == .tab {
                let toTab = 4 - column % 4
                if columns {
                    partiallyConsumedTab = toTab > count
                    let advance = min(count, toTab)
                    column += advance
                    offset += partiallyConsumedTab ? 0 : 1
                    count -= advance
                } else {
                    partiallyConsumedTab = false
                    column += toTab
                    offset += 1
                    count -= 1
                }
            } else {
                partiallyConsumedTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    // MARK: - Lines

    mutating func incorporateLine(start: Int, end: Int) {
        (lineStart, lineEnd, offset, column, partiallyConsumedTab, allClosed) = (start, end, start, 0, false, true)
        // 1. Which open blocks the line continues.
        lastMatched = 0
        var index = 1
        while index < open.count {
            findNextNonspace()
            switch continues(index) {
            case .matched: lastMatched = index; index += 1
            case .notMatched: index = open.count + 1
            case .lineConsumed: return
            }
        }
        allClosed = lastMatched == open.count - 1
        var container = open[lastMatched]

        // 2. New blocks the line starts.
        var matchedLeaf = container.kind != .paragraph && container.acceptsLines
        starting: while !matchedLeaf {
            findNextNonspace()
            if !isIndented, nextNonspace >= lineEnd || !Self.maybeSpecial(bytes[nextNonspace]) {
                advanceNextNonspace()
                break
            }
            switch startBlock(container) {
            case .container: container = tip
            case .leaf: container = tip; matchedLeaf = true
            case .none: advanceNextNonspace(); break starting
            }
        }

        // 3. The rest of the line.
        if !allClosed, !isBlank, tip.kind == .paragraph {
            addLine() // A lazy continuation line.
            return
        }
        closeUnmatchedBlocks()
        container = tip
        if isBlank, let last = container.children.last { last.lastLineBlank = true }
        let lastLineBlank = isBlank && !(container.kind == .blockQuote || (container.kind == .codeBlock && container.isFenced)
            || (container.kind == .item && container.children.isEmpty && container.startLine == lineNumber))
        for block in open { block.lastLineBlank = lastLineBlank }

        if container.acceptsLines {
            addLine()
            if container.kind == .htmlBlock, (1...5).contains(container.htmlBlockType),
               HTMLScanner.endsBlock(type: container.htmlBlockType, bytes[offset..<lineEnd]) {
                finalize(open.count - 1)
            }
        } else if container.kind == .table, !isBlank, offset < lineEnd {
            container.rows.append(TableSyntax.cells(bytes[offset..<lineEnd], count: container.alignments.count))
        } else if offset < lineEnd, !isBlank {
            addChild(.paragraph)
            advanceNextNonspace()
            addLine()
        }
    }

    enum Continuation { case matched, notMatched, lineConsumed }

    mutating func continues(_ index: Int) -> Continuation {
        let block = open[index]
        switch block.kind {
        case .document, .list: return .matched
        case .blockQuote:
            guard !isIndented, byte(nextNonspace) == .greaterThan else { return .notMatched }
            advanceNextNonspace()
            advanceOffset(1, columns: false)
            if let next = byte(offset), next == .space || next == .tab { advanceOffset(1, columns: true) }
            return .matched
        case .item:
            if isBlank {
                if block.children.isEmpty { return .notMatched }
                advanceNextNonspace()
                return .matched
            }
            guard let data = block.listData, indent >= data.markerOffset + data.padding else { return .notMatched }
            advanceOffset(data.markerOffset + data.padding, columns: true)
            return .matched
        case .heading, .thematicBreak: return .notMatched
        case .codeBlock:
            if block.isFenced {
                if !isIndented, isClosingFence(of: block) {
                    finalize(index)
                    return .lineConsumed
                }
                var skip = block.fenceOffset
                while skip > 0, let next = byte(offset), next == .space || next == .tab {
                    advanceOffset(1, columns: true)
                    skip -= 1
                }
                return .matched
            }
            if indent >= 4 {
                advanceOffset(4, columns: true)
            } else if isBlank {
                advanceNextNonspace()
            } else {
                return .notMatched
            }
            return .matched
        case .htmlBlock: return isBlank && (block.htmlBlockType == 6 || block.htmlBlockType == 7) ? .notMatched : .matched
        case .paragraph, .table: return isBlank ? .notMatched : .matched
        }
    }

    /// Whether this line closes a fenced code block.
    func isClosingFence(of block: BlockNode) -> Bool {
        var index = nextNonspace
        while index < lineEnd, bytes[index] == block.fenceCharacter { index += 1 }
        guard index - nextNonspace >= block.fenceLength else { return false }
        while index < lineEnd, bytes[index] == .space || bytes[index] == .tab { index += 1 }
        return index == lineEnd
    }

    /// Adds the rest of the line to the open leaf block.
    mutating func addLine() {
        if partiallyConsumedTab {
            offset += 1
            tip.content.append(contentsOf: repeatElement(UInt8.space, count: 4 - column % 4))
        }
        tip.content.append(contentsOf: bytes[offset..<lineEnd])
        tip.content.append(.newline)
    }

    /// Opens a new block inside the tip, closing blocks that cannot hold it.
    @discardableResult
    mutating func addChild(_ kind: BlockNode.Kind) -> BlockNode {
        while !tip.canContain(kind) { finalize(open.count - 1) }
        let child = BlockNode(kind, line: lineNumber)
        tip.children.append(child)
        open.append(child)
        return child
    }

    /// Closes the open blocks this line did not continue.
    mutating func closeUnmatchedBlocks() {
        guard !allClosed else { return }
        while open.count - 1 > lastMatched { finalize(open.count - 1) }
        allClosed = true
    }

    /// Closes the open block at `index` and every block inside it.
    mutating func finalize(_ index: Int) {
        while open.count > index {
            let block = open.removeLast()
            block.isOpen = false
            finish(block)
        }
    }

    /// What a block does when it closes.
    mutating func finish(_ block: BlockNode) {
        switch block.kind {
        case .paragraph:
            let consumed = references.takeDefinitions(from: block.content)
            if consumed > 0 { block.content.removeFirst(consumed) }
        case .codeBlock:
            if block.isFenced {
                let newline = block.content.firstIndex(of: .newline) ?? block.content.count
                block.info = InlineText.unescaped(InlineText.trimmed(block.content[..<newline]))
                block.content = Array(block.content[min(newline + 1, block.content.count)...])
            } else {
                // Trailing blank lines are not part of an indented code block.
                var end = block.content.count
                var lastLineEnd = end
                while end > 0 {
                    var lineBegin = end - 1
                    while lineBegin > 0, block.content[lineBegin - 1] != .newline { lineBegin -= 1 }
                    if block.content[lineBegin..<(end - 1)].allSatisfy({ $0 == .space || $0 == .tab }) {
                        lastLineEnd = lineBegin
                        end = lineBegin
                    } else {
                        break
                    }
                }
                block.content.removeSubrange(lastLineEnd...)
            }
        case .list:
            block.isTight = !block.children.enumerated().contains { index, item in
                let notLast = index < block.children.count - 1
                if item.endsWithBlankLine && notLast { return true }
                return item.children.enumerated().contains { childIndex, child in
                    child.endsWithBlankLine && (notLast || childIndex < item.children.count - 1)
                }
            }
        default: break
        }
    }

    /// Whether a line starting with this byte might open a block (else it is text).
    static func maybeSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case .hash, .backtick, .tilde, .asterisk, .plus, .underscore, .equals, .lessThan, .greaterThan, .dash, .pipe, .colon,
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}
