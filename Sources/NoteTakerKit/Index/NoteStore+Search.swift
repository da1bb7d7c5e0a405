import Foundation
import GRDB

/// Full-text search over titles, bodies and tag names, ranked, with highlighted snippets.
///
/// ## What the ranking promises
/// Results are ordered by relevance (``SearchRank``: BM25's term frequencies, a title match
/// weighing ten times a body match and a tag match five times). Matches are ranked within a
/// window of the most recently edited notes: the newest ``firstSearchWindow`` notes, widened
/// as far back as it takes to hold as many matches as were asked for. When that window stops
/// short of the oldest notes, notes matching in their *title* among the ``titleSearchSpan``
/// notes edited before it are ranked with the rest. So a rare word is found wherever it is,
/// and a word in nearly every note costs no more than ranking one small window.
extension NoteStore {
    /// How many of the most recently edited notes a search ranks at least.
    public static let firstSearchWindow: Int64 = 500
    /// How far back, beyond the ranked window, title matches are looked for.
    public static let titleSearchSpan: Int64 = 20_000

    /// The notes matching a search, best first, each with a highlighted snippet.
    ///
    /// Any text is safe: text with no searchable word gives an empty list, never an error.
    public func search(_ query: SearchQuery) throws(NoteTakerError) -> [SearchHit] {
        try read { db in try Self.search(db, query) }
    }

    static func search(_ db: Database, _ query: SearchQuery) throws -> [SearchHit] {
        guard query.text.count <= SearchQuery.maximumLength else {
            throw NoteTakerError.invalidInput(Wording("searchTooLong", ["maximum": SearchQuery.maximumLength]))
        }
        guard (1...maximumPageSize).contains(query.limit) else {
            throw NoteTakerError.invalidInput(Wording("resultLimitOutOfRange", ["maximum": maximumPageSize, "given": query.limit]))
        }
        if query.matchesSubstring { return try searchSubstring(db, query) }
        let parsed = SearchSyntax.parse(query.text, prefixLastTerm: query.prefixLastTerm)
        guard let words = parsed.expression else { return [] }
        let filters = try facetFilter(db, query)
        let match = "(\(words))" + filters
        let newest = try SearchIndexSchema.lastSearchSeq(db)
        var scores = try rankNewest(db, match: match, below: newest + 1, width: firstSearchWindow, span: nil, limit: query.limit)
        if scores.floor > 0 {
            let titles = try rankNewest(
                db, match: "{title} : (\(words))" + filters, below: scores.floor + 1, width: 0, span: titleSearchSpan,
                limit: query.limit)
            scores.hits = Array((scores.hits + titles.hits).sorted { $0.score > $1.score }.prefix(query.limit))
        }
        guard !scores.hits.isEmpty else { return [] }

        let rows = try Row.fetchAll(
            db,
            sql: "SELECT \(Columns.note), note.searchSeq FROM note WHERE searchSeq IN (SELECT value FROM json_each(?))",
            arguments: ["[" + scores.hits.map { String($0.seq) }.joined(separator: ",") + "]"])
        var notes = rows.map(Note.init(row:))
        try fillAttachments(db, &notes)
        let noteBySeq = Dictionary(
            zip(rows.map { $0["searchSeq"] as Int64 }, notes), uniquingKeysWith: { first, _ in first })
        return scores.hits.compactMap { hit in
            noteBySeq[hit.seq].map { note in
                SearchHit(note: note, snippet: Snippet.make(body: note.body, highlights: parsed.highlights), rank: hit.score)
            }
        }
    }

    /// The best `limit` matches of `match` by relevance (``SearchRank``) among the notes whose
    /// search sequence is below `ceiling` (and within `span` of it, when given): ranked in the
    /// window of the newest `width` notes, widened back to the `limit`-th newest match.
    /// `floor` is the sequence the window starts above (0 when it reached the oldest note).
    private static func rankNewest(
        _ db: Database, match: String, below ceiling: Int64, width: Int64, span: Int64?, limit: Int
    ) throws -> (hits: [(seq: Int64, score: Double)], floor: Int64) {
        let lowest = span.map { max(ceiling - $0, 0) } ?? 0
        // Walking the newest matches is cheap: it stops at the `limit`-th.
        let last = try Int64.fetchOne(
            db.cachedStatement(sql: """
                SELECT rowid FROM note_fts WHERE note_fts MATCH ? AND rowid > ? AND rowid < ?
                ORDER BY rowid DESC LIMIT 1 OFFSET ?
                """),
            arguments: [match, lowest, ceiling, limit - 1])
        let floor = last.map { max(min($0 - 1, ceiling - width), lowest) } ?? lowest
        let hits = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT rowid, \(SearchRank.name)(note_fts) AS score FROM note_fts
                WHERE note_fts MATCH ? AND rowid > ? AND rowid < ?
                ORDER BY score DESC LIMIT ?
                """),
            arguments: [match, floor, ceiling, limit]
        ).map { (seq: $0[0] as Int64, score: $0[1] as Double) }
        return (hits, floor)
    }

    /// The FTS5 clauses for the search's filters, on the hidden `facets` column.
    private static func facetFilter(_ db: Database, _ query: SearchQuery) throws -> String {
        var clauses = [(query.inTrash ? " AND " : " NOT ") + quoted(SearchFields.trashedFacet)]
        if let tag = query.tag {
            clauses.append(" AND " + quoted(SearchFields.tagFacet(try fetchTag(db, named: tag).id.key)))
        }
        if let folderId = query.folderId {
            _ = try fetchFolder(db, id: folderId.key)
            clauses.append(" AND " + quoted(SearchFields.folderFacet(folderId.key)))
        }
        if query.pinnedOnly {
            clauses.append(" AND " + quoted(SearchFields.pinnedFacet))
        }
        // NOT binds to what precedes it, so the exclusion goes last.
        return clauses.dropFirst().joined() + clauses[0]
    }

    private static func quoted(_ token: String) -> String { "\"" + token + "\"" }
}
