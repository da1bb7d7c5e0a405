extension MarkdownDocument {
    /// The first line of a note as a list shows it: plain text, without Markdown's markers
    /// (`# `, `**`, `- [ ]`, table pipes, link addresses).
    ///
    /// A list shows this for every note on screen, so only the first block's lines are read
    /// (up to the first blank line, at most 1 kB): link reference definitions further down
    /// are not seen, and a link that needs one shows its text alone, as a list should anyway.
    public static func previewText(of markdown: String, maximumLength: Int = 200) -> String {
        // A note's properties are not its first line.
        let bytes = (NoteProperties.split(markdown).map { String($0.rest) } ?? markdown).utf8
        var start = bytes.startIndex
        var end = start
        var sawText = false
        // Lines up to the first blank one after some text.
        while end < bytes.endIndex, bytes.distance(from: start, to: end) < 1024 {
            let lineEnd = bytes[end...].firstIndex { $0 == .newline || $0 == .carriageReturn } ?? bytes.endIndex
            let blank = bytes[end..<lineEnd].allSatisfy { $0 == .space || $0 == .tab }
            if blank, sawText { break }
            if blank { start = lineEnd < bytes.endIndex ? bytes.index(after: lineEnd) : lineEnd }
            sawText = sawText || !blank
            end = lineEnd < bytes.endIndex ? bytes.index(after: lineEnd) : lineEnd
        }
        let document = MarkdownDocument(parsing: String(decoding: bytes[start..<end], as: UTF8.self))
        guard let text = document.blocks.lazy.compactMap(Self.text(of:)).first(where: { !$0.isEmpty }) else { return "" }
        let scalars = text.unicodeScalars
        return scalars.count <= maximumLength ? text : String(String.UnicodeScalarView(scalars.prefix(maximumLength)))
    }

    /// The first line of a block's text, without the spaces around it.
    private static func text(of block: MarkdownBlock) -> String? {
        let text: String
        switch block {
        case .paragraph(let inlines), .heading(_, let inlines): text = MarkdownInline.plainText(inlines)
        case .blockQuote(let children): return children.lazy.compactMap(Self.text(of:)).first
        case .list(let list): return list.items.first.flatMap { $0.blocks.lazy.compactMap(Self.text(of:)).first }
        case .code(_, let code): text = code
        case .table(let table): text = table.header.map(MarkdownInline.plainText).joined(separator: " · ")
        case .thematicBreak, .html: return nil
        }
        let line = text.utf8.prefix { $0 != .newline }
        let trimmed = line.drop { $0 == .space || $0 == .tab }.reversed().drop { $0 == .space || $0 == .tab }.reversed()
        return String(decoding: Array(trimmed), as: UTF8.self)
    }
}
