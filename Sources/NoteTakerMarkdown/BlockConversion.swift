/// Finished blocks as ``MarkdownBlock`` values, their text parsed into inlines now that
/// every link reference definition is known.
struct BlockConversion {
    let syntax: MarkdownSyntax
    let references: LinkReferences

    func blocks(of node: BlockNode) -> [MarkdownBlock] {
        node.children.compactMap(block)
    }

    func block(_ node: BlockNode) -> MarkdownBlock? {
        switch node.kind {
        case .document: return nil
        case .paragraph:
            guard node.content.contains(where: { !$0.isASCIIWhitespace }) else { return nil }
            return .paragraph(inlines(node.content[...]))
        case .heading: return .heading(level: node.level, inlines(node.content[...]))
        case .thematicBreak: return .thematicBreak
        case .blockQuote: return .blockQuote(blocks(of: node))
        case .codeBlock: return .code(info: node.info, text: String(decoding: node.content, as: UTF8.self))
        case .htmlBlock:
            var content = node.content
            while content.last == .newline { content.removeLast() }
            return .html(String(decoding: content, as: UTF8.self))
        case .list:
            let ordered = node.listData?.ordered == true
            return .list(MarkdownList(start: ordered ? node.listData?.start : nil, isTight: node.isTight,
                                      items: node.children.map(item)))
        case .item: return nil
        case .table:
            let cells = node.rows.map { $0.map { inlines($0[...]) } }
            return .table(MarkdownTable(alignments: node.alignments, header: cells.first ?? [], rows: Array(cells.dropFirst())))
        }
    }

    /// A list item, with its task box (`[ ]`, `[x]`) read off its first paragraph.
    func item(_ node: BlockNode) -> MarkdownListItem {
        var task: Bool?
        if syntax.contains(.taskLists), let first = node.children.first, first.kind == .paragraph, first.content.count >= 4,
           first.content[0] == .openBracket, first.content[2] == .closeBracket,
           first.content[3] == .space || first.content[3] == .tab || first.content[3] == .newline {
            switch first.content[1] {
            case .space: task = false
            case UInt8(ascii: "x"), UInt8(ascii: "X"): task = true
            default: break
            }
            if task != nil {
                let rest = Array(first.content[4...])
                let remaining = BlockNode(.paragraph, line: first.startLine)
                remaining.content = rest
                var blocks = [block(remaining)].compactMap { $0 }
                blocks += node.children.dropFirst().compactMap(block)
                return MarkdownListItem(task: task, line: node.startLine, blocks: blocks)
            }
        }
        return MarkdownListItem(task: nil, line: node.startLine, blocks: blocks(of: node))
    }

    func inlines(_ content: ArraySlice<UInt8>) -> [MarkdownInline] {
        InlineParser.parse(content, references: references, syntax: syntax)
    }
}
