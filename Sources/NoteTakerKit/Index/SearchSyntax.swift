import Foundation

/// Turns what a user typed into a safe FTS5 query. Every word becomes a quoted FTS5 string,
/// so no user text is ever read as FTS5 syntax; only the forgiving syntax described in
/// ``SearchQuery`` is understood.
enum SearchSyntax {
    /// A word or phrase the user typed.
    struct Term: Equatable {
        var text: String
        var isPrefix = false
        var isExcluded = false
    }

    /// A search as parsed: groups of alternatives that must all match, and exclusions.
    struct Parsed {
        var groups: [[Term]] = []
        var excluded: [Term] = []

        /// The FTS5 expression, or `nil` when nothing searchable is left (for example only
        /// punctuation, emoji or exclusions).
        var expression: String? {
            guard !groups.isEmpty else { return nil }
            let positive = groups
                .map { group in "(" + group.map(SearchSyntax.quoted).joined(separator: " OR ") + ")" }
                .joined(separator: " AND ")
            return positive + excluded.map { " NOT " + SearchSyntax.quoted($0) }.joined()
        }

        /// The terms a snippet highlights: every term that can match.
        var highlights: [Term] { groups.flatMap { $0 } }
    }

    /// Parses what a user typed; with `prefixLastTerm` (search as you type), the last word
    /// is a prefix unless a space or a closing quote follows it.
    static func parse(_ text: String, prefixLastTerm: Bool) -> Parsed {
        var terms = split(text)
        if prefixLastTerm, let last = terms.indices.last, !text.hasSuffix(" "), !text.hasSuffix("\"") {
            terms[last].isPrefix = true
        }
        var parsed = Parsed()
        var joinNext = false
        for var term in terms {
            if term.text == "OR" && !term.isPrefix && !term.isExcluded {
                joinNext = !parsed.groups.isEmpty
                continue
            }
            term.text = cleaned(term.text)
            guard isSearchable(term.text) else { continue }
            if term.isExcluded {
                parsed.excluded.append(term)
            } else if joinNext, let last = parsed.groups.indices.last {
                parsed.groups[last].append(term)
            } else {
                parsed.groups.append([term])
            }
            joinNext = false
        }
        return parsed
    }

    /// Splits typed text into terms: white space separates, double quotes group a phrase
    /// (an unclosed quote runs to the end), a leading `-` excludes, a trailing `*` is a prefix.
    static func split(_ text: String) -> [Term] {
        var terms: [Term] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
                continue
            }
            var term = Term(text: "")
            if character == "-", text.index(after: index) < text.endIndex, !text[text.index(after: index)].isWhitespace {
                term.isExcluded = true
                index = text.index(after: index)
            }
            if text[index] == "\"" {
                let start = text.index(after: index)
                let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
                term.text = String(text[start..<end])
                index = end < text.endIndex ? text.index(after: end) : end
                if index < text.endIndex, text[index] == "*" {
                    term.isPrefix = true
                    index = text.index(after: index)
                }
            } else {
                let end = text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
                var word = Substring(text[index..<end])
                if word.hasSuffix("*") {
                    term.isPrefix = true
                    word = word.dropLast()
                }
                term.text = String(word)
                index = end
            }
            terms.append(term)
        }
        return terms
    }

    /// Whether FTS5's tokenizer would find a word in `text` (a letter or digit); a term of
    /// only punctuation or emoji would match nothing.
    static func isSearchable(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
    }

    /// The term's text without private-use characters: those mark the index's filter
    /// tokens (see `SearchFields`), and no search may reach them.
    static func cleaned(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .privateUse }))
    }

    /// The shortest prefix expanded: a one-letter prefix would match most of the
    /// vocabulary, so `s*` searches for the word `s` instead.
    static let minimumPrefixLength = 2

    /// The term as an FTS5 string (double quotes doubled), with ` *` for a prefix. A single
    /// character of a script written without spaces is a word of the index of its own (see
    /// `SearchTokenizer`), looked up whole.
    static func quoted(_ term: Term) -> String {
        let expands = term.isPrefix && term.text.count >= minimumPrefixLength
        return "\"" + term.text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (expands ? " *" : "")
    }
}
