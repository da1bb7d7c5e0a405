import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Bulk import")
struct BulkImportTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func importsABatchSearchableAtOnce() throws {
        let folder = try store.createFolder(name: "Archive")
        let created = Date(timeIntervalSince1970: 1_600_000_000)
        let drafts = (0..<300).map { index in
            NoteDraft(title: "Imported \(index)", body: "zebra \(index)", folderId: index.isMultiple(of: 2) ? folder.id : nil,
                      tags: index.isMultiple(of: 3) ? ["Old", "old"] : [], createdAt: created)
        }
        let outcome = try store.importNotes(drafts)
        #expect(outcome.imported.count == 300)
        #expect(outcome.skipped.isEmpty)
        #expect(try store.search(SearchQuery("zebra", limit: 1_000)).count == 300)
        #expect(try store.search(SearchQuery("zebra", tag: "old", folderId: folder.id, limit: 1_000)).count == 50)
        #expect(try store.note(id: outcome.imported[0]).createdAt == created)
        #expect(try store.statistics().notesCreated == 300)
        #expect(try store.tags().first?.noteCount == 100)
    }

    @Test func skipsBadDraftsWithTheirReasonAndKeepsTheRest() throws {
        let existing = try store.make("Existing")
        let drafts = [
            NoteDraft(title: "good one", tags: ["kept"]),
            NoteDraft(title: String(repeating: "x", count: NoteStore.maximumTitleLength + 1), tags: ["never"]),
            NoteDraft(title: "unknown folder", folderId: UUID()),
            NoteDraft(title: "duplicate", id: existing.id),
            NoteDraft(title: "bad tag", tags: ["fine", "   "]),
            NoteDraft(title: "good two"),
        ]
        let outcome = try store.importNotes(drafts)
        #expect(outcome.imported.count == 2)
        #expect(outcome.skipped.map(\.index) == [1, 2, 3, 4])
        #expect(Set(try store.listTitles()) == ["Existing", "good one", "good two"])
        // The tag of a skipped draft was rolled back with it.
        #expect(try store.tags().map(\.tag.name) == ["kept"])
        #expect(try store.searchTitles("duplicate").isEmpty)
        // Nothing of a skipped draft waits to be synced: the three notes and the one tag kept.
        let pending = try store.pendingChanges()
        #expect(pending.filter { $0.recordType == .note }.count == 3)
        #expect(pending.filter { $0.recordType == .tag }.count == 1)
    }
}
