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
        let patterns = terms.map { term in
            (words: Self.words(in: term.text).map { fold(term.text[$0]) }, isPrefix: term.isPrefix)
        }
        let wanted = Set(patterns.flatMap(\.words))
        let prefixes = patterns.filter(\.isPrefix).compactMap(\.words.last)
        func matches(_ range: Range<String.Index>) -> Bool {
            let word = fold(body[range])
            return wanted.contains(word) || prefixes.contains { word.hasPrefix($0) }
        }
        // Read words only until the snippet is complete: bodies can be long.
        var words: [Range<String.Index>] = []
        var marked = Set<Int>()
        var first: Int?
        var scanner = WordScanner(text: body)
        while let range = scanner.next() {
            words.append(range)
            if matches(range) {
                marked.insert(words.count - 1)
                if first == nil { first = words.count - 1 }
            }
            if let first, words.count >= first + length { break }
        }
        let hasMore = scanner.next() != nil
        guard !words.isEmpty else { return "" }
        let start = max(0, (first ?? 0) - lead)
        let end = min(words.count, start + length)
        var text = start > 0 ? "…" : ""
        var cursor = words[start].lowerBound
        for index in start..<end {
            text += body[cursor..<words[index].lowerBound]
            let word = body[words[index]]
            text += marked.contains(index) ? SearchHit.highlightStart + word + SearchHit.highlightEnd : String(word)
            cursor = words[index].upperBound
        }
        text += end < words.count || hasMore ? "…" : body[cursor...].trimmingCharacters(in: .whitespacesAndNewlines)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The ranges of the words of `text`.
    static func words(in text: String) -> [Range<String.Index>] {
        var scanner = WordScanner(text: text)
        var ranges: [Range<String.Index>] = []
        while let range = scanner.next() { ranges.append(range) }
        return ranges
    }

    /// Walks the words of a text: runs of letters, digits and combining marks, as FTS5's
    /// unicode61 tokenizer splits them. Works on Unicode scalars, with a fast path for ASCII.
    struct WordScanner {
        let text: String
        private var index: String.Index

        init(text: String) {
            self.text = text
            index = text.startIndex
        }

        mutating func next() -> Range<String.Index>? {
            let scalars = text.unicodeScalars
            while index < scalars.endIndex, !Self.isWordScalar(scalars[index]) { scalars.formIndex(after: &index) }
            guard index < scalars.endIndex else { return nil }
            let start = index
            while index < scalars.endIndex, Self.isWordScalar(scalars[index]) { scalars.formIndex(after: &index) }
            return start..<index
        }

        static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.isASCII {
                let value = scalar.value
                return (48...57).contains(value) || (65...90).contains(value) || (97...122).contains(value)
            }
            let properties = scalar.properties
            return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
        }
    }

    /// A word as the index compares it: lowercase, without accents.
    static func fold(_ word: Substring) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        let scalars = word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }
        return String(String.UnicodeScalarView(scalars))
    }
}
