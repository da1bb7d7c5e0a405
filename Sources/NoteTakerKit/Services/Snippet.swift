import Foundation

/// The passage of a note's body shown under a search hit: a few words around the first
/// match, each matched word between ``SearchHit/highlightStart`` and ``SearchHit/highlightEnd``.
///
/// Made here rather than by FTS5's `snippet()`, which cannot be limited to the few notes
/// shown without re-reading every match of the query. Words compare as the index compares
/// them: case and accents ignored.
enum Snippet {
    /// How many words a snippet shows.
    static let length = 16
    /// How many words before the first match it starts.
    static let lead = 4

    static func make(body: String, highlights terms: [SearchSyntax.Term]) -> String {
        let words = wordRanges(in: body)
        guard !words.isEmpty else { return "" }
        let patterns = terms.map { term in
            (words: wordRanges(in: term.text).map { fold(term.text[$0]) }, isPrefix: term.isPrefix)
        }
        let wanted = Set(patterns.flatMap(\.words))
        let prefixes = patterns.filter(\.isPrefix).compactMap(\.words.last)
        var folded: [Int: Bool] = [:]
        func matches(_ index: Int) -> Bool {
            if let known = folded[index] { return known }
            let word = fold(body[words[index]])
            let result = wanted.contains(word) || prefixes.contains { word.hasPrefix($0) }
            folded[index] = result
            return result
        }
        let first = words.indices.first(where: matches) ?? 0
        let start = max(0, first - (first > 0 ? lead : 0))
        let end = min(words.count, start + length)
        var text = start > 0 ? "…" : ""
        var cursor = words[start].lowerBound
        for index in start..<end {
            text += body[cursor..<words[index].lowerBound]
            let word = body[words[index]]
            text += matches(index) ? SearchHit.highlightStart + word + SearchHit.highlightEnd : String(word)
            cursor = words[index].upperBound
        }
        text += end < words.count ? "…" : body[cursor...].trimmingCharacters(in: .whitespacesAndNewlines)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The ranges of the words of `text`: runs of letters, digits and marks, as FTS5's
    /// unicode61 tokenizer splits them.
    static func wordRanges(in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start: String.Index?
        for index in text.indices {
            let isWordCharacter = text[index].isLetter || text[index].isNumber
            if isWordCharacter, start == nil { start = index }
            if !isWordCharacter, let begun = start {
                ranges.append(begun..<index)
                start = nil
            }
        }
        if let begun = start { ranges.append(begun..<text.endIndex) }
        return ranges
    }

    /// A word as the index compares it: lowercase, without accents.
    static func fold(_ word: Substring) -> String {
        let scalars = word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }
        return String(String.UnicodeScalarView(scalars))
    }
}
