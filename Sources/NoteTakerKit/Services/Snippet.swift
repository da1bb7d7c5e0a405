import Foundation

/// The passage of a note's body shown under a search hit: a few words around the first
/// match, each matched word between ``SearchHit/highlightStart`` and ``SearchHit/highlightEnd``.
///
/// Made here rather than by FTS5's `snippet()`, which cannot be limited to the few notes
/// shown without re-reading every match of the query. Words compare as the index compares
/// them: case and accents ignored.
enum Snippet {
    /// How many words a snippet shows; a character of a script written without spaces
    /// counts as a third of a word.
    static let length = 16
    /// How many words before the first match it starts.
    static let lead = 4

    static func make(body: String, highlights terms: [SearchSyntax.Term]) -> String {
        let patterns = terms.flatMap(Pattern.of)
        // Read words only until the snippet is complete: bodies can be long.
        var words: [(range: Range<String.Index>, weight: Int)] = []
        var folded: [String] = []
        var marked = Set<Int>()
        var first: Int?
        var shownAfterFirst = 0
        var scanner = WordScanner(text: body)
        while let range = scanner.next() {
            words.append((range, WordScanner.isSpacelessWord(body[range]) ? 1 : 3))
            folded.append(fold(body[range]))
            for pattern in patterns where pattern.matches(ending: words.count - 1, in: folded) {
                marked.formUnion((words.count - pattern.words.count)..<words.count)
                if first == nil { first = words.count - pattern.words.count }
            }
            if let first {
                shownAfterFirst = words[first...].reduce(0) { $0 + $1.weight }
                if shownAfterFirst >= 3 * length { break }
            }
        }
        let hasMore = scanner.next() != nil
        guard !words.isEmpty else { return "" }
        var start = first ?? 0
        var leading = 0
        while start > 0, leading < 3 * lead {
            start -= 1
            leading += words[start].weight
        }
        var end = start
        var shown = 0
        while end < words.count, shown < 3 * length {
            shown += words[end].weight
            end += 1
        }
        var text = start > 0 ? "…" : ""
        var cursor = words[start].range.lowerBound
        // Marked words that touch (the characters of `東京`) share one highlight.
        func touchesNext(_ index: Int) -> Bool {
            index + 1 < end && marked.contains(index + 1) && words[index].range.upperBound == words[index + 1].range.lowerBound
        }
        for index in start..<end {
            text += body[cursor..<words[index].range.lowerBound]
            let isMarked = marked.contains(index)
            if isMarked, index == start || !marked.contains(index - 1) || !touchesNext(index - 1) { text += SearchHit.highlightStart }
            text += body[words[index].range]
            if isMarked, !touchesNext(index) { text += SearchHit.highlightEnd }
            cursor = words[index].range.upperBound
        }
        text += end < words.count || hasMore ? "…" : body[cursor...].trimmingCharacters(in: .whitespacesAndNewlines)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The passage of `body` around the first place it contains `text` (ASCII letters in any
    /// case), that place marked; the body's start when only the title contained it.
    static func around(_ text: String, in body: String) -> String {
        let found = body.range(of: text, options: [.caseInsensitive])
        let anchor = found?.lowerBound ?? body.startIndex
        var start = body.index(anchor, offsetBy: -substringLead, limitedBy: body.startIndex) ?? body.startIndex
        if start > body.startIndex, let space = body[start..<anchor].firstIndex(where: \.isWhitespace) {
            start = body.index(after: space)
        }
        let tail = found?.upperBound ?? anchor
        let end = body.index(tail, offsetBy: substringLength, limitedBy: body.endIndex) ?? body.endIndex
        var snippet = start > body.startIndex ? "…" : ""
        if let found {
            snippet += body[start..<found.lowerBound] + SearchHit.highlightStart + body[found] + SearchHit.highlightEnd
        }
        snippet += body[tail..<end] + (end < body.endIndex ? "…" : "")
        return snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// How many characters a substring snippet shows before and after the match.
    static let substringLead = 40
    static let substringLength = 80

    /// What a snippet highlights: a word, or a run of characters of a script written
    /// without spaces (`東京` is two words that must follow each other), folded.
    struct Pattern {
        var words: [String]
        var isPrefix: Bool

        /// The patterns of a term: one per word, but one per run of spaceless characters.
        static func of(_ term: SearchSyntax.Term) -> [Pattern] {
            var patterns: [Pattern] = []
            var previousWasSpaceless = false
            for range in Snippet.words(in: term.text) {
                let word = term.text[range]
                let spaceless = WordScanner.isSpacelessWord(word)
                if spaceless, previousWasSpaceless, let last = patterns.indices.last {
                    patterns[last].words.append(fold(word))
                } else {
                    patterns.append(Pattern(words: [fold(word)], isPrefix: false))
                }
                previousWasSpaceless = spaceless
            }
            if term.isPrefix, let last = patterns.indices.last { patterns[last].isPrefix = true }
            return patterns
        }

        /// Whether the pattern's words are the words of `words` that end at `end`.
        func matches(ending end: Int, in words: [String]) -> Bool {
            let start = end - self.words.count + 1
            guard start >= 0 else { return false }
            for (offset, word) in self.words.enumerated() {
                let candidate = words[start + offset]
                let isLast = offset == self.words.count - 1
                guard candidate == word || isLast && isPrefix && candidate.hasPrefix(word) else { return false }
            }
            return true
        }
    }

    /// The ranges of the words of `text`.
    static func words(in text: String) -> [Range<String.Index>] {
        var scanner = WordScanner(text: text)
        var ranges: [Range<String.Index>] = []
        while let range = scanner.next() { ranges.append(range) }
        return ranges
    }

    /// Walks the words of a text: runs of letters, digits and combining marks, as the search
    /// index splits them, each character of a script written without spaces a word of its
    /// own. Works on Unicode scalars, with a fast path for ASCII.
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
            if SpacelessScripts.contains(scalars[index].value) {
                // A character of a script without spaces is a word of its own, with its marks.
                scalars.formIndex(after: &index)
                while index < scalars.endIndex, SpacelessScripts.isMark(scalars[index]) { scalars.formIndex(after: &index) }
                return start..<index
            }
            while index < scalars.endIndex, Self.isWordScalar(scalars[index]), !SpacelessScripts.contains(scalars[index].value) {
                scalars.formIndex(after: &index)
            }
            return start..<index
        }

        /// Whether a word, as this scanner returns them, is a character of a script without spaces.
        static func isSpacelessWord(_ word: Substring) -> Bool {
            word.unicodeScalars.first.map { SpacelessScripts.contains($0.value) } ?? false
        }

        static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.isASCII {
                let value = scalar.value
                return (48...57).contains(value) || (65...90).contains(value) || (97...122).contains(value)
            }
            let properties = scalar.properties
            return properties.isAlphabetic || properties.numericType != nil || SpacelessScripts.isMark(scalar)
        }
    }

    /// A word as the index compares it: lowercase, without accents.
    static func fold(_ word: Substring) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        // The index folds no marks of these scripts (が stays が).
        if WordScanner.isSpacelessWord(word) { return String(word) }
        let scalars = word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }
        return String(String.UnicodeScalarView(scalars))
    }
}
