/// A CSV file (RFC 4180, as Notion writes a database: a byte-order mark, a header row, quoted
/// fields with `""` for a quote and line breaks inside) read in one pass.
enum CSVTable {
    /// The rows of `text`.
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false, afterQuote = false
        var characters = text.unicodeScalars.makeIterator()
        if text.unicodeScalars.first == "\u{FEFF}" { _ = characters.next() }
        while let scalar = characters.next() {
            if quoted {
                if scalar == "\"" { quoted = false; afterQuote = true } else { field.unicodeScalars.append(scalar) }
                continue
            }
            switch scalar {
            case "\"":
                if afterQuote { field.append("\"") }
                quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\n":
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            case "\r": continue
            default: field.unicodeScalars.append(scalar)
            }
            afterQuote = false
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
