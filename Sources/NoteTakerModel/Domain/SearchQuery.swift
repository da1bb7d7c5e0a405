import Foundation

/// A full-text search: the words typed, and filters.
///
/// The syntax is forgiving, as in a search box: words must all match (accents and case
/// ignored), `"quoted words"` match as a phrase, `word*` matches words starting with
/// `word`, `-word` excludes, and `OR` between two words accepts either. Anything else —
/// stray quotes, operators, brackets, colons — is taken as text, never as an error.
public struct SearchQuery: Sendable, Hashable {
    /// The longest search text accepted, in characters.
    public static let maximumLength = 1_000

    /// What the user typed.
    public var text: String
    /// Only notes with this tag.
    public var tag: String?
    /// Only notes in this folder or its subfolders.
    public var folderId: UUID?
    /// Only pinned notes.
    public var pinnedOnly: Bool
    /// Search the trash instead of the notes outside it.
    public var inTrash: Bool
    /// Treat the last word as a prefix, for search-as-you-type.
    public var prefixLastTerm: Bool
    /// The most hits returned.
    public var limit: Int
    /// Find `text` as written inside titles and bodies (`ffee` finds `coffee`; ASCII letters
    /// in any case), most recently modified first, instead of searching for words. Slower
    /// than a word search, which uses the index: a filter to reach for, not the default.
    public var matchesSubstring: Bool

    /// Creates a search.
    public init(
        _ text: String,
        tag: String? = nil,
        folderId: UUID? = nil,
        pinnedOnly: Bool = false,
        inTrash: Bool = false,
        prefixLastTerm: Bool = false,
        limit: Int = 50,
        matchesSubstring: Bool = false
    ) {
        self.text = text
        self.tag = tag
        self.folderId = folderId
        self.pinnedOnly = pinnedOnly
        self.inTrash = inTrash
        self.prefixLastTerm = prefixLastTerm
        self.limit = limit
        self.matchesSubstring = matchesSubstring
    }
}

/// A note found by a search, with the passage that matched.
public struct SearchHit: Sendable, Hashable {
    /// Marks the start of a matched word in ``snippet`` (U+0002, never typed text).
    public static let highlightStart = "\u{2}"
    /// Marks the end of a matched word in ``snippet`` (U+0003).
    public static let highlightEnd = "\u{3}"

    /// The note.
    public var note: Note
    /// A short passage of the body around the matches, matched words between
    /// ``highlightStart`` and ``highlightEnd``; see ``snippet(open:close:)``.
    public var snippet: String
    /// Relevance: higher is better (BM25 term frequencies, title matches weighted above body matches).
    public var rank: Double

    /// Creates a hit.
    public init(note: Note, snippet: String, rank: Double) {
        self.note = note
        self.snippet = snippet
        self.rank = rank
    }

    /// The snippet with each matched word between `open` and `close`, for example `[` and `]`.
    public func snippet(open: String, close: String) -> String {
        snippet
            .replacingOccurrences(of: Self.highlightStart, with: open)
            .replacingOccurrences(of: Self.highlightEnd, with: close)
    }
}
