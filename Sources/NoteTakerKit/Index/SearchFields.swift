import Foundation
import GRDB

/// The two derived columns of a note that feed the search index: `tagNames` (its tag
/// names, one per line, in name order) and `facets` (filter tokens: `pinned`, `trashed`,
/// `t<tag id hex>` per tag, `f<folder id hex>` for its folder and each ancestor, so that a
/// folder filter includes subfolders).
///
/// Each facet token starts with U+E000, a private-use character that search text never
/// contains, so no word a user types can match a filter token and queries need no
/// column filter (which would make FTS5 decode positions for every candidate).
///
/// They are computed here, in one place, both when a note is inserted and when a change
/// elsewhere (a tag renamed, a folder moved, a note trashed) makes them stale.
struct SearchFields: Equatable {
    var tagNames: String
    var facets: String

    init(isPinned: Bool, isTrashed: Bool, tags: [Tag], folderChain: [String]) {
        let sorted = tags.map { (Tag.normalizedName($0.name), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        tagNames = sorted.map(\.name).joined(separator: "\n")
        var tokens: [String] = []
        if isPinned { tokens.append(Self.pinnedFacet) }
        if isTrashed { tokens.append(Self.trashedFacet) }
        tokens += sorted.map { Self.tagFacet($0.id.key) }
        tokens += folderChain.map(Self.folderFacet)
        facets = tokens.joined(separator: " ")
    }

    /// The mark that starts every facet token.
    static let facetMark = "\u{E000}"
    /// The facet token of pinned notes.
    static let pinnedFacet = facetMark + "pinned"
    /// The facet token of notes in the trash.
    static let trashedFacet = facetMark + "trashed"

    /// The facet token that selects notes carrying a tag.
    static func tagFacet(_ tagId: String) -> String { facetMark + "t" + withoutDashes(tagId) }

    /// The facet token that selects notes in a folder or any of its subfolders.
    static func folderFacet(_ folderId: String) -> String { facetMark + "f" + withoutDashes(folderId) }

    /// An id's hex digits (Foundation's `replacingOccurrences` costs more than a note insert's SQL).
    private static func withoutDashes(_ id: String) -> String {
        String(decoding: id.utf8.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self)
    }

    /// A folder and its ancestors, nearest first. `UNION` ends even on a cycle that sync
    /// might have created.
    static func folderChain(_ db: Database, _ folderId: String?) throws -> [String] {
        guard let folderId else { return [] }
        return try String.fetchAll(db.cachedStatement(sql: """
            WITH RECURSIVE chain(id) AS (
                SELECT ? UNION SELECT folder.parentId FROM folder JOIN chain ON folder.id = chain.id
                WHERE folder.parentId IS NOT NULL)
            SELECT id FROM chain
            """), arguments: [folderId])
    }

    /// Recomputes the fields of these notes and stores those that changed; the update
    /// trigger then reindexes them. With `touchedAt`, the notes are also marked as modified
    /// then (and newest in the index) in the same statement, so each is reindexed once.
    static func refresh(_ db: Database, noteIds: [String], touchedAt: Date? = nil) throws {
        var chains: [String: [String]] = [:]
        let select = try db.cachedStatement(sql: "SELECT isPinned, trashedAt, folderId, tagNames, facets FROM note WHERE id = ?")
        let selectTags = try db.cachedStatement(sql: """
            SELECT \(Columns.tag) FROM noteTag JOIN tag ON tag.id = noteTag.tagId WHERE noteTag.noteId = ?
            """)
        let update = try db.cachedStatement(sql: "UPDATE note SET tagNames = ?, facets = ? WHERE id = ?")
        let touch = try db.cachedStatement(sql: "UPDATE note SET tagNames = ?, facets = ?, \(RecordWriter.touch) WHERE id = ?")
        for id in noteIds {
            guard let row = try Row.fetchOne(select, arguments: [id]) else { continue }
            let folderId: String? = row[2]
            let chain = try folderId.map { folder in
                try chains[folder] ?? { let chain = try folderChain(db, folder); chains[folder] = chain; return chain }()
            } ?? []
            let fields = SearchFields(
                isPinned: row[0], isTrashed: row[1] as Double? != nil,
                tags: try Row.fetchAll(selectTags, arguments: [id]).map(Tag.init(row:)), folderChain: chain)
            if let touchedAt {
                try touch.execute(arguments: [fields.tagNames, fields.facets, touchedAt.storageValue, id])
            } else if fields != SearchFields(tagNames: row[3], facets: row[4]) {
                try update.execute(arguments: [fields.tagNames, fields.facets, id])
            }
        }
    }

    private init(tagNames: String, facets: String) {
        self.tagNames = tagNames
        self.facets = facets
    }
}
