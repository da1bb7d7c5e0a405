import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Links between notes")
struct LinkTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test("every write of a body keeps the link index; backlinks give the line around the link")
    func indexFollowsEveryWrite() throws {
        let target = try store.createNote(NoteDraft(title: "Groceries", body: "milk"))
        let other = try store.createNote(NoteDraft(title: "Recipes", body: ""))
        let link = NoteStore.markdownLink(to: target)
        #expect(link == "[Groceries](note:\(target.id.key))")
        let plan = try store.createNote(NoteDraft(title: "Plan", body: "# Week\n\n- [ ] buy what is on \(link) today\n"))
        #expect(try store.backlinks(to: target.id).map(\.title) == ["Plan"])
        #expect(try store.backlinks(to: target.id).first?.context == "buy what is on Groceries today")
        #expect(try store.links(from: plan.id).map(\.title) == ["Groceries"])

        // An edit that adds and removes links.
        _ = try store.updateNote(id: plan.id, body: "see [r](note:\(other.id.key)) and [again](note:\(other.id.uuidString))")
        #expect(try store.backlinks(to: target.id).isEmpty)
        #expect(try store.links(from: plan.id).map(\.title) == ["Recipes"], "one link per note, whatever the case of its id")
        // A note in the trash links to nothing; purged, its links are gone from the index.
        _ = try store.trashNotes(ids: [plan.id])
        #expect(try store.backlinks(to: other.id).isEmpty)
        _ = try store.restoreNote(id: plan.id)
        #expect(try store.backlinks(to: other.id).map(\.title) == ["Plan"])
        _ = try store.trashNotes(ids: [plan.id])
        _ = try store.purgeNotes(ids: [plan.id])
        let left = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_link") ?? -1 }
        #expect(left == 0)
    }

    @Test("links to notes that are not here are left out; a note linking itself is not its own backlink")
    func missingAndSelf() throws {
        let note = try store.createNote(NoteDraft(title: "Self", body: ""))
        _ = try store.updateNote(id: note.id, body: "[me](note:\(note.id.key)) and [gone](note:\(UUID().uuidString))")
        #expect(try store.links(from: note.id).map(\.title) == ["Self"])
        #expect(try store.backlinks(to: note.id).isEmpty)
        #expect(throws: NoteTakerError.self) { try store.backlinks(to: UUID()) }
    }

    @Test("titles for completing a link: by prefix, case ignored, the exact title first, % and _ as written")
    func titlesByPrefix() throws {
        for title in ["Garden plan", "Garden", "gardening notes", "100% done", "snake_case", "Other"] {
            _ = try store.createNote(NoteDraft(title: title, body: ""))
        }
        #expect(try store.notesTitled(prefix: "garden").map(\.title) == ["Garden", "Garden plan", "gardening notes"])
        #expect(try store.notesTitled(prefix: "100%").map(\.title) == ["100% done"])
        #expect(try store.notesTitled(prefix: "snake_").map(\.title) == ["snake_case"])
        #expect(try store.notesTitled(prefix: "snake%").isEmpty)
        #expect(try store.notesTitled(prefix: "", limit: 2).count == 2)
    }

    @Test("the targets a body links to are read from its text alone")
    func targets() {
        let a = UUID().uuidString.lowercased()
        let b = UUID().uuidString
        #expect(NoteLinks.targets(in: "[x](note:\(a)) [y](note:\(b)) [z](note:\(a)) [w](note:not-an-id)") == [a, b.lowercased()])
        #expect(NoteLinks.targets(in: "no links [x](https://example.com)").isEmpty)
    }
}

@Suite("A link's text follows its note's title")
struct LinkRenameTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func renamingANoteRenamesTheLinksThatReadItsTitle() throws {
        let target = try store.createNote(NoteDraft(title: "[Draft] plan", body: ""))
        let elsewhere = try store.createNote(NoteDraft(title: "Other", body: ""))
        let link = NoteStore.markdownLink(to: target)
        #expect(link == "[\\[Draft\\] plan](note:\(target.id.key))")
        let id = target.id.key
        let body = """
            See \(link) and again [\\[Draft\\] plan](note:\(id.uppercased())).
            - [ ] [my own words](note:\(id)), ![\\[Draft\\] plan](note:\(id)) and \\[\\[Draft\\] plan](note:\(id))
            - [\\[Draft\\] plan](note:\(elsewhere.id.key)) is another note of that name
            """
        let linking = try store.createNote(NoteDraft(title: "Week", body: body))
        let trashed = try store.createNote(NoteDraft(title: "Old", body: link))
        _ = try store.trashNotes(ids: [trashed.id])

        let renamed = try store.updateNote(id: target.id, title: "Final plan")
        #expect(renamed.title == "Final plan")
        let after = try store.note(id: linking.id)
        #expect(after.body == """
            See [Final plan](note:\(id)) and again [Final plan](note:\(id.uppercased())).
            - [ ] [my own words](note:\(id)), ![\\[Draft\\] plan](note:\(id)) and \\[\\[Draft\\] plan](note:\(id))
            - [\\[Draft\\] plan](note:\(elsewhere.id.key)) is another note of that name
            """)
        #expect(after.sync.status == .pending, "the linking note's edit syncs")
        #expect(try store.history(noteId: linking.id, withBodies: true).first?.body == body, "and its text before is in its history")
        #expect(try store.note(id: trashed.id).body == link, "a note in the trash is not changed")
        #expect(try store.backlinks(to: target.id).map(\.context) == ["See Final plan and again Final plan."])

        // Renamed again, and to nothing: links follow each step.
        _ = try store.updateNote(id: target.id, title: "")
        #expect(try store.note(id: linking.id).body.hasPrefix("See [Untitled](note:\(id)) and again [Untitled]"))
        _ = try store.updateNote(id: target.id, title: "Plan")
        #expect(try store.note(id: linking.id).body.hasPrefix("See [Plan](note:\(id)) and again [Plan]"))
    }

    @Test func aNoteLinkingToItselfAndAnEditWithoutRenameChangeNothingElse() throws {
        let note = try store.createNote(NoteDraft(title: "Index", body: ""))
        let selfLink = NoteStore.markdownLink(to: note)
        _ = try store.updateNote(id: note.id, body: "Top: \(selfLink)")
        let other = try store.createNote(NoteDraft(title: "Other", body: "see \(selfLink)"))
        let before = try store.note(id: other.id)
        _ = try store.updateNote(id: note.id, body: "Top: \(selfLink), more")
        #expect(try store.note(id: other.id) == before, "a body edit renames nothing")
        let renamed = try store.updateNote(id: note.id, title: "Contents")
        #expect(renamed.body == "Top: [Contents](note:\(note.id.key)), more")
        #expect(try store.note(id: note.id).body == renamed.body)
        #expect(try store.note(id: other.id).body == "see [Contents](note:\(note.id.key))")
    }

    @Test func renamingIsOnePassOverAnyText() {
        let id = UUID().key
        let hostile = String(repeating: "](note:\(id))[Old", count: 20_000)
        #expect(NoteLinks.renaming(in: hostile, target: id, from: "Old", to: "New") != nil)
        #expect(NoteLinks.renaming(in: String(repeating: "](note:", count: 50_000), target: id, from: "Old", to: "New") == nil)
    }
}
