import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Notes")
struct NoteTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func createsAndReadsANote() throws {
        let note = try store.createNote(NoteDraft(title: "Groceries", body: "- milk\n- eggs", isPinned: true, tags: ["Home"]))
        let read = try store.note(id: note.id)
        #expect(read == note)
        #expect(read.title == "Groceries")
        #expect(read.body == "- milk\n- eggs")
        #expect(read.isPinned)
        #expect(read.tags == ["Home"])
        #expect(read.sync.status == .pending)
        #expect(read.firstLine == "- milk")
    }

    @Test func anEmptyTitleShowsAsUntitled() throws {
        let note = try store.make("", "body only")
        #expect(note.displayTitle == "Untitled")
    }

    @Test func editingMovesModifiedAtAndKeepsCreatedAt() throws {
        let note = try store.make("Draft", "one")
        let edited = try store.updateNote(id: note.id, body: "two")
        #expect(edited.body == "two")
        #expect(edited.title == "Draft")
        #expect(edited.createdAt == note.createdAt)
        #expect(edited.modifiedAt > note.modifiedAt)

        let pinned = try store.setPinned(true, noteId: note.id)
        #expect(pinned.isPinned)
        #expect(pinned.modifiedAt > edited.modifiedAt)

        let folder = try store.createFolder(name: "Work")
        let moved = try store.moveNote(id: note.id, toFolder: folder.id)
        #expect(moved.folderId == folder.id)
        #expect(moved.modifiedAt > pinned.modifiedAt)
        #expect(try store.moveNote(id: note.id, toFolder: nil).folderId == nil)
    }

    @Test func everyChangeAppendsToTheOutbox() throws {
        let note = try store.make("Outbox")
        let first = try store.pendingChanges()
        #expect(first.map(\.recordType) == [.note])
        #expect(first.map(\.recordId) == [note.id])

        _ = try store.updateNote(id: note.id, title: "Outbox 2")
        let second = try store.pendingChanges()
        #expect(second.count == 1)
        #expect(second[0].sequence > first[0].sequence)

        _ = try store.addTags(["Sync"], toNote: note.id)
        #expect(Set(try store.pendingChanges().map(\.recordType)) == [.note, .tag])

        try store.trashNotes(ids: [note.id])
        try store.purgeNotes(ids: [note.id])
        let last = try store.pendingChanges().first { $0.recordId == note.id }
        #expect(last?.operation == .delete)
    }

    @Test func aFailedChangeLeavesNothingBehind() throws {
        let note = try store.make("Keep me", "as I am")
        let outboxBefore = try store.pendingChanges()
        let tooLong = String(repeating: "x", count: NoteStore.maximumTitleLength + 1)
        #expect(throws: NoteTakerError.self) { try store.updateNote(id: note.id, title: tooLong, body: "changed") }
        #expect(throws: NoteTakerError.self) { try store.moveNote(id: note.id, toFolder: UUID()) }
        #expect(throws: NoteTakerError.self) { try store.createNote(NoteDraft(title: "x", folderId: UUID())) }
        #expect(throws: NoteTakerError.self) { try store.createNote(NoteDraft(title: "x", tags: ["   "])) }
        #expect(try store.note(id: note.id) == note)
        #expect(try store.pendingChanges() == outboxBefore)
        #expect(try store.listTitles() == ["Keep me"])
    }

    @Test func refusesADuplicateIdAndAHugeBody() throws {
        let note = try store.make("One")
        #expect(throws: NoteTakerError.invalidInput(Wording("noteIdTaken", ["id": note.id.key]))) {
            try store.createNote(NoteDraft(title: "Two", id: note.id))
        }
        let huge = String(repeating: "a", count: NoteStore.maximumBodySize + 1)
        #expect(throws: NoteTakerError.self) { try store.make("Huge", huge) }
        #expect(try store.listTitles() == ["One"])
    }

    @Test func titlesAreOneLine() throws {
        let note = try store.make("Line one\nline two")
        #expect(note.title == "Line one line two")
    }

    @Test func resolvesUniqueIdPrefixes() throws {
        let a = try store.createNote(NoteDraft(title: "A", id: UUID(uuidString: "AAAA1111-0000-0000-0000-000000000000")))
        _ = try store.createNote(NoteDraft(title: "B", id: UUID(uuidString: "AAAA2222-0000-0000-0000-000000000000")))
        #expect(try store.resolveNoteId("aaaa1") == a.id)
        #expect(try store.resolveNoteId("AAAA1111") == a.id)
        #expect(try store.resolveNoteId(a.id.uuidString) == a.id)
        #expect {
            try store.resolveNoteId("aaaa")
        } throws: { error in
            guard case NoteTakerError.ambiguousIdentifier(_, let candidates) = error else { return false }
            return candidates.count == 2 && candidates[0].hasPrefix("aaaa1111") && candidates[0].hasSuffix("A")
        }
        #expect(throws: NoteTakerError.noteNotFound("bbbb")) { try store.resolveNoteId("bbbb") }
        #expect(throws: NoteTakerError.noteNotFound("zz'; DROP TABLE note")) { try store.resolveNoteId("zz'; DROP TABLE note") }
        #expect(throws: NoteTakerError.noteNotFound("")) { try store.resolveNoteId("") }
    }

    @Test func unknownIdsAreClearErrors() throws {
        let id = UUID()
        #expect(throws: NoteTakerError.noteNotFound(id.key)) { try store.note(id: id) }
        #expect(throws: NoteTakerError.noteNotFound(id.key)) { try store.updateNote(id: id, title: "x") }
        #expect(throws: NoteTakerError.noteNotFound(id.key)) { try store.setPinned(true, noteId: id) }
        #expect(throws: NoteTakerError.noteNotFound(id.key)) { try store.trashNotes(ids: [id]) }
    }

    @Test func statisticsCountWhatTheStoreHolds() throws {
        try store.recordLaunch()
        let note = try store.make("One", tags: ["a"])
        try store.make("Two", pinned: true)
        try store.trashNotes(ids: [note.id])
        let stats = try store.statistics()
        #expect(stats.launches == 1)
        #expect(stats.notesCreated == 2)
        #expect(stats.notes == 1)
        #expect(stats.pinnedNotes == 1)
        #expect(stats.recentNotes == 1, "the trashed note is not counted")
        #expect(stats.trashedNotes == 1)
        #expect(stats.tags == 1)
        #expect(stats.pendingChanges == 3)
    }
}

@Suite("Stored ids")
struct StoredIdTests {
    @Test func keysRoundTripAndMatchFoundation() {
        for _ in 0..<100 {
            let id = UUID()
            #expect(id.key == id.uuidString.lowercased())
            #expect(UUID(key: id.key) == id)
            #expect(UUID(key: id.uuidString) == id)
        }
        for bad in ["", "xyz", "1234", String(repeating: "a", count: 33), "gggggggg-0000-0000-0000-000000000000"] {
            #expect(UUID(key: bad) == nil)
        }
    }
}

@Suite struct FirstLineTests {
    @Test(arguments: [
        ("", ""), ("one", "one"), ("\n\n  two  \nthree", "two"), ("\r\n\r\nwindows\r\nline", "windows"),
        ("   \n\t\nCafé crème", "Café crème"), ("🙂 first\nsecond", "🙂 first"), ("e\u{301}\nx", "e\u{301}"),
    ])
    func theFirstLineWithText(_ body: String, _ expected: String) {
        #expect(Note(title: "", body: body).firstLine == expected)
    }
}
