import Foundation
import Testing
@testable import NoteTakerKit

/// One edit path: an edit made from an older revision is merged with what changed since, by
/// the rules sync uses, and never overwrites it unseen.
@Suite("Edits from an older revision")
struct EditBaseTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test("the issue's scenario: typing at the end while another line changed elsewhere keeps both")
    func mergedText() throws {
        let note = try store.make("Shared", "line one\nline two\nline three")
        let base = NoteBase(note)
        _ = try store.changeNote(id: note.id, NoteChanges(body: "line one\nline two EDITED\nline three"))
        let saved = try store.changeNote(id: note.id, NoteChanges(body: "line one\nline two\nline three\nbrowser typed A and more", base: base))
        #expect(saved.body == "line one\nline two EDITED\nline three\nbrowser typed A and more")
        #expect(saved.sync.status != .conflict)
        #expect(saved.revision > note.revision + 1)
    }

    @Test("an edit from the current revision is taken as it is")
    func currentBase() throws {
        let note = try store.make("Plain", "a")
        let saved = try store.changeNote(id: note.id, NoteChanges(body: "b", base: NoteBase(note)))
        #expect(saved.body == "b" && saved.revision == note.revision + 1)
        let again = try store.changeNote(id: note.id, NoteChanges(title: "Plain!", base: NoteBase(saved)))
        #expect(again.title == "Plain!" && again.body == "b")
    }

    @Test("texts that cannot merge: the edit stays, the other text is a conflict copy, nothing is lost")
    func conflictCopy() throws {
        let note = try store.make("Shopping", "milk\neggs")
        let base = NoteBase(note)
        _ = try store.updateNote(id: note.id, body: "milk\nbrown eggs")
        let saved = try store.changeNote(id: note.id, NoteChanges(body: "milk\nsix eggs", base: base))
        #expect(saved.body == "milk\nsix eggs")
        #expect(saved.sync.status == .conflict)
        let conflict = try #require(try store.conflicts().first)
        #expect(conflict.localBody == "milk\nsix eggs" && conflict.serverBody == "milk\nbrown eggs")
        let copy = try store.note(id: try #require(conflict.copyId))
        #expect(copy.body == "milk\nbrown eggs")
        #expect(try store.history(noteId: note.id, withBodies: true).contains { $0.body == "milk\nbrown eggs" })
    }

    @Test("resolving a conflict keeps both texts in the history, and keeps a conflict copy that was edited")
    func resolutionLosesNothing() throws {
        let note = try store.make("Shopping", "milk\neggs")
        var base = NoteBase(note)
        _ = try store.updateNote(id: note.id, body: "milk\nbrown eggs")
        _ = try store.changeNote(id: note.id, NoteChanges(body: "milk\nsix eggs", base: base))
        #expect(try store.resolveConflict(noteId: note.id, keep: .local) == .resolved)
        #expect(try store.note(id: note.id).body == "milk\nsix eggs")
        let bodies = try store.history(noteId: note.id, withBodies: true).compactMap(\.body)
        #expect(bodies.contains("milk\nbrown eggs"), "the side not kept is in the history: \(bodies)")
        #expect(try store.notes(NoteQuery()).count == 1, "the untouched conflict copy is gone")

        base = NoteBase(try store.note(id: note.id))
        _ = try store.updateNote(id: note.id, body: "milk\nno eggs")
        _ = try store.changeNote(id: note.id, NoteChanges(body: "milk\ntwelve eggs", base: base))
        let copyId = try #require(try store.conflicts().first?.copyId)
        _ = try store.updateNote(id: copyId, body: "milk\nno eggs\nand bread, added in the copy")
        #expect(try store.resolveConflict(noteId: note.id, keep: .server) == .editedCopyKept(copyId: copyId))
        #expect(try store.note(id: copyId).body == "milk\nno eggs\nand bread, added in the copy")
        #expect(try store.note(id: note.id).body == "milk\nno eggs")
        #expect(try store.history(noteId: note.id, withBodies: true).contains { $0.body == "milk\ntwelve eggs" })
    }

    @Test("tags edited on both sides merge as sets; a title changed only elsewhere is kept")
    func tagsAndTitle() throws {
        let note = try store.make("Trip", "", tags: ["travel", "todo"])
        let base = NoteBase(note)
        _ = try store.changeNote(id: note.id, NoteChanges(title: "Trip to Lisbon", tags: ["travel", "todo", "portugal"]))
        let saved = try store.changeNote(id: note.id, NoteChanges(title: "Trip", tags: ["travel"], base: base))
        #expect(saved.title == "Trip to Lisbon")
        #expect(Set(saved.tags) == ["travel", "portugal"])
    }

    @Test("an edit without a base replaces what it names, and the history keeps what it replaced")
    func lastWriterWithHistory() throws {
        let note = try store.make("Script", "by hand")
        _ = try store.changeNote(id: note.id, NoteChanges(body: "by a script"))
        #expect(try store.note(id: note.id).body == "by a script")
        #expect(try store.history(noteId: note.id, withBodies: true).first?.body == "by hand")
    }
}
