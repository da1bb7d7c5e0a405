import Foundation
@testable import NoteTakerWeb
import Testing

@Suite struct MarkdownSafetyTests {
    @Test func markdownRendersTheUsualFormatting() {
        let html = MarkdownRenderer.html("""
            # Title

            Some **bold**, _italic_, `code` and a [link](https://example.com).

            - [ ] open
            - [x] done

            1. one
            2. two

            > quoted

            | a | b |
            | - | - |
            | 1 | 2 |

            ![chart](attachment:3F2A1B4C-0000-4000-8000-000000000001)
            """)
        for fragment in ["<h1>Title</h1>", "<strong>bold</strong>", "<em>italic</em>", "<code>code</code>",
                         "<a href=\"https://example.com\" rel=\"noopener noreferrer\" target=\"_blank\">link</a>",
                         "<li class=\"task\"><input type=\"checkbox\" data-task=\"5\"> open",
                         "<li class=\"task done\"><input type=\"checkbox\" data-task=\"6\" checked> done",
                         "<ol>", "<blockquote>", "<table>", "<td>2</td>",
                         "<img src=\"/api/v1/attachments/3f2a1b4c-0000-4000-8000-000000000001/content\" alt=\"chart\">"] {
            #expect(html.contains(fragment), "\(fragment) in \(html)")
        }
    }

    @Test func codeIsHighlightedAndOnlyTheHighlightersClassesPass() {
        let html = MarkdownRenderer.html("""
            ```swift
            let greeting = "hi" // say it
            ```

            <code class="language-evil">x</code> <span class="hl-keyword x" style="color:red">y</span> <span class="hl-string">z</span>
            """)
        #expect(html.contains(#"<pre><code class="language-swift"><span class="hl-keyword">let</span> greeting = <span class="hl-string">&quot;hi&quot;</span> <span class="hl-comment">// say it</span>"#), "\(html)")
        #expect(html.contains("<code>x</code>"), "an unknown language's class is dropped: \(html)")
        #expect(html.contains("<span>y</span>"), "a class or style the highlighter does not write is dropped: \(html)")
        #expect(html.contains(#"<span class="hl-string">z</span>"#))
        #expect(!html.contains("evil") && !html.contains("style") && !html.contains("color"))
    }

    @Test func propertiesShowAsATableAndOnlyThatClassPasses() {
        let html = MarkdownRenderer.html("```properties\nstatus: draft\n```\n\n<table class=\"evil\"><tr><td>x</td></tr></table>")
        #expect(html.contains("<table class=\"properties\"><tbody>"), "\(html)")
        #expect(html.contains("<th>status</th><td>draft</td>"))
        #expect(!html.contains("evil"))
    }

    static let hostile: [String] = [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "<img src=\"x\" onerror=\"alert(1)\">",
        "<svg onload=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
        "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
        "<a href=\"javascript&#58;alert(1)\">x</a>",
        "<a href=\"&#106;avascript:alert(1)\">x</a>",
        "<a href=\" javascript:alert(1)\">x</a>",
        "<a href=\"data:text/html,<script>alert(1)</script>\">x</a>",
        "<a href=\"vbscript:msgbox(1)\">x</a>",
        "[x](javascript:alert(1))",
        "[x](JAVASCRIPT:alert(1))",
        "![x](javascript:alert(1))",
        "[x](https://a.example/\"onmouseover=\"alert(1))",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "<style>body{display:none}</style>",
        "<p style=\"position:fixed\">x</p>",
        "<object data=\"x\"></object>",
        "<embed src=\"x\">",
        "<form action=\"https://evil.example\"><input name=q></form>",
        "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">",
        "<base href=\"https://evil.example/\">",
        "<link rel=stylesheet href=https://evil.example/x.css>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<details open ontoggle=alert(1)>",
        "<a href=# onclick=alert(1)>x</a>",
        "<input type=\"text\" autofocus onfocus=alert(1)>",
        "<img src=\"x\"/onerror=alert(1)>",
        "<<script>script>alert(1)<</script>/script>",
        "<!--<img src=x onerror=alert(1)>-->",
        "<a href=\"https://ok.example\" onmouseover=alert(1)>ok</a>",
    ]

    @Test(arguments: hostile)
    func nothingFromANoteCanRun(_ markdown: String) {
        let html = MarkdownRenderer.html(markdown)
        let lowered = html.lowercased()
        for forbidden in ["<script", "<iframe", "<svg", "<style", "<object", "<embed", "<form", "<meta", "<base", "<link", "<math", "<details"] {
            #expect(!lowered.contains(forbidden), "\(forbidden) in \(html)")
        }
        for attribute in [" on", "style=", "javascript:", "vbscript:", "data:"] {
            let insideTags = tags(in: lowered).joined(separator: " ")
            #expect(!insideTags.contains(attribute), "\(attribute) in a tag of \(html)")
        }
        #expect(!tags(in: lowered).contains { $0.hasPrefix("<input") && !$0.contains("checkbox") })
    }

    @Test func disallowedHTMLIsShownAsText() {
        #expect(MarkdownRenderer.html("<script>alert(1)</script>").contains("&lt;script&gt;"))
    }

    /// Every tag in `html`, as written.
    private func tags(in html: String) -> [String] {
        var result: [String] = []
        var rest = html[...]
        while let start = rest.firstIndex(of: "<") {
            guard let end = rest[start...].firstIndex(of: ">") else { break }
            result.append(String(rest[start...end]))
            rest = rest[rest.index(after: end)...]
        }
        return result
    }
}
