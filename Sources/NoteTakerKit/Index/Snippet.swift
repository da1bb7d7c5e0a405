import Foundation

/// The passages of a note's text shown under a search hit: a few words around the first
/// match, then up to two shorter passages around later matches the first does not show,
/// each matched word between ``SearchHit/highlightStart`` and ``SearchHit/highlightEnd``.
/// The text is the note's as a reader sees it, without Markdown's markers (``SnippetText``).
///
/// Made here rather than by FTS5's `snippet()`, which cannot be limited to the few notes
/// shown without re-reading every match of the query. Words compare as the index compares
/// them: case and accents ignored.
enum Snippet {
    /// How many words the first passage shows; a character of a script written without
    /// spaces counts as a third of a word.
    static let length = 14
    /// How many words before the first match it starts.
    static let lead = 4
    /// How many words each later passage shows, and starts before its match.
    static let laterLength = 8
    static let laterLead = 3
    /// The most passages a snippet shows.
    static let maximumPassages = 3
    /// How many words past the last passage are read looking for another match: bodies can
    /// be long, and a match further on is not worth reading all of them.
    static let laterScan = 2_000

    /// A run of words shown: from `start` to `end` (exclusive) once enough words are read.
    private struct Passage {
        var start: Int
        var end: Int?
        /// The weight to show (three per word, one per character of a script without spaces),
        /// and how much is read so far.
        let length: Int
        var shown: Int
    }

    static func make(body markdown: String, highlights terms: [SearchSyntax.Term]) -> String {
        let body = SnippetText.plain(markdown)
        let patterns = terms.flatMap(Pattern.of)
        var words: [(range: Range<String.Index>, weight: Int)] = []
        var folded: [String] = []
        var marked = Set<Int>()
        var passages: [Passage] = []
        var scanner = WordScanner(text: body)
        // Read words only until the passages are complete, or no further match is near.
        while let range = scanner.next() {
            let index = words.count
            words.append((range, WordScanner.isSpacelessWord(body[range]) ? 1 : 3))
            folded.append(fold(body[range]))
            if let last = passages.indices.last, passages[last].end == nil {
                passages[last].shown += words[index].weight
                if passages[last].shown >= passages[last].length { passages[last].end = index + 1 }
            }
            for pattern in patterns where pattern.matches(ending: index, in: folded) {
                let first = index - pattern.words.count + 1
                marked.formUnion(first...index)
                guard passages.count < maximumPassages, passages.last.map({ $0.end.map { first >= $0 } ?? false }) ?? true
                else { continue }
                let isFirst = passages.isEmpty
                var passage = Passage(
                    start: start(before: first, lead: isFirst ? lead : laterLead, notBefore: passages.last?.end ?? 0, words),
                    length: 3 * (isFirst ? length : laterLength), shown: 0)
                passage.shown = words[passage.start...index].reduce(0) { $0 + $1.weight }
                if passage.shown >= passage.length { passage.end = index + 1 }
                passages.append(passage)
            }
            if let last = passages.last, let end = last.end, passages.count == maximumPassages || index - end >= laterScan { break }
        }
        let hasMore = scanner.next() != nil
        guard !words.isEmpty else { return "" }
        if passages.isEmpty {
            var shown = 0
            let end = words.prefix { shown += $0.weight; return shown - $0.weight < 3 * length }.count
            passages = [Passage(start: 0, end: end, length: 3 * length, shown: shown)]
        }
        var text = passages[0].start > 0 ? "…" : ""
        var cursor = words[passages[0].start].range.lowerBound
        var end = passages[0].start
        for passage in passages {
            if passage.start > end {
                text += " … "
                cursor = words[passage.start].range.lowerBound
            }
            end = passage.end ?? words.count
            // Marked words that touch (the characters of `東京`) share one highlight.
            func touchesNext(_ index: Int) -> Bool {
                index + 1 < end && marked.contains(index + 1) && words[index].range.upperBound == words[index + 1].range.lowerBound
            }
            for index in passage.start..<end {
                text += body[cursor..<words[index].range.lowerBound]
                let isMarked = marked.contains(index)
                if isMarked, index == passage.start || !marked.contains(index - 1) || !touchesNext(index - 1) {
                    text += SearchHit.highlightStart
                }
                text += body[words[index].range]
                if isMarked, !touchesNext(index) { text += SearchHit.highlightEnd }
                cursor = words[index].range.upperBound
            }
        }
        text += end < words.count || hasMore ? "…" : body[cursor...].trimmingCharacters(in: .whitespacesAndNewlines)
        return text
    }

    /// The word a passage starts at: `lead` words' weight before `match`, not before `floor`.
    private static func start(
        before match: Int, lead: Int, notBefore floor: Int, _ words: [(range: Range<String.Index>, weight: Int)]
    ) -> Int {
        var start = match
        var leading = 0
        while start > floor, leading < 3 * lead {
            start -= 1
            leading += words[start].weight
        }
        return start
    }

    /// The passage of `body` around the first place it contains `text` (ASCII letters in any
    /// case), that place marked; the body's start when only the title contained it.
    static func around(_ text: String, in markdown: String) -> String {
        let body = SnippetText.plain(markdown)
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
        return snippet
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
