import NoteTakerMarkdown

/// Notes written to make a Markdown parser slow: long runs of emphasis, backticks, brackets,
/// links, nesting, entities and tables, each rendered at 100 kB, 1 MB and 4 MB. A parser that is
/// linear in its input takes about 40 times as long for 4 MB as for 100 kB; the figure is the
/// time per megabyte at 4 MB over the time per megabyte at 100 kB (1 for exactly linear).
enum HostileMarkdown {
    /// The sizes each input is rendered at, in bytes.
    static let sizes = [100_000, 1_000_000, 4_000_000]

    /// Each input's name and how it is made to a size.
    static let inputs: [(name: String, make: @Sendable (Int) -> String)] = [
        ("emphasis nested, then closed", { repeated("*a **a ", $0 / 2) + "b" + repeated(" a** a*", $0 / 2) }),
        ("emphasis never closed", { repeated("*a **a ", $0) }),
        ("emphasis of two kinds interleaved", { repeated("*_a", $0) }),
        ("underscores inside words", { repeated("_a __a ", $0) }),
        ("strikethrough runs", { repeated("~~a ~", $0) }),
        ("backtick runs of every length", everyBacktickLength),
        ("backtick runs never closed", { repeated("`a``b", $0) }),
        ("brackets never closed", { repeated("[", $0 - 1) + "a" }),
        ("links never closed", { repeated("[a](", $0) }),
        ("links nested", { repeated("[a", $0 / 2) + repeated("](b)", $0 / 2) }),
        ("images never closed", { repeated("![a", $0) }),
        ("wiki links never closed", { repeated("[[a", $0) }),
        ("reference links", referenceLinks),
        ("entities, valid and not", { repeated("&amp;&#123;&bogus", $0) }),
        ("angle brackets never closed", { repeated("<a", $0) }),
        ("HTML attributes never closed", { repeated("<a href='", $0) }),
        ("web addresses", { repeated("www.a", $0) }),
        ("block quotes nested", { repeated(">", $0 - 2) + " a" }),
        ("lists nested", nestedLists),
        ("table rows", tableRows),
        ("a table as wide as the note", { repeated("|a", $0 / 2) + "\n" + repeated("|-", $0 / 2) + "\n|a|\n" }),
    ]

    /// How long rendering `text` to HTML takes, in milliseconds (the best of `times`).
    static func render(_ text: String, times: Int) -> Double {
        (0..<times).map { _ in Clock.milliseconds { _ = MarkdownDocument(parsing: text).html() } }.min() ?? 0
    }

    private static func repeated(_ unit: String, _ size: Int) -> String {
        String(repeating: unit, count: max(1, size / unit.utf8.count))
    }

    private static func everyBacktickLength(_ size: Int) -> String {
        var text = ""
        var length = 1
        while text.utf8.count + length + 1 <= size {
            text += String(repeating: "`", count: length) + "a"
            length += 1
        }
        return text
    }

    private static func referenceLinks(_ size: Int) -> String {
        let definitions = (0..<(size / 40)).map { "[r\($0)]: /u\($0)" }.joined(separator: "\n")
        return definitions + "\n\n" + repeated("[a][r1] [b][zz] ", size / 2)
    }

    private static func nestedLists(_ size: Int) -> String {
        var lines: [String] = []
        var total = 0
        var depth = 0
        while total < size {
            let line = String(repeating: "  ", count: depth) + "- a"
            lines.append(line)
            total += line.utf8.count + 1
            depth = (depth + 1) % 100
        }
        return lines.joined(separator: "\n")
    }

    private static func tableRows(_ size: Int) -> String {
        let row = "|" + repeated("a|", 200)
        let header = row + "\n|" + repeated("-|", 200) + "\n"
        return header + Array(repeating: row, count: max(1, (size - header.utf8.count) / (row.utf8.count + 1))).joined(separator: "\n")
    }
}
