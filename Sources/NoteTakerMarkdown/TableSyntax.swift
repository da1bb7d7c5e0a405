/// GitHub's tables: the delimiter row under the header, and the cells of a row.
enum TableSyntax {
    /// The columns' alignments when `line` is a delimiter row (`| --- | :-: |`), else `nil`.
    static func delimiterRow(_ line: ArraySlice<UInt8>) -> [MarkdownTable.Alignment]? {
        guard line.contains(.pipe) else { return nil }
        let cells = cells(line, count: nil)
        guard !cells.isEmpty else { return nil }
        var alignments: [MarkdownTable.Alignment] = []
        for cell in cells {
            let text = InlineText.trimmed(cell[...])
            guard !text.isEmpty else { return nil }
            let left = text.first == .colon
            let right = text.last == .colon
            let dashes = text.dropFirst(left ? 1 : 0).dropLast(right && text.count > 1 ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == .dash }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments
    }

    /// The cells of a row, split at pipes that are not escaped or inside code; `count`
    /// pads or cuts the row to the table's width.
    static func cells(_ line: ArraySlice<UInt8>, count: Int?) -> [[UInt8]] {
        var text = InlineText.trimmed(line)
        if text.first == .pipe { text = text.dropFirst() }
        if text.last == .pipe, !(text.count >= 2 && text[text.endIndex - 2] == .backslash) { text = text.dropLast() }
        var cells: [[UInt8]] = []
        var cell: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == .backslash, index + 1 < text.endIndex, text[index + 1] == .pipe {
                // `\|` is a pipe in the cell, even inside code.
                cell.append(.pipe)
                index += 2
                continue
            }
            if byte == .pipe {
                cells.append(Array(InlineText.trimmed(cell[...])))
                cell = []
            } else {
                cell.append(byte)
            }
            index += 1
        }
        if !cell.isEmpty || !cells.isEmpty || !text.isEmpty { cells.append(Array(InlineText.trimmed(cell[...]))) }
        if let count {
            if cells.count > count { cells.removeLast(cells.count - count) }
            while cells.count < count { cells.append([]) }
        }
        return cells
    }
}
