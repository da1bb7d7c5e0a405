import NoteTakerMarkdown
import Testing

/// The cases people meet in their own notes, and text shaped to make a parser slow or crash.
@Suite("Everyday Markdown")
struct EverydayMarkdownTests {
    func html(_ markdown: String) -> String {
        MarkdownDocument(parsing: markdown).html()
    }

    @Test("the cases the old preview got wrong")
    func everydayCases() {
        #expect(html("# foo#") == "<h1>foo#</h1>\n")
        #expect(html("- one\n\n- two\n\n- three") == "<ul>\n<li>\n<p>one</p>\n</li>\n<li>\n<p>two</p>\n</li>\n<li>\n<p>three</p>\n</li>\n</ul>\n")
        #expect(html("1. first\n   - a\n   - b\n2. second") == "<ol>\n<li>first\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n</li>\n<li>second</li>\n</ol>\n")
        #expect(html("Title\n=====") == "<h1>Title</h1>\n")
        #expect(html("> # Foo") == "<blockquote>\n<h1>Foo</h1>\n</blockquote>\n")
        #expect(html("[docs][1]\n\n[1]: https://example.com \"Docs\"") == "<p><a href=\"https://example.com\" title=\"Docs\">docs</a></p>\n")
        #expect(html("    let x = 1") == "<pre><code>let x = 1\n</code></pre>\n")
        #expect(html("<https://example.com>") == "<p><a href=\"https://example.com\">https://example.com</a></p>\n")
        #expect(html("see www.example.com/a.") == "<p>see <a href=\"http://www.example.com/a\">www.example.com/a</a>.</p>\n")
        #expect(html("&copy; 2026") == "<p>© 2026</p>\n")
    }

    @Test("a single line break is a space by CommonMark's rule, a line break when asked")
    func singleLineBreaks() {
        let text = "first line\nsecond line\\\nthird  \nfourth"
        #expect(html(text) == "<p>first line\nsecond line<br />\nthird<br />\nfourth</p>\n")
        let broken = MarkdownDocument(parsing: text, syntax: [.gitHub, .lineBreaks]).html()
        #expect(broken == "<p>first line<br />\nsecond line<br />\nthird<br />\nfourth</p>\n")
        // Only inside a paragraph: blocks, code and tables are as before.
        let blocks = "# Title\n\n```\na\nb\n```\n\n| x |\n| - |\n| y |"
        #expect(MarkdownDocument(parsing: blocks, syntax: [.gitHub, .lineBreaks]).html() == html(blocks))
    }

    @Test("task items know their line, so a page can tick the right one")
    func taskLines() throws {
        let document = MarkdownDocument(parsing: "Intro\n\n- [ ] one\n- [x] two\n  - [ ] nested\n\n```\n- [ ] code\n```\n> - [ ] quoted")
        var found: [(Int, Bool)] = []
        func walk(_ blocks: [MarkdownBlock]) {
            for block in blocks {
                switch block {
                case .list(let list):
                    for item in list.items {
                        if let task = item.task { found.append((item.line, task)) }
                        walk(item.blocks)
                    }
                case .blockQuote(let children): walk(children)
                default: break
                }
            }
        }
        walk(document.blocks)
        #expect(found.map(\.0) == [3, 4, 5, 10])
        #expect(found.map(\.1) == [false, true, false, false])
        #expect(document.html(options: MarkdownHTMLOptions(tickableTasks: true)).contains(
            "<li class=\"task done\"><input type=\"checkbox\" data-task=\"4\" checked=\"\"> two"))
    }

    @Test("text shaped to be slow or deep parses, and keeps its characters")
    func pathologicalText() {
        let cases = [
            String(repeating: "[", count: 20_000) + "a" + String(repeating: "]", count: 20_000),
            String(repeating: "*a ", count: 20_000) + String(repeating: "a* ", count: 20_000),
            String(repeating: "> ", count: 5_000) + "deep",
            String(repeating: "- ", count: 5_000) + "deep",
            String(repeating: "`", count: 5_000) + "x" + String(repeating: "``", count: 2_000),
            String(repeating: "[a](", count: 10_000),
            String(repeating: "<a ", count: 10_000),
            String(repeating: "_a *b ", count: 10_000),
            "\u{0}\r\n\r" + String(repeating: "\t- x\n", count: 1_000),
        ]
        for text in cases {
            let rendered = html(text)
            #expect(!rendered.isEmpty)
        }
        #expect(html("a\u{0}b") == "<p>a\u{FFFD}b</p>\n", "NUL becomes the replacement character")
    }

    @Test("the plain text of inlines, as a note list or an image's description reads it")
    func plainText() {
        guard case .paragraph(let inlines)? = MarkdownDocument(parsing: "**Bold** and [a *link*](x) `code`").blocks.first else {
            Issue.record("not a paragraph")
            return
        }
        #expect(MarkdownInline.plainText(inlines) == "Bold and a link code")
    }
}
