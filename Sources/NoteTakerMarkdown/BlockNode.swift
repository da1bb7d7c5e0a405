/// A block while the parser builds it: open blocks take lines until one does not continue
/// them, then they are finalized and converted to ``MarkdownBlock`` values.
final class BlockNode {
    enum Kind {
        case document, blockQuote, list, item, paragraph, heading, thematicBreak, codeBlock, htmlBlock, table
    }

    /// A list item's marker and indentation.
    struct ListData {
        var ordered: Bool
        /// `-`, `+`, `*` for bullets; `.` or `)` for ordered lists.
        var delimiter: UInt8
        var start: Int
        var markerOffset: Int
        var padding: Int
    }

    let kind: Kind
    var children: [BlockNode] = []
    var isOpen = true
    var lastLineBlank = false
    /// The line the block started on (a list item that starts blank ends at a blank line).
    let startLine: Int
    /// The lines of a paragraph, heading, code or HTML block.
    var content: [UInt8] = []

    var level = 0
    var listData: ListData?
    var isTight = true
    var isFenced = false
    var fenceCharacter: UInt8 = 0
    var fenceLength = 0
    var fenceOffset = 0
    var info = ""
    var htmlBlockType = 0
    /// A table's alignments, header cells and rows (raw text of each cell).
    var alignments: [MarkdownTable.Alignment] = []
    var rows: [[[UInt8]]] = []

    init(_ kind: Kind, line: Int) {
        self.kind = kind
        startLine = line
    }

    /// Whether this kind of block can hold a child of `kind`.
    func canContain(_ child: Kind) -> Bool {
        switch kind {
        case .document, .blockQuote, .item: child != .item
        case .list: child == .item
        default: false
        }
    }

    /// Whether this block takes the rest of every line as its text.
    var acceptsLines: Bool { kind == .paragraph || kind == .codeBlock || kind == .htmlBlock }

    /// Whether the block, or its last descendant through lists and items, ended with a blank line.
    var endsWithBlankLine: Bool {
        var block: BlockNode? = self
        while let current = block {
            if current.lastLineBlank { return true }
            guard current.kind == .list || current.kind == .item else { return false }
            block = current.children.last
        }
        return false
    }
}
