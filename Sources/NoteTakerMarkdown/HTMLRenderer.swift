/// How ``MarkdownDocument/html(options:)`` writes a document.
public struct MarkdownHTMLOptions: Sendable, Equatable {
    /// Task list boxes that can be ticked, each naming the line of the text its item is on
    /// (`data-task="3"`) so a page can change that line, their items
    /// classed `task` (and `done` when ticked); otherwise disabled boxes, as GitHub's
    /// specification writes them.
    public var tickableTasks: Bool

    /// Code blocks in a language ``CodeLanguage`` knows highlighted by ``CodeHighlighter``,
    /// their class naming the language by its one name (`language-javascript` for `js`).
    public var highlightsCode: Bool

    /// Options; by default disabled task boxes and code as written.
    public init(tickableTasks: Bool = false, highlightsCode: Bool = false) {
        self.tickableTasks = tickableTasks
        self.highlightsCode = highlightsCode
    }
}

extension MarkdownDocument {
    /// Text safe inside HTML or XML markup (Pango's too): `&`, `<`, `>` and `"` as entities.
    public static func escapedMarkup(_ text: String) -> String {
        HTMLRenderer.escaped(text)
    }

    /// The document as HTML, written as the CommonMark reference implementation writes it.
    /// Raw HTML in the text is passed through: a page must sanitize what it shows.
    public func html(options: MarkdownHTMLOptions = MarkdownHTMLOptions()) -> String {
        var renderer = HTMLRenderer(options: options)
        renderer.blocks(blocks, tight: false)
        return renderer.output
    }
}

struct HTMLRenderer {
    let options: MarkdownHTMLOptions
    var output = ""

    init(options: MarkdownHTMLOptions) {
        self.options = options
    }

    /// A line break unless the output is empty or already ends with one.
    mutating func newline() {
        if let last = output.utf8.last, last != .newline { output += "\n" }
    }

    mutating func blocks(_ blocks: [MarkdownBlock], tight: Bool) {
        for block in blocks { self.block(block, tight: tight) }
    }

    mutating func block(_ block: MarkdownBlock, tight: Bool) {
        switch block {
        case .paragraph(let inlines):
            if tight {
                self.inlines(inlines)
            } else {
                newline()
                output += "<p>"
                self.inlines(inlines)
                output += "</p>\n"
            }
        case .heading(let level, let inlines):
            newline()
            output += "<h\(level)>"
            self.inlines(inlines)
            output += "</h\(level)>\n"
        case .thematicBreak:
            newline()
            output += "<hr />\n"
        case .blockQuote(let children):
            newline()
            output += "<blockquote>\n"
            blocks(children, tight: false)
            newline()
            output += "</blockquote>\n"
        case .code(let info, let text) where info.trimming(" \t") == NoteProperties.info:
            newline()
            output += "<table class=\"properties\"><tbody>\n"
            for (key, value) in NoteProperties.entries(text) {
                output += "<tr><th>\(Self.escaped(key))</th><td>\(Self.escaped(value))</td></tr>\n"
            }
            output += "</tbody></table>\n"
        case .code(let info, let text):
            newline()
            if options.highlightsCode, let known = CodeLanguage(info: info) {
                output += "<pre><code class=\"language-\(known.name)\">" + CodeHighlighter.html(text, language: known)
            } else {
                let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
                output += language.isEmpty ? "<pre><code>" : "<pre><code class=\"language-\(Self.escaped(language))\">"
                output += Self.escaped(text)
            }
            output += "</code></pre>\n"
        case .html(let raw):
            newline()
            output += raw
            output += "\n"
        case .list(let list):
            newline()
            let tag = list.start == nil ? "ul" : "ol"
            if let start = list.start, start != 1 { output += "<ol start=\"\(start)\">\n" } else { output += "<\(tag)>\n" }
            for item in list.items {
                if let done = item.task, options.tickableTasks {
                    output += done ? "<li class=\"task done\">" : "<li class=\"task\">"
                } else {
                    output += "<li>"
                }
                if let done = item.task {
                    if options.tickableTasks {
                        output += "<input type=\"checkbox\" data-task=\"\(item.line)\"\(done ? " checked=\"\"" : "")> "
                    } else {
                        output += done ? "<input checked=\"\" disabled=\"\" type=\"checkbox\"> " : "<input disabled=\"\" type=\"checkbox\"> "
                    }
                }
                blocks(item.blocks, tight: list.isTight)
                output += "</li>\n"
            }
            newline()
            output += "</\(tag)>\n"
        case .table(let table):
            newline()
            output += "<table>\n<thead>\n"
            row(table.header, cell: "th", alignments: table.alignments)
            output += "</thead>\n"
            if !table.rows.isEmpty {
                output += "<tbody>\n"
                for cells in table.rows { row(cells, cell: "td", alignments: table.alignments) }
                output += "</tbody>\n"
            }
            output += "</table>\n"
        }
    }

    mutating func row(_ cells: [[MarkdownInline]], cell: String, alignments: [MarkdownTable.Alignment]) {
        output += "<tr>\n"
        for (index, content) in cells.enumerated() {
            switch index < alignments.count ? alignments[index] : .none {
            case .none: output += "<\(cell)>"
            case .left: output += "<\(cell) align=\"left\">"
            case .center: output += "<\(cell) align=\"center\">"
            case .right: output += "<\(cell) align=\"right\">"
            }
            inlines(content)
            output += "</\(cell)>\n"
        }
        output += "</tr>\n"
    }

    mutating func inlines(_ inlines: [MarkdownInline]) {
        for inline in inlines {
            switch inline {
            case .text(let text): output += Self.escaped(text)
            case .softBreak: output += "\n"
            case .hardBreak: output += "<br />\n"
            case .code(let code): output += "<code>\(Self.escaped(code))</code>"
            case .html(let raw): output += raw
            case .emphasis(let children): wrapped("em", children)
            case .strong(let children): wrapped("strong", children)
            case .strikethrough(let children): wrapped("del", children)
            case .link(let destination, let title, let children):
                output += "<a href=\"\(Self.escaped(Self.normalizedURL(destination)))\""
                if let title { output += " title=\"\(Self.escaped(title))\"" }
                output += ">"
                self.inlines(children)
                output += "</a>"
            case .image(let source, let title, let children):
                output += "<img src=\"\(Self.escaped(Self.normalizedURL(source)))\" alt=\"\(Self.escaped(MarkdownInline.plainText(children)))\""
                if let title { output += " title=\"\(Self.escaped(title))\"" }
                output += " />"
            }
        }
    }

    mutating func wrapped(_ tag: String, _ children: [MarkdownInline]) {
        output += "<\(tag)>"
        inlines(children)
        output += "</\(tag)>"
    }

    /// `&`, `<`, `>` and `"` as entities.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == .ampersand || $0 == .lessThan || $0 == .greaterThan || $0 == .quote }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A URL with the characters that may not appear in one percent-encoded (existing
    /// `%XX` escapes kept).
    static func normalizedURL(_ url: String) -> String {
        let bytes = Array(url.utf8)
        guard bytes.contains(where: { !isURLSafe($0) || $0 == UInt8(ascii: "%") }) else { return url }
        var result: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit {
                result += bytes[index...(index + 2)]
                index += 3
                continue
            }
            if isURLSafe(byte) && byte != UInt8(ascii: "%") {
                result.append(byte)
            } else {
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func isURLSafe(_ byte: UInt8) -> Bool {
        byte.isAlphanumeric || Array(";/?:@&=+$,-_.!~*'()#%".utf8).contains(byte)
    }
}
