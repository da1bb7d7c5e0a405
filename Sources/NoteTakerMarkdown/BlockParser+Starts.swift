/// The blocks a line can start, tried in the specification's order of precedence.
extension BlockParser {
    enum Start { case none, container, leaf }

    /// How deep quotes and lists may nest; deeper markers are text, so that no text can
    /// exhaust the stack of whatever walks the document.
    static let maximumDepth = 64

    typealias Starter = @Sendable (inout BlockParser, BlockNode) -> Start

    /// The starts in order of precedence; beyond the deepest nesting, those of leaf blocks only.
    static let starts: [Starter] = [
        blockQuote, atxHeading, fencedCode, htmlBlock, table, setextHeading, thematicBreak, listItem, indentedCode,
    ]
    static let leafStarts: [Starter] = [atxHeading, fencedCode, htmlBlock, table, setextHeading, thematicBreak, indentedCode]

    mutating func startBlock(_ container: BlockNode) -> Start {
        for start in open.count < Self.maximumDepth ? Self.starts : Self.leafStarts {
            let result = start(&self, container)
            if result != .none { return result }
        }
        return .none
    }

    static func blockQuote(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented, parser.byte(parser.nextNonspace) == .greaterThan else { return .none }
        parser.advanceNextNonspace()
        parser.advanceOffset(1, columns: false)
        if let next = parser.byte(parser.offset), next == .space || next == .tab { parser.advanceOffset(1, columns: true) }
        parser.closeUnmatchedBlocks()
        parser.addChild(.blockQuote)
        return .container
    }

    static func atxHeading(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented else { return .none }
        var index = parser.nextNonspace
        while index < parser.lineEnd, parser.bytes[index] == .hash { index += 1 }
        let level = index - parser.nextNonspace
        guard (1...6).contains(level), index == parser.lineEnd || parser.bytes[index] == .space || parser.bytes[index] == .tab
        else { return .none }
        parser.closeUnmatchedBlocks()
        let heading = parser.addChild(.heading)
        heading.level = level
        // The closing sequence of #s, when spaces come before it (or it is all there is).
        var end = parser.lineEnd
        while end > index, parser.bytes[end - 1] == .space || parser.bytes[end - 1] == .tab { end -= 1 }
        var hashes = end
        while hashes > index, parser.bytes[hashes - 1] == .hash { hashes -= 1 }
        if hashes < end, hashes == index || parser.bytes[hashes - 1] == .space || parser.bytes[hashes - 1] == .tab { end = hashes }
        heading.content = Array(InlineText.trimmed(parser.bytes[index..<max(index, end)]))
        parser.offset = parser.lineEnd
        return .leaf
    }

    static func fencedCode(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented, let fence = parser.byte(parser.nextNonspace), fence == .backtick || fence == .tilde else { return .none }
        var index = parser.nextNonspace
        while index < parser.lineEnd, parser.bytes[index] == fence { index += 1 }
        let length = index - parser.nextNonspace
        guard length >= 3 else { return .none }
        if fence == .backtick, parser.bytes[index..<parser.lineEnd].contains(.backtick) { return .none }
        parser.closeUnmatchedBlocks()
        let code = parser.addChild(.codeBlock)
        code.isFenced = true
        code.fenceCharacter = fence
        code.fenceLength = length
        code.fenceOffset = parser.indent
        parser.advanceNextNonspace()
        parser.advanceOffset(length, columns: false)
        return .leaf
    }

    static func htmlBlock(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented, parser.byte(parser.nextNonspace) == .lessThan,
              let type = HTMLScanner.blockStart(parser.bytes[parser.nextNonspace..<parser.lineEnd])
        else { return .none }
        let interruptsParagraph = container.kind == .paragraph || (!parser.allClosed && !parser.isBlank && parser.tip.kind == .paragraph)
        guard type < 7 || !interruptsParagraph else { return .none }
        parser.closeUnmatchedBlocks()
        parser.addChild(.htmlBlock).htmlBlockType = type
        return .leaf
    }

    static func setextHeading(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented, container.kind == .paragraph, let marker = parser.byte(parser.nextNonspace),
              marker == .equals || marker == .dash else { return .none }
        var index = parser.nextNonspace
        while index < parser.lineEnd, parser.bytes[index] == marker { index += 1 }
        while index < parser.lineEnd, parser.bytes[index] == .space || parser.bytes[index] == .tab { index += 1 }
        guard index == parser.lineEnd else { return .none }
        parser.closeUnmatchedBlocks()
        // Link reference definitions at the paragraph's start are not its text.
        let consumed = parser.references.takeDefinitions(from: container.content)
        guard consumed < container.content.count,
              !container.content[consumed...].allSatisfy({ $0 == .space || $0 == .tab || $0 == .newline }) else {
            container.content.removeFirst(consumed)
            return .none
        }
        let heading = BlockNode(.heading, line: container.startLine)
        heading.level = marker == .equals ? 1 : 2
        heading.content = Array(InlineText.trimmed(container.content[consumed...]))
        parser.replaceTip(with: heading)
        parser.offset = parser.lineEnd
        return .leaf
    }

    static func thematicBreak(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented, parser.isThematicBreak(from: parser.nextNonspace) else { return .none }
        parser.closeUnmatchedBlocks()
        parser.addChild(.thematicBreak)
        parser.offset = parser.lineEnd
        return .leaf
    }

    func isThematicBreak(from start: Int) -> Bool {
        guard let marker = byte(start), marker == .asterisk || marker == .underscore || marker == .dash else { return false }
        var count = 0
        for index in start..<lineEnd {
            switch bytes[index] {
            case marker: count += 1
            case .space, .tab: continue
            default: return false
            }
        }
        return count >= 3
    }

    static func listItem(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard !parser.isIndented || container.kind == .list, var data = parser.listMarker(container) else { return .none }
        parser.closeUnmatchedBlocks()
        let tip = parser.tip
        if tip.kind != .list || !Self.sameList(tip.listData, data) {
            parser.addChild(.list).listData = data
        }
        data.markerOffset = parser.indent
        parser.addChild(.item).listData = data
        return .container
    }

    static func sameList(_ list: BlockNode.ListData?, _ item: BlockNode.ListData) -> Bool {
        guard let list else { return false }
        return list.ordered == item.ordered && list.delimiter == item.delimiter
    }

    /// Reads a list item's marker and the spaces after it, moving past them.
    mutating func listMarker(_ container: BlockNode) -> BlockNode.ListData? {
        guard indent < 4, let first = byte(nextNonspace) else { return nil }
        var data = BlockNode.ListData(ordered: false, delimiter: first, start: 1, markerOffset: indent, padding: 0)
        var markerEnd = nextNonspace + 1
        if first == .asterisk || first == .plus || first == .dash {
            if first != .plus, isThematicBreak(from: nextNonspace) { return nil }
        } else if first.isDigit {
            var index = nextNonspace
            var number = 0
            while index < lineEnd, bytes[index].isDigit, index - nextNonspace < 9 {
                number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard let delimiter = byte(index), delimiter == .period || delimiter == .closeParen else { return nil }
            if container.kind == .paragraph, number != 1 { return nil }
            data = BlockNode.ListData(ordered: true, delimiter: delimiter, start: number, markerOffset: indent, padding: 0)
            markerEnd = index + 1
        } else {
            return nil
        }
        if let next = byte(markerEnd), next != .space, next != .tab { return nil }
        // An empty item cannot interrupt a paragraph.
        if container.kind == .paragraph, bytes[markerEnd..<lineEnd].allSatisfy({ $0 == .space || $0 == .tab }) { return nil }

        advanceNextNonspace()
        advanceOffset(markerEnd - nextNonspace, columns: true)
        let spacesStartColumn = column
        let spacesStartOffset = offset
        repeat {
            advanceOffset(1, columns: true)
        } while column - spacesStartColumn < 5 && (byte(offset) == .space || byte(offset) == .tab)
        let blankItem = byte(offset) == nil
        let spacesAfterMarker = column - spacesStartColumn
        let markerLength = markerEnd - nextNonspace
        if spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem {
            data.padding = markerLength + 1
            column = spacesStartColumn
            offset = spacesStartOffset
            partiallyConsumedTab = false
            if byte(offset) == .space || byte(offset) == .tab { advanceOffset(1, columns: true) }
        } else {
            data.padding = markerLength + spacesAfterMarker
        }
        return data
    }

    static func indentedCode(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard parser.isIndented, parser.tip.kind != .paragraph, !parser.isBlank else { return .none }
        parser.advanceOffset(4, columns: true)
        parser.closeUnmatchedBlocks()
        parser.addChild(.codeBlock)
        return .leaf
    }

    /// A table starts where a paragraph's last line is a header row and this line the
    /// delimiter row under it, with as many cells.
    static func table(_ parser: inout BlockParser, _ container: BlockNode) -> Start {
        guard parser.syntax.contains(.tables), !parser.isIndented, container.kind == .paragraph,
              let alignments = TableSyntax.delimiterRow(parser.bytes[parser.nextNonspace..<parser.lineEnd]) else { return .none }
        var content = container.content
        if content.last == .newline { content.removeLast() }
        let headerStart = (content.lastIndex(of: .newline).map { $0 + 1 }) ?? 0
        let header = TableSyntax.cells(content[headerStart...], count: nil)
        guard header.count == alignments.count else { return .none }
        // Definitions before the header are taken now, as a paragraph's would be.
        let consumed = parser.references.takeDefinitions(from: Array(content[..<headerStart]))
        parser.closeUnmatchedBlocks()
        let table = BlockNode(.table, line: parser.lineNumber)
        table.alignments = alignments
        table.rows = [header]
        let before = Array(content[consumed..<headerStart])
        if before.allSatisfy({ $0 == .space || $0 == .tab || $0 == .newline }) {
            parser.replaceTip(with: table)
        } else {
            container.content = before
            parser.finalize(parser.open.count - 1)
            parser.tip.children.append(table)
            parser.open.append(table)
        }
        parser.offset = parser.lineEnd
        return .leaf
    }

    /// Puts `block` where the open tip (a paragraph) is.
    mutating func replaceTip(with block: BlockNode) {
        let old = open.removeLast()
        let parent = tip
        if let index = parent.children.lastIndex(where: { $0 === old }) { parent.children[index] = block }
        open.append(block)
    }
}
