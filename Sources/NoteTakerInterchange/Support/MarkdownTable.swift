/// Rows of cells written as a Markdown table (a database's CSV, a Super note's table).
enum MarkdownTable {
    /// `rows` as a table, the first row its header, every row as wide as the widest; a cell's
    /// `|` is escaped and its line breaks become `<br>`.
    static func text(_ rows: [[String]]) -> String {
        guard let header = rows.first, !header.isEmpty else { return "" }
        let width = rows.map(\.count).max() ?? header.count
        let line = { (row: [String]) in
            "| " + (row + Array(repeating: "", count: width - row.count)).map { cell in
                cell.replacingOccurrences(of: "|", with: "\\|").split(whereSeparator: \.isNewline).joined(separator: "<br>")
            }.joined(separator: " | ") + " |"
        }
        return ([line(header), "|" + String(repeating: " --- |", count: width)] + rows.dropFirst().map(line)).joined(separator: "\n")
    }
}
