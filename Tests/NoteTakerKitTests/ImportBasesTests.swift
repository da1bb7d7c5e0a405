import Foundation
import GRDB
import Testing
@testable import NoteTakerKit

/// The bases a newer export is merged from, as the store keeps them (``ImportBases``).
@Suite struct ImportBasesTests {
    @Test("version 26 keeps every base version 25 kept whole, with its digest, and copies notes from then on")
    func fromVersion25() throws {
        let store = try NoteStore.inMemory()
        let imported = try store.importNotes([NoteImport(
            draft: NoteDraft(title: "Plan", body: "one", tags: ["work"], id: UUID()), followsSource: true)])
        #expect(imported == [.imported])
        let note = try #require(try store.notes(NoteQuery()).first)
        let source = ImportBases.Base(title: "Plan", body: "zero", tags: ["work"], isPinned: false, folderId: nil)
        try store.write { db in
            // The store as version 25 left it: the table whole, no triggers.
            for trigger in ["edited", "tag_added", "tag_removed"] { try db.execute(sql: "DROP TRIGGER import_base_\(trigger)") }
            try db.execute(sql: "DROP TABLE import_base")
            try ImportBases.createWhole(db)
            try db.execute(sql: "INSERT INTO import_base VALUES (?, 'Plan', 'zero', 'work', 0, NULL)", arguments: [note.id.key])
            try ImportBases.keepDigests(db)
        }
        let kept = try #require(try store.read { db in try ImportBases.fetch(db, noteId: note.id.key) })
        #expect(kept.digest == source.digest && kept.base == source)

        // A note as its source said it is copied before its first change.
        let other = try store.importNotes([NoteImport(draft: NoteDraft(title: "Other", body: "b", id: UUID()), followsSource: true)])
        #expect(other == [.imported])
        let otherNote = try #require(try store.notes(NoteQuery()).first { $0.title == "Other" })
        #expect(try store.read { db in try ImportBases.fetch(db, noteId: otherNote.id.key) }?.base == nil)
        _ = try store.changeNote(id: otherNote.id, NoteChanges(body: "changed here"))
        #expect(try store.read { db in try ImportBases.fetch(db, noteId: otherNote.id.key) }?.base?.body == "b")
    }

    @Test("a digest tells versions apart by every field, tags in any order")
    func digests() throws {
        let base = ImportBases.Base(title: "T", body: "B", tags: ["Work", "home"], isPinned: false, folderId: nil)
        var same = base
        same.tags = ["home", "Work", "home"]
        #expect(same.digest == base.digest)
        for change in [{ (b: inout ImportBases.Base) in b.title = "T2" }, { $0.body = "B\n" }, { $0.tags = ["work"] },
                       { $0.isPinned = true }, { $0.folderId = "f" }, { $0.title = "TB"; $0.body = "" }] {
            var changed = base
            change(&changed)
            #expect(changed.digest != base.digest, "\(changed)")
        }
    }
}
