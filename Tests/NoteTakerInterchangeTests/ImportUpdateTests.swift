import Foundation
@testable import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// A newer export of an app that names its notes updates the notes that changed there,
/// through the one edit path: merged with what changed here, the replaced text in History,
/// never overwritten unseen; the same export again changes nothing.
@Suite struct ImportUpdateTests {
    /// A Simplenote `notes.json` of the given notes (id, content, tags, pinned), as Simplenote
    /// writes it.
    static func simplenote(_ notes: [(id: String, content: String, tags: [String], pinned: Bool)]) -> String {
        let items = notes.map { note in
            let tags = note.tags.map { "\"\($0)\"" }.joined(separator: ", ")
            let content = note.content.replacingOccurrences(of: "\n", with: "\\r\\n")
            return """
                {"id": "\(note.id)", "content": "\(content)", "creationDate": "2021-05-04T09:15:30.000Z",
                 "lastModified": "2023-11-20T18:02:11.482Z", "pinned": \(note.pinned), "tags": [\(tags)]}
                """
        }
        return "{\"activeNotes\": [\(items.joined(separator: ",\n"))], \"trashedNotes\": []}"
    }

    static let recipes = "0c1f3d6b4a8e4f21a9d7c2b5e6f80911", plan = "5be1c0a3f9d24e7c8b6a1d2e3f405162", trip = "9f8e7d6c5b4a49382716a5b4c3d2e1f0"

    static let first = simplenote([
        (recipes, "Recipes\n\nPancakes: flour, milk, eggs.\nServe warm.\nKeep the batter cold.", ["cooking"], false),
        (plan, "Project plan\n\n- [ ] write spec\n- [ ] pick a name", [], false),
    ])

    /// Imports `text` as a Simplenote `notes.json` named `name` in `folder`.
    static func importSimplenote(_ text: String, into store: NoteStore, in folder: TemporaryDirectory, name: String) throws -> ImportReport {
        try Importer(store: store).importItems(at: try folder.write(text, to: "\(name)/notes.json"))
    }

    @Test("a newer export updates what changed there, adds what is new, leaves the rest; the replaced text is in History")
    func newerExport() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        let report = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        #expect(report.imported == 2 && report.updated.isEmpty)
        let before = try #require(try store.allNotes()["Recipes"])

        let newer = Self.simplenote([
            (Self.recipes, "Recipes\n\nPancakes: flour, milk, two eggs.\nServe warm.\nKeep the batter cold.", ["cooking", "family"], true),
            (Self.plan, "Project plan\n\n- [ ] write spec\n- [ ] pick a name", [], false),
            (Self.trip, "Trip\n\nLisbon in May", [], false),
        ])
        let again = try Self.importSimplenote(newer, into: store, in: folder, name: "two")
        #expect(again.found == 3 && again.imported == 1 && again.alreadyPresent == 1, "\(again)")
        #expect(again.updated == ["note 1 'Recipes'"])
        let notes = try store.allNotes()
        let recipes = try #require(notes["Recipes"])
        #expect(recipes.id == before.id)
        #expect(recipes.body == "Pancakes: flour, milk, two eggs.\nServe warm.\nKeep the batter cold.")
        #expect(Set(recipes.tags) == ["cooking", "family"] && recipes.isPinned)
        #expect(try store.history(noteId: recipes.id, withBodies: true).contains { $0.body == before.body })
        #expect(notes["Trip"] != nil && notes.count == 3)
        #expect(try store.search(SearchQuery("two eggs")).map(\.note.id) == [recipes.id], "the update is searchable")

        let third = try Self.importSimplenote(newer, into: store, in: folder, name: "three")
        #expect(third.imported == 0 && third.updated.isEmpty && third.alreadyPresent == 3, "the same export again changes nothing")
        #expect(try store.note(id: recipes.id).revision == recipes.revision)
    }

    @Test("an edit made here meanwhile is merged with the export's, line by line and tag by tag")
    func mergedWithEditsHere() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        let recipes = try #require(try store.allNotes()["Recipes"])
        _ = try store.changeNote(id: recipes.id, NoteChanges(
            body: "Pancakes: flour, milk, eggs.\nServe warm.\nKeep the batter cold.\nAdded here: a pinch of salt.", tags: ["cooking", "breakfast"]))

        let newer = Self.simplenote([
            (Self.recipes, "Recipes\n\nPancakes: flour, oat milk, eggs.\nServe warm.\nKeep the batter cold.", ["cooking", "family"], false),
            (Self.plan, "Project plan\n\n- [ ] write spec\n- [ ] pick a name", [], false),
        ])
        let report = try Self.importSimplenote(newer, into: store, in: folder, name: "two")
        #expect(report.updated.count == 1, "\(report)")
        let merged = try store.note(id: recipes.id)
        #expect(merged.body == "Pancakes: flour, oat milk, eggs.\nServe warm.\nKeep the batter cold.\nAdded here: a pinch of salt.")
        #expect(Set(merged.tags) == ["cooking", "breakfast", "family"])
        #expect(merged.sync.status != .conflict)

        // The export unchanged since: nothing happens, though the note differs from it.
        let again = try Self.importSimplenote(newer, into: store, in: folder, name: "three")
        #expect(again.updated.isEmpty && again.alreadyPresent == 2)
        #expect(try store.note(id: recipes.id).body == merged.body)

        // Changed there again: merged with the note as it is, not with the export before.
        let third = Self.simplenote([
            (Self.recipes, "Recipes\n\nPancakes: flour, oat milk, eggs.\nServe warm with syrup.\nKeep the batter cold.", ["cooking", "family"], false),
        ])
        _ = try Self.importSimplenote(third, into: store, in: folder, name: "four")
        #expect(try store.note(id: recipes.id).body
            == "Pancakes: flour, oat milk, eggs.\nServe warm with syrup.\nKeep the batter cold.\nAdded here: a pinch of salt.")
    }

    @Test("a note as its source said it costs a digest; its first change here keeps what the source said, whatever made it")
    func basesCostADigestUntilChanged() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        func keptTitles() throws -> [String?] {
            try store.read { db in try String?.fetchAll(db, sql: "SELECT title FROM import_base ORDER BY title") }
        }
        #expect(try keptTitles() == [nil, nil], "no copy of a note as imported")
        let notes = try store.allNotes()
        _ = try store.changeNote(id: try #require(notes["Recipes"]).id, NoteChanges(isPinned: true))
        #expect(try keptTitles() == [nil, "Recipes"])
        _ = try store.renameTag("cooking", to: "Baking")
        _ = try store.changeNote(id: try #require(notes["Project plan"]).id, NoteChanges(tags: ["work"]))
        #expect(try keptTitles() == ["Project plan", "Recipes"])
        let tags = try store.read { db in try String.fetchAll(db, sql: "SELECT tags FROM import_base ORDER BY title") }
        #expect(tags == ["", "cooking"], "the tags as they were imported, before the rename")
    }

    @Test("a tag renamed or taken off here stays so when the export changes something else")
    func tagRenamedHere() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        _ = try store.renameTag("cooking", to: "Baking")
        let newer = Self.simplenote([
            (Self.recipes, "Recipes\n\nPancakes: flour, milk, eggs.\nServe hot.\nKeep the batter cold.", ["cooking"], false),
        ])
        #expect(try Self.importSimplenote(newer, into: store, in: folder, name: "two").updated.count == 1)
        let recipes = try #require(try store.allNotes()["Recipes"])
        #expect(recipes.tags == ["Baking"] && recipes.body.contains("Serve hot."))

        // A tag taken off here (a note as imported until then) stays off.
        let other = try TemporaryDirectory().store()
        _ = try Self.importSimplenote(Self.first, into: other, in: folder, name: "three")
        let imported = try #require(try other.allNotes()["Recipes"])
        _ = try other.changeNote(id: imported.id, NoteChanges(tags: []))
        #expect(try Self.importSimplenote(newer, into: other, in: folder, name: "four").updated.count == 1)
        let untagged = try other.note(id: imported.id)
        #expect(untagged.tags.isEmpty && untagged.body.contains("Serve hot."))
    }

    @Test("the same line changed on both sides: the export's text in the note, this device's in a conflict copy, nothing lost")
    func conflict() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        let plan = try #require(try store.allNotes()["Project plan"])
        _ = try store.changeNote(id: plan.id, NoteChanges(body: "- [x] write spec\n- [ ] pick a name"))
        let newer = Self.simplenote([(Self.plan, "Project plan\n\n- [ ] write the spec with Ana\n- [ ] pick a name", [], false)])
        let report = try Self.importSimplenote(newer, into: store, in: folder, name: "two")
        #expect(report.updated.count == 1)
        let note = try store.note(id: plan.id)
        #expect(note.body == "- [ ] write the spec with Ana\n- [ ] pick a name")
        #expect(note.sync.status == .conflict)
        let copy = try store.note(id: try #require(try store.conflicts().first?.copyId))
        #expect(copy.body == "- [x] write spec\n- [ ] pick a name")
    }

    @Test("a note in the trash here is not updated: the report says so and nothing changes")
    func trashedHere() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        let plan = try #require(try store.allNotes()["Project plan"])
        _ = try store.trashNotes(ids: [plan.id])
        let trashed = try store.note(id: plan.id)
        let newer = Self.simplenote([(Self.plan, "Project plan\n\n- [x] write spec", [], false)])
        let report = try Self.importSimplenote(newer, into: store, in: folder, name: "two")
        #expect(report.updated.isEmpty && report.imported == 0)
        #expect(report.skipped.map(\.wording) == [Wording("importUpdateInTrash")])
        #expect(try store.note(id: plan.id) == trashed)
    }

    @Test("notes imported before bases were kept: the same export takes them up, and a newer one then updates them")
    func importedBeforeBases() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "one")
        try store.write { db in try db.execute(sql: "DELETE FROM import_base") }
        let changed = Self.simplenote([(Self.plan, "Project plan\n\n- [x] write spec\n- [ ] pick a name", [], false)])
        let unknownBase = try Self.importSimplenote(changed, into: store, in: folder, name: "two")
        #expect(unknownBase.updated.isEmpty && unknownBase.alreadyPresent == 1, "without a base a difference cannot be told from an edit here")

        _ = try Self.importSimplenote(Self.first, into: store, in: folder, name: "three")
        let report = try Self.importSimplenote(changed, into: store, in: folder, name: "four")
        #expect(report.updated.count == 1)
        #expect(try store.allNotes()["Project plan"]?.body == "- [x] write spec\n- [ ] pick a name")
    }

    @Test("a newer Joplin export: a picture added to a note is attached, a note moved to another notebook moves here")
    func joplinPictureAndNotebook() throws {
        typealias J = JoplinFixture
        let (work, home, plan, picture) = (J.id(1), J.id(2), J.id(10), J.id(20))
        let folder = TemporaryDirectory()
        let store = try folder.store()
        let notebooks: [TarFixture.Entry] = [.text("\(work).md", J.folder(work, title: "Work")), .text("\(home).md", J.folder(home, title: "Home"))]
        try TarFixture.write(notebooks + [.text("\(plan).md", J.note(plan, title: "Garden", body: "Dig the beds.", parent: work))],
                             to: folder.file("one.jex"))
        _ = try Importer(store: store).importItems(at: folder.file("one.jex"))
        let png = pngData()
        try TarFixture.write(notebooks + [
            .text("\(plan).md", J.note(plan, title: "Garden", body: "Dig the beds.\n\n![beds.png](:/\(picture))", parent: home)),
            .text("\(picture).md", J.resource(picture, title: "beds.png", mime: "image/png", fileExtension: "png", size: png.count)),
            .file("resources/\(picture).png", png),
        ], to: folder.file("two.jex"))
        let report = try Importer(store: store).importItems(at: folder.file("two.jex"))
        #expect(report.updated.count == 1 && report.imported == 0, "\(report)")
        let note = try #require(try store.allNotes()["Garden"])
        let attachment = try #require(note.attachments.first)
        #expect(note.attachments.count == 1 && attachment.fileName == "beds.png")
        #expect(note.body == "Dig the beds.\n\n![beds.png](attachment:\(attachment.id.key))")
        #expect(try store.folderTree().first { $0.folder.id == note.folderId }?.folder.name == "Home")

        let again = try Importer(store: store).importItems(at: folder.file("two.jex"))
        #expect(again.updated.isEmpty && again.alreadyPresent == 1)
        #expect(try store.allNotes()["Garden"]?.attachments.count == 1)
    }

    @Test("Evernote names no notes: an edited note comes in as a new one, the old one left as it is")
    func evernoteHasNoIds() throws {
        let folder = TemporaryDirectory()
        let store = try folder.store()
        func enex(_ text: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">
            <en-export export-date="20240101T000000Z" application="Evernote" version="10.68.2">
              <note><title>Plan</title><created>20230101T100000Z</created><updated>20230102T100000Z</updated>
                <content><![CDATA[<?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd"><en-note><div>\(text)</div></en-note>]]></content>
              </note>
            </en-export>
            """
        }
        _ = try Importer(store: store).importItems(at: try folder.write(enex("first"), to: "a/Plan.enex"))
        let report = try Importer(store: store).importItems(at: try folder.write(enex("second"), to: "b/Plan.enex"))
        #expect(report.imported == 1 && report.updated.isEmpty)
        #expect(try store.notes(NoteQuery()).count == 2, "two notes titled Plan")
    }
}
