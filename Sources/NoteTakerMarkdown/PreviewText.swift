extension MarkdownDocument {
    /// The first line of a note as a list shows it: plain text, without Markdown's markers
    /// (`# `, `**`, `- [ ]`, table pipes, link addresses). Reads only the start of the text.
    public static func previewText(of markdown: String, maximumLength: Int = 200) -> String {
        // The first paragraph-sized piece is enough: up to the first blank line after text, within 4 kB.
        var prefix = String(decoding: markdown.utf8.prefix(4096), as: UTF8.self)
        if prefix.utf8.count < markdown.utf8.count, let lastNewline = prefix.lastIndex(of: "\n") {
            prefix = String(prefix[..<lastNewline])
        }
        let document = MarkdownDocument(parsing: prefix)
        guard let first = document.blocks.lazy.compactMap(Self.text(of:)).first(where: { !$0.isEmpty }) else { return "" }
        return String(first.prefix(maximumLength))
    }

    /// The first line of a block's text, trimmed.
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
        let line = text.split(whereSeparator: \.isNewline).first ?? ""
        return String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
