import Foundation
import GRDB
import Synchronization
import Testing
@testable import NoteTakerKit

/// Search in scripts written without spaces between words (Chinese, Japanese, Korean, Thai…),
/// indexed as overlapping pairs of characters.
@Suite("Search without spaces")
struct SpacelessSearchTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
        try store.make("旅行", "東京タワーに行きました。夜景がきれいでした。")
        try store.make("Tokyo trip", "We went up 東京タワー at night")
        try store.make("京都", "京都の寺を見た")
        try store.make("中文笔记", "我们明天去北京开会")
        try store.make("한국어", "학교에서 공부했어요")
        try store.make("ไทย", "ภาษาไทยง่ายมาก")
        try store.make("हिन्दी", "हिन्दी भाषा सीखना")
    }

    @Test func aWordInsideARunIsFound() throws {
        #expect(Set(try store.searchTitles("東京")) == ["旅行", "Tokyo trip"])
        #expect(Set(try store.searchTitles("タワー")) == ["旅行", "Tokyo trip"])
        #expect(try store.searchTitles("夜景") == ["旅行"])
        #expect(try store.searchTitles("北京") == ["中文笔记"])
        #expect(try store.searchTitles("开会") == ["中文笔记"])
        #expect(try store.searchTitles("학교") == ["한국어"])
        #expect(try store.searchTitles("ไทย") == ["ไทย"])
        // Not every pair of characters: 京タ is there, タ京 is not.
        #expect(try store.searchTitles("タ京").isEmpty)
        #expect(try store.searchTitles("東京都").isEmpty)
    }

    @Test func oneCharacterIsFoundAnywhereInARun() throws {
        // 京 starts a pair in 京都 and 京タ, and ends the run in 北京.
        #expect(Set(try store.searchTitles("京")) == ["旅行", "Tokyo trip", "京都", "中文笔记"])
        // The last character of a run, and a run of one.
        #expect(try store.searchTitles("会") == ["中文笔记"])
        #expect(Set(try store.searchTitles("た")) == ["旅行", "京都"])
        // In the middle of a run, and typed as you go.
        #expect(Set(try store.searchTitles("ワ")) == ["旅行", "Tokyo trip"])
        #expect(Set(try store.search(SearchQuery("明", prefixLastTerm: true)).map(\.note.title)) == ["中文笔记"])
    }

    @Test func oneCharacterIsAWordOfTheIndexNotAPrefix() {
        // A prefix would walk every pair the character starts; the character alone is indexed.
        #expect(SearchSyntax.parse("京", prefixLastTerm: true).expression?.contains("*") == false)
        #expect(SearchSyntax.parse("東京", prefixLastTerm: true).expression?.contains("*") == true)
    }

    @Test func mixedQueriesAndPhrasesKeepTheirMeaning() throws {
        #expect(try store.searchTitles("東京 night") == ["Tokyo trip"])
        #expect(try store.searchTitles("\"東京タワー at night\"") == ["Tokyo trip"])
        #expect(try store.searchTitles("\"東京タワーに行きました\"") == ["旅行"])
        #expect(try store.searchTitles("\"タワー night\"").isEmpty)
        #expect(try store.searchTitles("東京 -night") == ["旅行"])
    }

    @Test func searchAsYouTypeExpandsTheLastCharacters() throws {
        #expect(Set(try store.search(SearchQuery("東京タ", prefixLastTerm: true)).map(\.note.title)) == ["旅行", "Tokyo trip"])
    }

    @Test func titleMatchesRankFirst() throws {
        try store.make("メモ", "京都に行きたい")
        #expect(try store.searchTitles("京都").first == "京都")
    }

    @Test func theSnippetMarksTheMatchedCharacters() throws {
        let hit = try #require(try store.search(SearchQuery("夜景")).first)
        #expect(hit.snippet(open: "[", close: "]").contains("[夜景]がきれいでした"))
        let one = try #require(try store.search(SearchQuery("北")).first)
        #expect(one.snippet(open: "[", close: "]").contains("去[北]京"))
    }

    @Test func scriptsWithCombiningMarksAreWholeWords() throws {
        // unicode61 alone cuts Devanagari at every vowel sign: "हिन्दी" was never found.
        #expect(try store.searchTitles("हिन्दी") == ["हिन्दी"])
        #expect(try store.searchTitles("भाषा") == ["हिन्दी"])
    }

    @Test func latinTextIsIndexedAsBefore() throws {
        try store.make("Café", "iPhone版の説明 naïve")
        #expect(try store.searchTitles("iphone") == ["Café"])
        #expect(try store.searchTitles("説明") == ["Café"])
        #expect(try store.searchTitles("naive") == ["Café"])
    }

    @Test func theIndexStaysConsistentThroughEditsAndDeletes() throws {
        let note = try store.make("日記", "今日は雨でした")
        _ = try store.updateNote(id: note.id, body: "今日は晴れでした")
        #expect(try store.searchTitles("雨").isEmpty)
        #expect(try store.searchTitles("晴れ") == ["日記"])
        try store.write { db in
            try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
        }
    }
}

/// An upgraded store is re-indexed once, with progress, while other connections still search.
@Suite("Search index upgrade")
struct SearchReindexTests {
    @Test func anOlderStoreIsReindexedWithProgressAndStillAnswersMeanwhile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        let count = 25_000
        do {
            let pool = try DatabasePool(path: url.path, configuration: NoteStore.configuration())
            try NoteStore.migrator.migrate(pool, upTo: "v12-note-links")
            try pool.write { db in
                let insert = try db.makeStatement(sql: """
                    INSERT INTO note (id, title, body, createdAt, modifiedAt, searchSeq) VALUES (?, ?, ?, 0, 0, ?)
                    """)
                for index in 1...count {
                    try insert.execute(arguments: [UUID().uuidString.lowercased(), "Note \(index)", "tokyo 東京タワー \(index)", index])
                }
                try db.execute(sql: "INSERT INTO note_fts(note_fts) VALUES ('rebuild')")
            }
        }
        let other = try DatabasePool(path: url.path, configuration: NoteStore.configuration())
        let reports = Mutex<[Int]>([])
        let meanwhile = Mutex<[Int]>([])
        let store = try NoteStore.open(at: url) { done, total in
            #expect(total == count)
            reports.withLock { $0.append(done) }
            // Another connection still searches the old index.
            let found = (try? other.read { db in try NoteStore.search(db, SearchQuery("tokyo", limit: 5)) })?.count ?? -1
            meanwhile.withLock { $0.append(found) }
        }
        #expect(reports.withLock { $0 } == [0, 10_000, 20_000, 25_000])
        #expect(meanwhile.withLock { $0 }.allSatisfy { $0 == 5 })
        #expect(try store.search(SearchQuery("東京", limit: 500)).count == 500)
        #expect(try store.searchTitles("Note 24999") == ["Note 24999"])
        #expect(try store.search(SearchQuery("ワ", limit: 500)).count == 500)
        // Opened again, nothing is re-indexed.
        _ = try NoteStore.open(at: url) { _, _ in Issue.record("re-indexed twice") }
    }
}

/// Finding text inside words, as a filter beside word search.
@Suite("Substring search")
struct SubstringSearchTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    func titles(_ text: String, tag: String? = nil, folder: UUID? = nil, trash: Bool = false) throws -> [String] {
        try store.search(SearchQuery(text, tag: tag, folderId: folder, inTrash: trash, matchesSubstring: true)).map(\.note.title)
    }

    @Test func findsTextInsideWordsInTitlesAndBodies() throws {
        try store.make("Morning", "A cup of Coffee first")
        try store.make("Toffee recipe", "butter and sugar")
        try store.make("Tea", "green")
        #expect(try store.searchTitles("ffee").isEmpty)
        #expect(Set(try titles("ffee")) == ["Morning", "Toffee recipe"])
        #expect(try titles("COFF") == ["Morning"])
        #expect(try titles("of c") == ["Morning"])
        let hit = try #require(try store.search(SearchQuery("ffee", matchesSubstring: true)).first { $0.note.title == "Morning" })
        #expect(hit.snippet(open: "[", close: "]") == "A cup of Co[ffee] first")
    }

    @Test func newestFirstWithFilters() throws {
        let work = try store.createFolder(name: "Work")
        let older = try store.make("Older", "invoice 2026-001", tags: ["Billing"], folder: work.id)
        try store.make("Newer", "invoice 2026-002")
        #expect(try titles("2026-00") == ["Newer", "Older"])
        #expect(try titles("2026-00", tag: "billing") == ["Older"])
        #expect(try titles("2026-00", folder: work.id) == ["Older"])
        _ = try store.trashNotes(ids: [older.id])
        #expect(try titles("2026-00") == ["Newer"])
        #expect(try titles("2026-00", trash: true) == ["Older"])
    }

    @Test func wildcardsAreText() throws {
        try store.make("Percent", "100% rye")
        try store.make("Underscore", "snake_case names")
        try store.make("Other", "1000 rye, snakeXcase")
        #expect(try titles("0% r") == ["Percent"])
        #expect(try titles("e_c") == ["Underscore"])
        #expect(try titles(#"\"#).isEmpty)
        #expect(try titles("   ").isEmpty)
        #expect(try titles("京").isEmpty)
    }

    @Test("the quick answer for marks agrees with Unicode's general category for every scalar")
    func marksAgreeWithUnicode() {
        for value in UInt32(0)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
            if SpacelessScripts.isMark(scalar) != expected {
                Issue.record("U+\(String(value, radix: 16, uppercase: true)): isMark says \(!expected)")
                return
            }
        }
    }
}
