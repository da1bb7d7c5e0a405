/// A note's properties: `key: value` lines in a fenced block with the info string
/// `properties` at the top of the note, where imports keep what NoteTaker has no field for
/// (Obsidian's front matter keys, Evernote's author, source and place). The Markdown export
/// writes them back into front matter; the preview shows them as a table; elsewhere they are
/// a code block any Markdown reader shows as written.
public enum NoteProperties {
    /// The info string that marks the block.
    public static let info = "properties"

    /// The block holding `lines` (each `key: value`, or a YAML continuation line), with a
    /// fence longer than any backtick run inside.
    public static func block(_ lines: [String]) -> String {
        var fence = "```"
        while lines.contains(where: { $0.contains(fence) }) { fence += "`" }
        return ([fence + info] + lines + [fence]).joined(separator: "\n")
    }

    /// The properties block that opens `markdown`, if it opens with one: its lines and the
    /// text after it (without the blank lines between).
    public static func split(_ markdown: String) -> (lines: [Substring], rest: Substring)? {
        guard markdown.hasPrefix("```"), let firstEnd = markdown.firstIndex(of: "\n") else { return nil }
        let opening = markdown[..<firstEnd]
        let fence = opening.prefix { $0 == "`" }
        guard opening.dropFirst(fence.count).trimming(" \t\r") == info else { return nil }
        var lines: [Substring] = []
        var index = markdown.index(after: firstEnd)
        while index < markdown.endIndex {
            let end = markdown[index...].firstIndex(of: "\n") ?? markdown.endIndex
            let line = markdown[index..<end]
            let next = end == markdown.endIndex ? end : markdown.index(after: end)
            if line.hasPrefix(fence), line.trimming("` \t\r").isEmpty {
                return (lines, markdown[next...].drop { $0 == "\n" || $0 == "\r" })
            }
            lines.append(line)
            index = next
        }
        return nil
    }

    /// The properties as the preview lists them: each top-level key with its value, list
    /// items (`- item` lines under a key) joined with commas, quotes taken off.
    public static func entries(_ text: String) -> [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimming(" \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if line.first == " " || line.first == "\t" || trimmed.hasPrefix("- "), !entries.isEmpty {
                let item = unquoted(trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed)
                entries[entries.count - 1].value += (entries[entries.count - 1].value.isEmpty ? "" : ", ") + item
                continue
            }
            guard let colon = trimmed.firstIndex(of: ":") else {
                entries.append((trimmed, ""))
                continue
            }
            var value = String(trimmed[trimmed.index(after: colon)...]).trimming(" \t")
            if value.hasPrefix("["), value.hasSuffix("]") {
                value = value.dropFirst().dropLast().split(separator: ",").map { unquoted($0.trimming(" ")) }.joined(separator: ", ")
            }
            entries.append((String(trimmed[..<colon]), unquoted(value)))
        }
        return entries
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else { return text }
        return String(text.dropFirst().dropLast())
    }
}

extension StringProtocol {
    /// Without the given characters at either end.
    func trimming(_ characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
