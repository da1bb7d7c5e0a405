import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Renders a note's Markdown to HTML that is safe to put in the page.
///
/// ``MarkdownDocument`` parses it (CommonMark with GitHub's tables, task lists,
/// strikethrough and autolinks; the same parser the PDF export reads); task list boxes can be
/// ticked, each naming its line of the text (`data-task`); `attachment:ID` addresses point at
/// the API's copy of that attachment, `note:ID` and `[[Title]]` links at the note in the app; then ``HTMLSanitizer`` keeps only an allowlist
/// of tags, attributes and URL schemes, so nothing a note contains can run in the app.
enum MarkdownRenderer {
    /// The sanitized HTML of a Markdown text, shown as `preferences` say.
    static func html(_ markdown: String, preferences: Preferences = Preferences()) -> String {
        let document = MarkdownDocument(parsing: markdown, syntax: preferences.lineBreaks ? [.notes, .lineBreaks] : .notes)
        return HTMLSanitizer.sanitize(document.html(options: MarkdownHTMLOptions(tickableTasks: true, highlightsCode: true)))
    }
}
