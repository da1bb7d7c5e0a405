import Testing
@testable import NoteTakerKit

@Suite("Snippets")
struct SnippetTests {
    func snippet(_ body: String, _ query: String, prefixLast: Bool = false) -> String {
        Snippet.make(body: body, highlights: SearchSyntax.parse(query, prefixLastTerm: prefixLast).highlights)
            .replacingOccurrences(of: SearchHit.highlightStart, with: "[")
            .replacingOccurrences(of: SearchHit.highlightEnd, with: "]")
    }

    @Test func marksMatchesIgnoringCaseAndAccents() {
        #expect(snippet("We met at the Café near the naïve mural.", "cafe NAIVE") == "We met at the [Café] near the [naïve] mural.")
    }

    @Test func startsAFewWordsBeforeTheFirstMatchAndElides() {
        let body = (1...40).map { "w\($0)" }.joined(separator: " ") + " target " + (41...80).map { "w\($0)" }.joined(separator: " ")
        let text = snippet(body, "target")
        #expect(text.hasPrefix("…w37 w38 w39 w40 [target] w41"))
        #expect(text.hasSuffix("…"))
    }

    @Test func prefixesPhrasesAndNoMatch() {
        #expect(snippet("Tomatoes and tomato soup", "tomat*") == "[Tomatoes] and [tomato] soup")
        #expect(snippet("quick brown fox", "\"brown fox\"") == "quick [brown] [fox]")
        #expect(snippet("Body without the word.\nSecond line", "absent") == "Body without the word. Second line")
        #expect(snippet("", "x") == "")
        #expect(snippet("exclude me not", "-exclude not") == "exclude me [not]")
    }
}

@Suite("Snippets read as text")
struct SnippetTextTests {
    func snippet(_ body: String, _ query: String) -> String {
        SnippetTests().snippet(body, query)
    }

    @Test func markdownMarkersAreNotShown() {
        let body = """
            # Groceries

            **Buy now** - [ ] milk and _fresh_ bread
            - [x] eggs, see [Project plan](note:4DDF0A1B-0000-4000-8000-000000000001 "plan")
            > 1. quoted `code` and ~~old~~ [[Reading list|list]] ![photo](attachment:ab12.png)
            """
        #expect(SnippetText.plain(body) == "Groceries Buy now - [ ] milk and fresh bread eggs, see Project plan quoted code and old list photo")
        #expect(snippet(body, "plan") == "…bread eggs, see Project [plan] quoted code and old list photo")
    }

    @Test func tablesFencesRulesAndProperties() {
        let body = """
            ---
            created: 2024-01-02
            ---
            | Item | Price |
            |------|------:|
            | Tea  | 3 * 2 |

            ***

            ```swift
            let snake_case = a*b
            ```
            Heading
            =======
            Costs 5 * 3 \\*not emphasis\\* and snake_case_name, [left] [as] written](x
            """
        #expect(SnippetText.plain(body) == """
            Item · Price Tea · 3 * 2 let snake_case = a*b Heading Costs 5 * 3 *not emphasis* and snake_case_name, [left] [as] written](x
            """)
    }

    @Test func laterMatchesGetPassagesOfTheirOwn() {
        let filler = { (from: Int) in (from..<(from + 30)).map { "w\($0)" }.joined(separator: " ") }
        let body = "start **target** \(filler(0)) second target here \(filler(100)) third **target** \(filler(200)) fourth target"
        let text = snippet(body, "target")
        #expect(text.hasPrefix("start [target] w0"))
        #expect(text.contains(" … w28 w29 second [target] here w100"))
        #expect(text.contains(" … w128 w129 third [target] w200"))
        #expect(!text.contains("fourth"), "three passages at most")
        #expect(text.hasSuffix("…"))
    }

    @Test func matchesCloseTogetherShareAPassage() {
        #expect(snippet("one target two target three", "target") == "one [target] two [target] three")
        let words = (0..<15).map { "w\($0)" }.joined(separator: " ")
        // The second match starts right where the first passage ends: no gap, no ellipsis.
        let text = snippet("target \(words) target end", "target")
        #expect(!text.contains(" … "))
        #expect(text.hasSuffix("[target] end"))
    }

    @Test func hostileMarkdownStaysLinear() {
        // Openers that never close: each is looked for once per line, not once per opener
        // (quadratic, these would take minutes; a table's cells are written as " · ").
        for unit in ["[[", "[a](", "](", "[x][", "\\", "*_`~", "| "] {
            let body = String(repeating: unit, count: 200_000)
            #expect(SnippetText.plain(body).utf8.count <= 2 * body.utf8.count)
        }
    }
}
