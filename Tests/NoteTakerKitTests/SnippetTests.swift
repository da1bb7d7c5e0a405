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
