import Foundation
import NoteTakerMarkdown

/// Renders a note's Markdown to HTML that is safe to put in the page.
///
/// ``MarkdownDocument`` parses it (CommonMark with GitHub's tables, task lists,
/// strikethrough and autolinks; the same parser the PDF export reads); task list boxes can be
/// ticked, each numbered in the order of the text (`data-task`); `attachment:ID` addresses
/// point at the API's copy of that attachment; then ``HTMLSanitizer`` keeps only an allowlist
/// of tags, attributes and URL schemes, so nothing a note contains can run in the app.
enum MarkdownRenderer {
    /// The sanitized HTML of a Markdown text.
    static func html(_ markdown: String) -> String {
        HTMLSanitizer.sanitize(MarkdownDocument(parsing: markdown).html(options: MarkdownHTMLOptions(tickableTasks: true)))
    }
}
