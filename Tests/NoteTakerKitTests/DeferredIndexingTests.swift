import Foundation
import GRDB
import Testing
@testable import NoteTakerKit

@Suite("Deferred search indexing")
struct DeferredIndexingTests {
    @Test func notesImportedForLaterAreListedThenFoundOnceIndexed() throws {
        let store = try NoteStore.inMemory()
        let first = try store.importNotes((0..<30).map { NoteDraft(title: "first \($0)", body: "quokka") }, indexing: .deferred)
        let second = try store.importNotes((0..<20).map { NoteDraft(title: "second \($0)", body: "quokka") }, indexing: .deferred)
        #expect(first.imported.count == 30 && second.imported.count == 20)
        #expect(try store.notes(NoteQuery(limit: 100)).count == 50)
        #expect(try store.searchTitles("quokka").isEmpty)

        let reports = Reports()
        try store.indexPendingNotes { done, total in reports.append(done, total) }
        #expect(reports.all.first == Reports.Pair(0, 50))
        #expect(reports.all.last == Reports.Pair(50, 50))
        #expect(try store.search(SearchQuery("quokka", limit: 100)).count == 50)
        try expectIndexIntact(store)
        // Nothing is left to do.
        try store.indexPendingNotes { done, total in reports.append(done, total) }
        #expect(reports.all.count == 2)
    }

    @Test func editingOrDeletingANoteNotYetIndexedKeepsTheIndexWhole() throws {
        let store = try NoteStore.inMemory()
        let indexed = try store.make("Indexed", "wombat")
        let ids = try store.importNotes([
            NoteDraft(title: "Edited", body: "old words"),
            NoteDraft(title: "Deleted", body: "wombat"),
            NoteDraft(title: "Tagged", body: "numbat"),
            NoteDraft(title: "Untouched", body: "numbat"),
        ], indexing: .deferred).imported
        _ = try store.updateNote(id: ids[0], body: "new words")
        // Still waiting for the pass, with its new text.
        #expect(try store.searchTitles("new").isEmpty)
        #expect(try store.read { db in try PendingSearchIndex.count(db) } == 4)
        _ = try store.trashNotes(ids: [ids[1]])
        _ = try store.purgeNotes(ids: [ids[1]])
        _ = try store.addTags(["marsupial"], toNote: ids[2])
        _ = try store.updateNote(id: indexed.id, body: "wombat again")

        try store.indexPendingNotes()
        #expect(try store.searchTitles("old").isEmpty)
        #expect(try store.searchTitles("new") == ["Edited"])
        #expect(try store.searchTitles("wombat") == ["Indexed"])
        #expect(Set(try store.searchTitles("numbat")) == ["Tagged", "Untouched"])
        #expect(try store.searchTitles("numbat", tag: "marsupial") == ["Tagged"])
        try expectIndexIntact(store)
    }

    @Test func aStoreLeftWithNotesNotIndexedIndexesThemWhenOpened() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try makeDiskStore(in: directory)
            // An import that stopped before its end: the rows are in, the index pass never ran.
            _ = try store.importNotes((0..<10).map { NoteDraft(title: "left \($0)", body: "bilby") }, indexing: .deferred)
            #expect(try store.searchTitles("bilby").isEmpty)
        }
        let reopened = try makeDiskStore(in: directory)
        #expect(try reopened.search(SearchQuery("bilby", limit: 50)).count == 10)
        try expectIndexIntact(reopened)
    }

    private func expectIndexIntact(_ store: NoteStore) throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_fts_pending") == 0)
        }
    }
}

/// Progress reports, collected from the callback.
private final class Reports: @unchecked Sendable {
    struct Pair: Equatable {
        var done: Int
        var total: Int
        init(_ done: Int, _ total: Int) { self.done = done; self.total = total }
    }

    private let lock = NSLock()
    private var pairs: [Pair] = []

    func append(_ done: Int, _ total: Int) { lock.withLock { pairs.append(Pair(done, total)) } }
    var all: [Pair] { lock.withLock { pairs } }
}
