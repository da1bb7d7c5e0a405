import Foundation
import NoteTakerMarkdown
import Testing

/// The specifications' own examples, run as tests: CommonMark 0.31.2 and the extensions of
/// GitHub Flavored Markdown 0.29 (tables, task lists, strikethrough, autolinks).
@Suite("Markdown specifications")
struct SpecificationTests {
    struct Example: Decodable {
        var example: Int?
        var extension_: String?
        var section: String
        var markdown: String
        var html: String

        enum CodingKeys: String, CodingKey {
            case example, section, markdown, html
            case extension_ = "extension"
        }
    }

    static func examples(_ name: String) throws -> [Example] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
        return try JSONDecoder().decode([Example].self, from: Data(contentsOf: url))
    }

    @Test("CommonMark: every one of the specification's 652 examples, raw HTML included")
    func commonMark() throws {
        let examples = try Self.examples("commonmark-0.31.2")
        #expect(examples.count == 652)
        let failures = examples.filter { MarkdownDocument(parsing: $0.markdown, syntax: .commonMark).html() != $0.html }
        #expect(failures.isEmpty, "\(examples.count - failures.count) of \(examples.count) examples pass")
        for example in failures.prefix(10) {
            Issue.record("""
                example \(example.example ?? 0) (\(example.section)):
                \(example.markdown.debugDescription)
                expected \(example.html.debugDescription)
                got      \(MarkdownDocument(parsing: example.markdown, syntax: .commonMark).html().debugDescription)
                """)
        }
    }

    /// With GitHub's extensions on (as the app reads notes), CommonMark's examples still pass
    /// but for bare URLs and addresses, which the autolink extension links on purpose.
    @Test("CommonMark with GitHub's extensions: only bare URLs and addresses read differently")
    func commonMarkWithExtensions() throws {
        let examples = try Self.examples("commonmark-0.31.2")
        let differing = examples.filter { MarkdownDocument(parsing: $0.markdown).html() != $0.html }.compactMap(\.example)
        // `<foo\+@bar.example.com>`, `< https://foo.bar >`, `https://example.com`, `foo@bar.example.com`.
        #expect(differing == [606, 608, 611, 612])
    }

    /// GitHub's tag filter rewrites some raw HTML tags (`<script>`, `<textarea>`, …) as text;
    /// in the app the sanitizer keeps an allowlist, which does more.
    static let unsupportedExtensions: Set<String> = ["tagfilter"]

    @Test("GitHub's extensions: every example of tables, task lists, strikethrough and autolinks")
    func gitHubExtensions() throws {
        let examples = try Self.examples("gfm-extensions-0.29").filter { !Self.unsupportedExtensions.contains($0.extension_ ?? "") }
        for example in examples {
            let html = MarkdownDocument(parsing: example.markdown).html()
            #expect(html == example.html, "\(example.extension_ ?? ""):\n\(example.markdown)")
        }
    }
}
