import Foundation
import Testing
@testable import NoteTakerKit

/// The deletions a heal sends again to a server restored from an older copy (``SentDeletions``).
@Suite("Deletions sent again after a restore")
struct SentDeletionsTests {
    @Test("a heal queues again the deletions answered within 90 days, of records not here, and forgets older ones")
    func queuedAgainWithinTheWindow() throws {
        let store = try NoteStore.inMemory()
        let here = try store.createNote(NoteDraft(title: "Made again here", body: ""))
        let (recent, old, folder) = (UUID(), UUID(), UUID())
        try store.write { db in
            let now = Date()
            try SentDeletions.remember(db, .note, recent.key, now: now.addingTimeInterval(-89 * 86_400))
            try SentDeletions.remember(db, .note, old.key, now: now.addingTimeInterval(-91 * 86_400))
            try SentDeletions.remember(db, .folder, folder.key, now: now)
            try SentDeletions.remember(db, .note, here.id.key, now: now)
            try SentDeletions.remember(db, .tag, UUID().key, now: now)
        }
        try store.adoptRestoredServer()

        let deletions = try store.pendingChanges().filter { $0.operation == .delete }
        #expect(Set(deletions.map(\.recordId)) == [recent, folder])
        #expect(try store.pendingChanges().contains { $0.recordId == here.id && $0.operation == .save })
        let kept = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_sent_deletion") }
        #expect(kept == 3, "the deletion answered 91 days ago is forgotten, the tag's never kept")
    }
}
