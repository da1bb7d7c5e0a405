/// A Markdown text parsed by the CommonMark specification (0.31.2) with the GitHub
/// extensions people write in notes: tables, task lists, strikethrough and autolinks.
///
/// One parser serves every reader of a note's Markdown (the web app's preview, the PDF
/// export), so a note looks the same everywhere:
///
/// ```swift
/// let document = MarkdownDocument(parsing: "# Plan\n\n- [ ] call Ada")
/// let html = document.html()
/// ```
public struct MarkdownDocument: Sendable, Equatable {
    /// The document's blocks, in order.
    public var blocks: [MarkdownBlock]

    /// Parses a Markdown text (with GitHub's extensions unless `syntax` says otherwise).
    /// Never fails: any text is some Markdown.
    public init(parsing text: String, syntax: MarkdownSyntax = .gitHub) {
        var parser = BlockParser(text, syntax: syntax)
        blocks = parser.parse()
    }
}

/// The extensions to CommonMark a parse reads.
public struct MarkdownSyntax: OptionSet, Sendable {
    public let rawValue: Int

    /// Creates a set of extensions.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Tables with a delimiter row under the header.
    public static let tables = MarkdownSyntax(rawValue: 1 << 0)
    /// `- [ ]` and `- [x]` items.
    public static let taskLists = MarkdownSyntax(rawValue: 1 << 1)
    /// `~~struck~~` text.
    public static let strikethrough = MarkdownSyntax(rawValue: 1 << 2)
    /// Bare `www.`, `http://`, `https://`, `ftp://` links and e-mail addresses.
    public static let autolinks = MarkdownSyntax(rawValue: 1 << 3)

    /// `[[Title]]`, `[[Title|shown text]]` and `[[Title#Heading]]` (Obsidian's links), read as
    /// links to `wiki:Title`.
    public static let wikiLinks = MarkdownSyntax(rawValue: 1 << 4)

    /// A single line break inside a paragraph is a line break, as Obsidian, Joplin and Apple
    /// Notes show it, rather than a space (CommonMark's soft break).
    public static let lineBreaks = MarkdownSyntax(rawValue: 1 << 5)

    /// CommonMark alone.
    public static let commonMark: MarkdownSyntax = []
    /// GitHub Flavored Markdown: CommonMark with tables, task lists, strikethrough and autolinks.
    public static let gitHub: MarkdownSyntax = [.tables, .taskLists, .strikethrough, .autolinks]
    /// What notes are written in: GitHub's Markdown and links between notes by title.
    public static let notes: MarkdownSyntax = [.gitHub, .wikiLinks]
}

/// A block of a Markdown document.
public indirect enum MarkdownBlock: Sendable, Equatable {
    /// A paragraph.
    case paragraph([MarkdownInline])
    /// A heading of level 1 to 6.
    case heading(level: Int, [MarkdownInline])
    /// A thematic break (`---`).
    case thematicBreak
    /// A block quote.
    case blockQuote([MarkdownBlock])
    /// A bullet or ordered list.
    case list(MarkdownList)
    /// A fenced or indented code block: its info string (`""` when none) and its text.
    case code(info: String, text: String)
    /// Raw HTML, as written (the web app's sanitizer decides what of it shows).
    case html(String)
    /// A table (GitHub's extension).
    case table(MarkdownTable)
}

/// A list and its items.
public struct MarkdownList: Sendable, Equatable {
    /// The first number of an ordered list; `nil` for a bullet list.
    public var start: Int?
    /// Whether the items are tight (no blank lines between them): their paragraphs are
    /// shown without paragraph spacing.
    public var isTight: Bool
    /// The items.
    public var items: [MarkdownListItem]
}

/// One item of a list.
public struct MarkdownListItem: Sendable, Equatable {
    /// A task list item's state (`- [ ]`, `- [x]`); `nil` for an ordinary item.
    public var task: Bool?
    /// The line of the text the item's marker is on (the first line is 1).
    public var line: Int
    /// The item's blocks.
    public var blocks: [MarkdownBlock]
}

/// A table: its columns' alignments, header cells and rows of cells.
public struct MarkdownTable: Sendable, Equatable {
    /// How a column's cells are aligned.
    public enum Alignment: Sendable, Equatable {
        case none, left, center, right
    }

    /// Each column's alignment.
    public var alignments: [Alignment]
    /// The header's cells.
    public var header: [[MarkdownInline]]
    /// The body's rows, each with as many cells as the header.
    public var rows: [[[MarkdownInline]]]
}

/// Inline content: text and its formatting.
public indirect enum MarkdownInline: Sendable, Equatable {
    /// Plain text (entities and escapes already decoded).
    case text(String)
    /// A line break that shows as a space.
    case softBreak
    /// A line break that shows as one (two spaces or a backslash at the end of a line).
    case hardBreak
    /// Code (`` `x` ``).
    case code(String)
    /// Emphasis (`*x*`).
    case emphasis([MarkdownInline])
    /// Strong emphasis (`**x**`).
    case strong([MarkdownInline])
    /// Struck-out text (`~~x~~`, GitHub's extension).
    case strikethrough([MarkdownInline])
    /// A link: where it goes, its title, and its text.
    case link(destination: String, title: String?, [MarkdownInline])
    /// An image: its source, its title, and its description.
    case image(source: String, title: String?, [MarkdownInline])
    /// Raw inline HTML, as written.
    case html(String)
}

extension MarkdownInline {
    /// The text of inlines without their formatting (an image's description, a plain
    /// first line).
    public static func plainText(_ inlines: [MarkdownInline]) -> String {
        var text = ""
        for inline in inlines {
            switch inline {
            case .text(let value), .code(let value): text += value
            case .softBreak, .hardBreak: text += "\n"
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                 .link(_, _, let children), .image(_, _, let children):
                text += plainText(children)
            case .html: break
            }
        }
        return text
    }
}
