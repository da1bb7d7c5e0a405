import Foundation

/// Links in a Markdown body, outside code: `[text](target)`, `![alt](target)`, and
/// Obsidian's `[[target]]` / `![[target|alias]]`.
struct MarkdownLink {
    /// Where the whole link is in the body.
    var range: Range<String.Index>
    /// `!` in front: an image or an embedded file.
    var isEmbed: Bool
    /// The link text (or the wikilink's alias or target).
    var text: String
    /// The target as written, without `<>` or a title.
    var target: String
    /// Whether it is a `[[wikilink]]`.
    var isWikilink: Bool

    private static let inline = try? NSRegularExpression(
        pattern: #"(!?)\[([^\]\n]*)\]\(\s*(<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)"#)
    private static let wiki = try? NSRegularExpression(pattern: #"(!?)\[\[([^\]\n|#]+)(#[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]"#)

    /// The links in `body`, in order, leaving out those inside fenced code blocks.
    static func links(in body: String) -> [MarkdownLink] {
        guard body.contains("[") else { return [] }
        let text = body as NSString
        let whole = NSRange(location: 0, length: text.length)
        let code = codeRanges(in: body)
        var links: [MarkdownLink] = []
        for match in inline?.matches(in: body, range: whole) ?? [] {
            guard let range = Range(match.range, in: body), !code.contains(where: { $0.overlaps(range) }) else { continue }
            var target = text.substring(with: match.range(at: 3))
            if target.hasPrefix("<") { target = String(target.dropFirst().dropLast()) }
            links.append(MarkdownLink(
                range: range, isEmbed: match.range(at: 1).length > 0, text: text.substring(with: match.range(at: 2)),
                target: target, isWikilink: false))
        }
        for match in wiki?.matches(in: body, range: whole) ?? [] {
            guard let range = Range(match.range, in: body), !code.contains(where: { $0.overlaps(range) }) else { continue }
            let target = text.substring(with: match.range(at: 2)).trimmingCharacters(in: .whitespaces)
            let alias = match.range(at: 4).location != NSNotFound ? text.substring(with: match.range(at: 4)) : target
            links.append(MarkdownLink(
                range: range, isEmbed: match.range(at: 1).length > 0, text: alias, target: target, isWikilink: true))
        }
        return links.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The ranges of fenced code blocks (``` or ~~~), where nothing is a link or a tag.
    static func codeRanges(in body: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var openFence: (start: String.Index, marker: Substring)?
        var index = body.startIndex
        while index < body.endIndex {
            let end = body[index...].firstIndex(of: "\n") ?? body.endIndex
            let line = body[index..<end].drop { $0 == " " }
            if let fence = openFence {
                if line.hasPrefix(fence.marker) {
                    ranges.append(fence.start..<end)
                    openFence = nil
                }
            } else if line.hasPrefix("```") || line.hasPrefix("~~~") {
                openFence = (index, line.prefix(3))
            }
            index = end == body.endIndex ? end : body.index(after: end)
        }
        if let fence = openFence { ranges.append(fence.start..<body.endIndex) }
        return ranges
    }

    /// `body` with each range replaced (ranges in order, not overlapping).
    static func replacing(_ replacements: [(Range<String.Index>, String)], in body: String) -> String {
        var result = ""
        var position = body.startIndex
        for (range, text) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) where range.lowerBound >= position {
            result += body[position..<range.lowerBound]
            result += text
            position = range.upperBound
        }
        result += body[position...]
        return result
    }
}

/// `#tags` written in a note's text, as Obsidian and Bear use them: after a space or at the
/// start of a line, letters, digits, `_`, `-` and `/` with at least one letter; not in code.
enum InlineTags {
    private static let pattern = try? NSRegularExpression(pattern: #"(?:^|(?<=\s))#([\p{L}\p{N}_/-]*[\p{L}_][\p{L}\p{N}_/-]*)"#, options: [.anchorsMatchLines])
    private static let inlineCode = try? NSRegularExpression(pattern: #"`[^`\n]*`"#)

    /// The tags in `body`, first occurrence first, without the `#`.
    static func tags(in body: String) -> [String] {
        guard body.contains("#") else { return [] }
        var text = body
        for range in MarkdownLink.codeRanges(in: body).reversed() { text.replaceSubrange(range, with: "") }
        let stripped = inlineCode?.stringByReplacingMatches(
            in: text, range: NSRange(location: 0, length: (text as NSString).length), withTemplate: "") ?? text
        let nsText = stripped as NSString
        var seen = Set<String>()
        var tags: [String] = []
        for match in pattern?.matches(in: stripped, range: NSRange(location: 0, length: nsText.length)) ?? [] {
            let tag = nsText.substring(with: match.range(at: 1)).trimmingCharacters(in: CharacterSet(charactersIn: "/-"))
            if !tag.isEmpty, seen.insert(tag.lowercased()).inserted { tags.append(tag) }
        }
        return tags
    }
}
