import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Trash")
struct TrashTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test("a note that holds nothing can be discarded; one with anything in it is kept")
    func discardingEmptyNotes() throws {
        let empty = try store.createNote(NoteDraft(title: "  ", body: "\n"))
        #expect(try store.discardIfEmpty(id: empty.id))
        #expect(throws: NoteTakerError.self) { try store.note(id: empty.id) }
        let kept: [Note] = [
            try store.createNote(NoteDraft(title: "Title only")),
            try store.createNote(NoteDraft(title: "", body: "a word")),
            try store.createNote(NoteDraft(title: "", tags: ["tagged"])),
        ]
        let edited = try store.createNote(NoteDraft(title: ""))
        _ = try store.updateNote(id: edited.id, body: "written")
        _ = try store.updateNote(id: edited.id, body: "")
        for note in kept + [edited] {
            #expect(try store.discardIfEmpty(id: note.id) == false)
            #expect(try store.note(id: note.id).id == note.id, "a note with something in it (or a history) stays")
        }
        #expect(throws: NoteTakerError.self) { try store.discardIfEmpty(id: UUID()) }
    }

    @Test func deletingMovesToTheTrashAndRestoreBringsBack() throws {
        let folder = try store.createFolder(name: "Work")
        let note = try store.make("Oops", "deleted by mistake", folder: folder.id)
        #expect(try store.trashNotes(ids: [note.id]) == 1)
        #expect(try store.listTitles().isEmpty)
        #expect(try store.searchTitles("mistake").isEmpty)
        #expect(try store.trashedNotes().map(\.title) == ["Oops"])
        #expect(try store.searchTitles("mistake", trash: true) == ["Oops"])

        let restored = try store.restoreNote(id: note.id)
        #expect(restored.folderId == folder.id)
        #expect(try store.listTitles() == ["Oops"])
        #expect(try store.trashedNotes().isEmpty)
        #expect(try store.searchTitles("mistake") == ["Oops"])
    }

    @Test func restoringIntoADeletedFolderLeavesTheNoteUnfiled() throws {
        let folder = try store.createFolder(name: "Gone soon")
        let note = try store.make("Orphan", folder: folder.id)
        try store.trashNotes(ids: [note.id])
        try store.deleteFolder(id: folder.id)
        #expect(try store.restoreNote(id: note.id).folderId == nil)
    }

    @Test func aTrashedNoteCannotBeEditedUntilRestored() throws {
        let note = try store.make("Trashed")
        try store.trashNotes(ids: [note.id])
        #expect(throws: NoteTakerError.noteInTrash(note.id.key)) { try store.updateNote(id: note.id, title: "x") }
        #expect(throws: NoteTakerError.noteInTrash(note.id.key)) { try store.addTags(["x"], toNote: note.id) }
        #expect(try store.note(id: note.id).title == "Trashed")
    }

    @Test func purgeNeedsTheNoteInTheTrashAndChangesNothingOtherwise() throws {
        let kept = try store.make("Kept")
        let trashed = try store.make("Trashed")
        try store.trashNotes(ids: [trashed.id])
        #expect(throws: NoteTakerError.noteNotInTrash(kept.id.key)) { try store.purgeNotes(ids: [trashed.id, kept.id]) }
        #expect(try store.trashedNotes().count == 1)
        #expect(try store.purgeNotes(ids: [trashed.id]) == 1)
        #expect(throws: NoteTakerError.noteNotFound(trashed.id.key)) { try store.note(id: trashed.id) }
        #expect(throws: NoteTakerError.noteNotInTrash(kept.id.key)) { try store.restoreNote(id: kept.id) }
    }

    @Test func deleteAllAndEmptyTrash() throws {
        for index in 0..<5 { try store.make("n\(index)") }
        #expect(try store.trashAllNotes() == 5)
        #expect(try store.listTitles().isEmpty)
        #expect(try store.emptyTrash() == 5)
        #expect(try store.trashedNotes().isEmpty)
        #expect(try store.statistics().trashedNotes == 0)
    }

    @Test func theTrashEmptiesItselfAfterThirtyDays() throws {
        let old = try store.make("old")
        let recent = try store.make("recent")
        try store.trashNotes(ids: [old.id, recent.id])
        try store.write { db in
            try db.execute(sql: "UPDATE note SET trashedAt = ? WHERE id = ?",
                           arguments: [Date().addingTimeInterval(-31 * 24 * 3600).storageValue, old.id.key])
        }
        #expect(try store.purgeExpiredTrash() == 1)
        #expect(try store.trashedNotes().map(\.title) == ["recent"])
    }
}
