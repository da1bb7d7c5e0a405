import Foundation
import GRDB

/// Full-text search over titles, bodies and tag names, ranked, with highlighted snippets.
///
/// ## What the ranking promises
/// Results are ordered by bm25 relevance, a title match weighing ten times a body match and
/// a tag match five times. When a query matches more than ``rankedCandidateLimit`` notes
/// (a word found in nearly every note), the candidates ranked are the
/// ``rankedCandidateLimit`` most recently edited matches plus the
/// ``rankedCandidateLimit`` most recently edited notes matching in their title; older
/// body-only matches are left out. This bounds the work of any search, whatever the size
/// of the store.
extension NoteStore {
    /// How many matches a search ranks at most, per pass (see the ranking promise above).
    public static let rankedCandidateLimit = 2_000

    /// The notes matching a search, best first, each with a highlighted snippet.
    ///
    /// Any text is safe: text with no searchable word gives an empty list, never an error.
    public func search(_ query: SearchQuery) throws(NoteTakerError) -> [SearchHit] {
        try read { db in try Self.search(db, query) }
    }

    static func search(_ db: Database, _ query: SearchQuery) throws -> [SearchHit] {
        guard query.text.count <= SearchQuery.maximumLength else {
            throw NoteTakerError.invalidInput("A search can be at most \(SearchQuery.maximumLength) characters long.")
        }
        guard (1...maximumPageSize).contains(query.limit) else {
            throw NoteTakerError.invalidInput("The number of results must be between 1 and \(maximumPageSize); got \(query.limit).")
        }
        guard let words = SearchSyntax.expression(for: query.text, prefixLastTerm: query.prefixLastTerm) else {
            return []
        }
        let filters = try facetFilter(db, query)
        let match = "{title body tagNames} : (\(words))" + filters
        var scores = try rank(db, match: match, limit: query.limit)
        if let bound = scores.bound {
            let titleMatch = "{title} : (\(words))" + filters
            let older = try rank(db, match: titleMatch, below: bound, limit: query.limit)
            scores.hits = Array((scores.hits + older.hits).sorted { $0.score < $1.score }.prefix(query.limit))
        }
        guard !scores.hits.isEmpty else { return [] }

        let seqList = "[" + scores.hits.map { String($0.seq) }.joined(separator: ",") + "]"
        let snippets = try Dictionary(
            Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, snippet(note_fts, 1, char(2), char(3), '…', 16) AS snippet FROM note_fts
                    WHERE note_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))
                    """,
                arguments: [match, seqList]
            ).map { ($0["rowid"] as Int64, $0["snippet"] as String) },
            uniquingKeysWith: { first, _ in first })
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT \(Columns.note), note.searchSeq FROM note WHERE searchSeq IN (SELECT value FROM json_each(?))",
            arguments: [seqList])
        var notes = rows.map(Note.init(row:))
        try fillAttachments(db, &notes)
        let noteBySeq = Dictionary(
            zip(rows.map { $0["searchSeq"] as Int64 }, notes), uniquingKeysWith: { first, _ in first })
        return scores.hits.compactMap { hit in
            noteBySeq[hit.seq].map { SearchHit(note: $0, snippet: snippets[hit.seq] ?? "", rank: -hit.score) }
        }
    }

    /// The best `limit` matches of `match` by bm25 (lower is better), looking at no more
    /// than ``rankedCandidateLimit`` of the newest matches (below `below`, when given).
    /// `bound` is the oldest search sequence looked at, when the cap cut the matches short.
    private static func rank(_ db: Database, match: String, below: Int64? = nil, limit: Int) throws
        -> (hits: [(seq: Int64, score: Double)], bound: Int64?)
    {
        let ceiling = below ?? Int64.max
        let bound = try Int64.fetchOne(
            db,
            sql: """
                SELECT rowid FROM note_fts WHERE note_fts MATCH ? AND rowid < ?
                ORDER BY rowid DESC LIMIT 1 OFFSET ?
                """,
            arguments: [match, ceiling, rankedCandidateLimit - 1])
        let hits = try Row.fetchAll(
            db,
            sql: """
                SELECT rowid, bm25(note_fts, \(SearchIndexSchema.rankWeights)) AS score FROM note_fts
                WHERE note_fts MATCH ? AND rowid >= ? AND rowid < ?
                ORDER BY score LIMIT ?
                """,
            arguments: [match, bound ?? Int64.min, ceiling, limit]
        ).map { (seq: $0["rowid"] as Int64, score: $0["score"] as Double) }
        return (hits, bound)
    }

    /// The FTS5 clauses for the search's filters, on the hidden `facets` column.
    private static func facetFilter(_ db: Database, _ query: SearchQuery) throws -> String {
        var clauses = [query.inTrash ? " AND {facets} : \"trashed\"" : " NOT {facets} : \"trashed\""]
        if let tag = query.tag {
            clauses.append(" AND {facets} : \"\(SearchFields.tagFacet(try fetchTag(db, named: tag).id.key))\"")
        }
        if let folderId = query.folderId {
            _ = try fetchFolder(db, id: folderId.key)
            clauses.append(" AND {facets} : \"\(SearchFields.folderFacet(folderId.key))\"")
        }
        if query.pinnedOnly {
            clauses.append(" AND {facets} : \"pinned\"")
        }
        // NOT binds to what precedes it, so the exclusion goes last.
        return clauses.dropFirst().joined() + clauses[0]
    }
}
