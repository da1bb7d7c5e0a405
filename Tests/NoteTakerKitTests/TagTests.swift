import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Tags")
struct TagTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func namesAreOneTagWhateverTheCase() throws {
        let a = try store.make("a", tags: ["Work"])
        try store.make("b", tags: ["work", " WORK "])
        let tags = try store.tags()
        #expect(tags.map(\.tag.name) == ["Work"])
        #expect(tags[0].noteCount == 2)
        #expect(tags[0].tag.id == Tag.id(forName: "wOrK"))
        #expect(try store.note(id: a.id).tags == ["Work"])
    }

    @Test func theIdDerivesFromTheNormalizedName() {
        #expect(Tag.id(forName: "Work") == Tag.id(forName: "  work "))
        #expect(Tag.id(forName: "Café") == Tag.id(forName: "cafe\u{301}"))
        #expect(Tag.id(forName: "Work") != Tag.id(forName: "Works"))
        #expect(Tag.id(forName: "Work").uuidString.dropFirst(14).first == "5")
    }

    @Test func addAndRemoveOnANote() throws {
        let note = try store.make("n")
        var updated = try store.addTags(["b", "A"], toNote: note.id)
        #expect(updated.tags == ["A", "b"])
        #expect(updated.modifiedAt > note.modifiedAt)
        updated = try store.removeTags(["B"], fromNote: note.id)
        #expect(updated.tags == ["A"])
        #expect(try store.tags().map(\.noteCount) == [1, 0])
        #expect(throws: NoteTakerError.tagNotFound("zzz")) { try store.removeTags(["zzz"], fromNote: note.id) }
        #expect(throws: NoteTakerError.self) { try store.addTags([""], toNote: note.id) }
        #expect(try store.note(id: note.id).tags == ["A"])
    }

    @Test func renameKeepsNotesAndTheIndex() throws {
        let note = try store.make("n", tags: ["projekt"])
        let renamed = try store.renameTag("Projekt", to: "Project")
        #expect(renamed.id == Tag.id(forName: "project"))
        #expect(try store.note(id: note.id).tags == ["Project"])
        #expect(try store.tags().map(\.tag.name) == ["Project"])
        #expect(try store.searchTitles("project") == ["n"])
        #expect(try store.searchTitles("projekt").isEmpty)
        #expect(try store.searchTitles("n", tag: "project") == ["n"])

        let recased = try store.renameTag("project", to: "PROJECT")
        #expect(recased.id == renamed.id)
        #expect(try store.note(id: note.id).tags == ["PROJECT"])
    }

    @Test("renaming a tag to the name it has changes nothing, so nothing goes up")
    func renameToItsOwnName() throws {
        try store.make("n", tags: ["Red"])
        let before = try store.pendingChanges()
        let tag = try store.renameTag("red", to: "Red")
        #expect(tag.name == "Red")
        #expect(try store.pendingChanges() == before)
        // " Red " folds to the same name: still nothing.
        _ = try store.renameTag("Red", to: " Red ")
        #expect(try store.pendingChanges() == before)
    }

    @Test("a tag made again while its deletion waits to go up leaves the deletion waiting, to go up first")
    func madeAgainWhileItsDeletionWaits() throws {
        try store.make("a", tags: ["Red"])
        try store.deleteTag("Red")
        try store.make("b", tags: ["red"])
        let changes = try store.pendingChanges().filter { $0.recordType == .tag }
        #expect(changes.map(\.operation) == [.delete])
        #expect(try store.tags().map(\.tag.name) == ["red"])
    }

    @Test func renameOntoAnExistingNameMerges() throws {
        try store.make("a", tags: ["todo"])
        try store.make("b", tags: ["to-do", "todo"])
        _ = try store.renameTag("to-do", to: "Todo")
        #expect(try store.tags().map(\.tag.name) == ["todo"])
        #expect(try store.tags()[0].noteCount == 2)
    }

    @Test func mergeMovesNotesAndDeletesTheSource() throws {
        try store.make("a", tags: ["Job"])
        try store.make("b", tags: ["Work"])
        let into = try store.mergeTag("job", into: "work")
        #expect(into.name == "Work")
        #expect(try store.tags().map(\.tag.name) == ["Work"])
        #expect(try store.listTitles(NoteQuery(tag: "work")).sorted() == ["a", "b"])
        #expect(throws: NoteTakerError.self) { try store.mergeTag("work", into: "WORK") }
        #expect(throws: NoteTakerError.tagNotFound("nope")) { try store.mergeTag("nope", into: "work") }
    }

    @Test func deleteKeepsTheNotes() throws {
        let note = try store.make("a", "text", tags: ["Temp", "Keep"])
        try store.deleteTag("temp")
        #expect(try store.note(id: note.id).tags == ["Keep"])
        #expect(try store.searchTitles("temp").isEmpty)
        #expect(throws: NoteTakerError.tagNotFound("temp")) { try store.deleteTag("temp") }
    }
}
