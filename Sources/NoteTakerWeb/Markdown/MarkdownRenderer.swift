import Foundation
import Ink

/// Renders a note's Markdown to HTML that is safe to put in the page.
///
/// Ink parses the Markdown (CommonMark's common subset, tables, strikethrough); task list
/// items (`- [ ]`, `- [x]`) become disabled checkboxes; `attachment:ID` addresses point at the
/// API's copy of that attachment; then ``HTMLSanitizer`` keeps only an allowlist of tags,
/// attributes and URL schemes, so nothing a note contains can run in the app.
enum MarkdownRenderer {
    /// The sanitized HTML of a Markdown text.
    static func html(_ markdown: String) -> String {
        let raw = MarkdownParser().html(from: markdown)
        return HTMLSanitizer.sanitize(taskListItems(raw))
    }

    /// `<li>[ ] text` and `<li>[x] text` as checkbox items.
    static func taskListItems(_ html: String) -> String {
        html
            .replacingOccurrences(of: "<li>[ ] ", with: "<li class=\"task\"><input type=\"checkbox\" disabled> ")
            .replacingOccurrences(of: "<li>[x] ", with: "<li class=\"task\"><input type=\"checkbox\" checked disabled> ")
            .replacingOccurrences(of: "<li>[X] ", with: "<li class=\"task\"><input type=\"checkbox\" checked disabled> ")
    }
}
