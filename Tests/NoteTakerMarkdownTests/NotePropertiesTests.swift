import NoteTakerMarkdown
import Testing

/// A note's properties: the `properties` block at its top, as imports write it.
@Suite("Note properties")
struct NotePropertiesTests {
    static let note = """
        ```properties
        status: draft
        aliases:
          - "Soup, leek"
          - Potage
        rating: 4
        source-url: "https://example.com/a?b=1"
        ```

        # Leek soup

        Chop the leeks.
        """

    @Test("the block shows as a table of keys and values; lists joined, quotes off, text escaped")
    func rendered() {
        let html = MarkdownDocument(parsing: Self.note + "\n\n```properties\nnote: <b>&</b>\n```").html()
        #expect(html.hasPrefix("""
            <table class="properties"><tbody>
            <tr><th>status</th><td>draft</td></tr>
            <tr><th>aliases</th><td>Soup, leek, Potage</td></tr>
            <tr><th>rating</th><td>4</td></tr>
            <tr><th>source-url</th><td>https://example.com/a?b=1</td></tr>
            </tbody></table>
            <h1>Leek soup</h1>
            """), "\(html)")
        #expect(html.contains("<tr><th>note</th><td>&lt;b&gt;&amp;&lt;/b&gt;</td></tr>"))
        #expect(MarkdownDocument(parsing: "```swift\nlet x = 1\n```").html() == "<pre><code class=\"language-swift\">let x = 1\n</code></pre>\n")
    }

    @Test("a note's first line for a list is its text, not its properties")
    func preview() {
        #expect(MarkdownDocument.previewText(of: Self.note) == "Leek soup")
        #expect(MarkdownDocument.previewText(of: "```properties\nstatus: draft\n```") == "")
    }

    @Test("split finds the block only at the very top, with its own fence")
    func split() throws {
        let found = try #require(NoteProperties.split(Self.note))
        #expect(found.lines.first == "status: draft" && found.lines.count == 6)
        #expect(found.rest.hasPrefix("# Leek soup"))
        #expect(NoteProperties.split("Intro\n\n```properties\na: b\n```") == nil)
        #expect(NoteProperties.split("```properties\na: b\nnever closed") == nil)
        let fenced = NoteProperties.block(["code: \"```\""])
        #expect(fenced.hasPrefix("````properties\n") && NoteProperties.split(fenced)?.lines == ["code: \"```\""])
    }
}
