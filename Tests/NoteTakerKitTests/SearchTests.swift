import GRDB
import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Search")
struct SearchTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func ignoresAccentsAndCase() throws {
        try store.make("Café society", "A naïve résumé")
        #expect(try store.searchTitles("cafe") == ["Café society"])
        #expect(try store.searchTitles("NAIVE") == ["Café society"])
        #expect(try store.searchTitles("Resume") == ["Café society"])
        #expect(try store.searchTitles("CAFÉ") == ["Café society"])
    }

    @Test func ranksTitleMatchesAboveBodyMatches() throws {
        try store.make("Shopping", "remember the garden hose")
        try store.make("Garden", "plant tomatoes")
        try store.make("Misc", "nothing here")
        #expect(try store.searchTitles("garden") == ["Garden", "Shopping"])
    }

    @Test func findsTagNames() throws {
        try store.make("Quarterly", "numbers", tags: ["Finance"])
        #expect(try store.searchTitles("finance") == ["Quarterly"])
    }

    @Test func highlightsASnippet() throws {
        try store.make("Trip", "We drove along the coast and stopped at a lighthouse near the cliffs.")
        let hit = try #require(try store.search(SearchQuery("lighthouse")).first)
        #expect(hit.snippet(open: "[", close: "]").contains("[lighthouse]"))
        #expect(hit.rank > 0)
    }

    @Test func prefixesPhrasesExclusionsAndOr() throws {
        try store.make("A", "the quick brown fox")
        try store.make("B", "brown quick dogs")
        try store.make("C", "slow green turtle")
        #expect(Set(try store.searchTitles("qui*")) == ["A", "B"])
        #expect(try store.searchTitles("\"quick brown\"") == ["A"])
        #expect(try store.searchTitles("quick -fox") == ["B"])
        #expect(Set(try store.searchTitles("fox OR turtle")) == ["A", "C"])
        #expect(try store.search(SearchQuery("tur", prefixLastTerm: true)).map(\.note.title) == ["C"])
        #expect(try store.search(SearchQuery("tur ", prefixLastTerm: true)).isEmpty)
        // One letter is too short to expand: it is searched as a word.
        #expect(try store.search(SearchQuery("q", prefixLastTerm: true)).isEmpty)
    }

    @Test func filtersByTagFolderAndPinned() throws {
        let work = try store.createFolder(name: "Work")
        let sub = try store.createFolder(name: "Sub", parentId: work.id)
        try store.make("w", "report", folder: work.id)
        try store.make("s", "report", tags: ["Q3"], folder: sub.id)
        try store.make("p", "report", pinned: true)
        try store.make("x", "report")
        #expect(Set(try store.searchTitles("report", folder: work.id)) == ["w", "s"])
        #expect(try store.searchTitles("report", folder: sub.id) == ["s"])
        #expect(try store.searchTitles("report", tag: "q3") == ["s"])
        #expect(try store.searchTitles("report", pinned: true) == ["p"])
        #expect(try store.searchTitles("report", tag: "Q3", folder: work.id) == ["s"])
        #expect(throws: NoteTakerError.tagNotFound("nope")) { try store.searchTitles("report", tag: "nope") }
    }

    @Test(arguments: [
        "\"unbalanced", "a AND", "OR", "NOT x", "NEAR(a b)", "*", "-", "^start", "(((", ")", "col:umn", "title:x",
        "{title}: x", "a\"b", "\"\"", "'; DROP TABLE note; --", "😀", "🎉 party", "中文", "日本語のノート", "---", "a - b",
        "x* *", "\\", "%", "_", "NEAR", "AND OR NOT", "\u{0}", "   ", "",
    ])
    func anyTextIsSafe(_ text: String) throws {
        try store.make("Party plans", "a b x start column party 中文 日本語のノート")
        let results = try store.search(SearchQuery(text))
        #expect(results.count <= 1)
        _ = try store.search(SearchQuery(text, prefixLastTerm: true))
    }

    @Test func filterTokensCannotBeSearched() throws {
        let note = try store.make("Plain", "nothing special", tags: ["Secret"], pinned: true)
        try store.trashNotes(ids: [try store.make("Gone").id])
        for text in ["pinned", "trashed", "\u{E000}pinned", "\u{E000}trashed", SearchFields.tagFacet(Tag.id(forName: "secret").key)] {
            #expect(try store.search(SearchQuery(text)).isEmpty, "\(text.unicodeScalars.map(\.value))")
        }
        #expect(try store.searchTitles("secret") == [note.title])
    }

    @Test func cjkAndEmojiGiveResultsOrNothing() throws {
        try store.make("中文", "日本語のノート 🎉")
        #expect(try store.searchTitles("中文") == ["中文"])
        #expect(try store.searchTitles("🎉").isEmpty)
    }

    @Test func badLimitsAndHugeQueriesAreClearErrors() throws {
        #expect(throws: NoteTakerError.self) { try store.search(SearchQuery("x", limit: 0)) }
        #expect(throws: NoteTakerError.self) { try store.search(SearchQuery(String(repeating: "a ", count: 600))) }
    }

    @Test func theIndexFollowsEditsAndDeletes() throws {
        let note = try store.make("Before", "original words")
        _ = try store.updateNote(id: note.id, title: "After", body: "replacement text")
        #expect(try store.searchTitles("original").isEmpty)
        #expect(try store.searchTitles("before").isEmpty)
        #expect(try store.searchTitles("replacement") == ["After"])
        try store.trashNotes(ids: [note.id])
        try store.purgeNotes(ids: [note.id])
        #expect(try store.searchTitles("replacement").isEmpty)
        try store.write { db in
            try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func ranksTheNewestWindowOfAVeryCommonWordAndOlderTitleMatches() throws {
        let oldest = try store.importNotes([
            NoteDraft(title: "common", body: "the oldest note, with a rare word: zyzzyva"),
            NoteDraft(title: "old", body: "an old body match of common"),
        ]).imported
        let count = Int(NoteStore.firstSearchWindow) * 2
        _ = try store.importNotes((0..<count).map { NoteDraft(title: "n\($0)", body: "common word \($0)") })

        let hits = try store.search(SearchQuery("common", limit: 50))
        #expect(hits.count == 50)
        // The old title match is ranked though it is older than the window; the old body
        // match is not.
        #expect(hits.first?.note.id == oldest[0])
        #expect(!hits.contains { $0.note.id == oldest[1] })
        // A rare word is found however old its note is.
        #expect(try store.searchTitles("zyzzyva") == ["common"])
        // Asked for more than the window holds, the window widens to every note.
        #expect(try store.search(SearchQuery("common", limit: 1_000)).count == 1_000)
        #expect(try store.search(SearchQuery("word", limit: 1_000)).count == 1_000)
    }
}

@Suite("Search fields")
struct SearchFieldsTests {
    @Test func insertAndRefreshComputeTheSameFields() throws {
        let store = try NoteStore.inMemory()
        let top = try store.createFolder(name: "Top")
        let child = try store.createFolder(name: "Child", parentId: top.id)
        let note = try store.make("n", tags: ["beta", "Alpha"], folder: child.id, pinned: true)
        let read = { try store.read { db in try Row.fetchOne(db, sql: "SELECT tagNames, facets FROM note WHERE id = ?", arguments: [note.id.key]) } }
        let inserted = try #require(try read())
        #expect(inserted["tagNames"] as String == "Alpha\nbeta")
        let facets = (inserted["facets"] as String).split(separator: " ").map(String.init)
        #expect(facets.first == SearchFields.pinnedFacet)
        #expect(facets.contains(SearchFields.folderFacet(top.id.key)))
        #expect(facets.contains(SearchFields.folderFacet(child.id.key)))
        #expect(facets.contains(SearchFields.tagFacet(Tag.id(forName: "alpha").key)))
        try store.write { db in
            try db.execute(sql: "UPDATE note SET tagNames = '', facets = '' WHERE id = ?", arguments: [note.id.key])
            try SearchFields.refresh(db, noteIds: [note.id.key])
        }
        #expect(try read() == inserted)
    }
}
