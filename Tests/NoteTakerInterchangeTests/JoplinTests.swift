import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Joplin exports (`.jex`) as Joplin writes them: a tar of RAW items at the top and resources
/// in `resources/`, in whatever order the exporter met them (a sub-notebook before its parent).
@Suite struct JoplinTests {
    typealias J = JoplinFixture
    static let work = J.id(1), projects = J.id(2), trashed = J.id(3)
    static let plan = J.id(10), todo = J.id(11), done = J.id(12), html = J.id(13), conflict = J.id(14), binned = J.id(15)
    static let picture = J.id(20), blob = J.id(21), stray = J.id(22), ghost = J.id(23)
    static let travel = J.id(30), urgent = J.id(31)

    static func export() -> [TarFixture.Entry] {
        let png = pngData()
        return [
            .text("\(projects).md", J.folder(projects, title: "Projects / 2023", parent: work, fields: ["icon": #"{"emoji":"🚀","name":"rocket","type":1}"#])),
            .text("\(plan).md", J.note(plan, title: "Launch plan", body: """
                The plan, with a picture:

                ![diagram.png](:/\(picture))

                The [checklist](:/\(todo)) and the [spec](:/\(blob)), a [lost link](:/\(ghost)).
                """, parent: projects, fields: [
                    "author": "Ada Lovelace", "source_url": "https://example.com/a?b=1", "latitude": "52.37021700", "longitude": "4.89516800",
                    "user_data": #"{"app":{"k":"v\nw"}}"#.replacingOccurrences(of: "\n", with: "\\n"),
                ])),
            .text("\(work).md", J.folder(work, title: "Work")),
            .text("\(todo).md", J.note(todo, title: "Book the venue", body: "Call them on Monday.", parent: projects, fields: [
                "is_todo": "1", "todo_due": "1700000000000",
            ])),
            .text("\(done).md", J.note(done, title: "Send invites", body: "", parent: work, fields: [
                "is_todo": "1", "todo_completed": "1690000000000",
            ])),
            .text("\(html).md", J.note(html, title: "Clipped page", body: #"<p>Clipped <img src=":/\#(picture)"/></p>"#, parent: work, fields: [
                "markup_language": "2", "source_url": "https://example.org/page",
            ])),
            .text("\(conflict).md", J.note(conflict, title: "Launch plan", body: "the other version", parent: projects, fields: [
                "is_conflict": "1", "conflict_original_id": plan,
            ])),
            .text("\(trashed).md", J.folder(trashed, title: "Old", fields: ["deleted_time": "1695000000000"])),
            .text("\(binned).md", J.note(binned, title: "Thrown away", body: "gone", parent: trashed, fields: ["deleted_time": "1695000000000"])),
            .text("\(picture).md", J.resource(picture, title: "diagram.png", mime: "image/png", fileExtension: "png", size: png.count)),
            .text("\(blob).md", J.resource(blob, title: "spec", mime: "application/octet-stream", fileExtension: "", size: 5)),
            .text("\(stray).md", J.resource(stray, title: "unused.txt", mime: "text/plain", fileExtension: "txt", size: 3)),
            .text("\(travel).md", J.tag(travel, title: "travel")),
            .text("\(urgent).md", J.tag(urgent, title: "urgent")),
            .text("\(J.id(40)).md", J.noteTag(J.id(40), note: plan, tag: travel)),
            .text("\(J.id(41)).md", J.noteTag(J.id(41), note: plan, tag: urgent)),
            .text("\(J.id(42)).md", J.noteTag(J.id(42), note: todo, tag: urgent)),
            .text("\(J.id(43)).md", J.noteTag(J.id(43), note: todo, tag: J.id(99))),
            .file("resources/\(picture).png", png),
            .text("resources/\(blob)", "bytes"),
            .text("resources/\(stray).txt", "abc"),
        ]
    }

    @Test("an export imports whole: nested notebooks, tags, resources in place, links by id, to-dos, trash, conflicts left out")
    func export() throws {
        let folder = TemporaryDirectory()
        let jex = folder.file("Joplin Export.jex")
        try TarFixture.write(Self.export(), to: jex)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: jex)
        #expect(report.kind == .joplin)
        #expect(report.found == 5 && report.imported == 5 && report.skipped.isEmpty, "\(report)")
        let warnings = Set(report.warnings.map(\.reason))
        #expect(warnings.contains("its link to ':/\(Self.ghost)' names nothing in the export; it was left as written"))
        #expect(warnings.contains { $0.hasPrefix("it is in Joplin's Conflicts notebook") })
        #expect(warnings.contains("its text is HTML (a web clip or a note made in HTML); it was kept as written"))
        #expect(report.warnings.contains { $0.item == "resources/\(Self.stray).txt" && $0.reason == "no note shows this file; it was not imported" })
        #expect(report.warnings.contains { $0.item == "\(J.id(43)).md" && $0.reason.hasPrefix("this tag link names a note or a tag") })

        let tree = try store.folderTree()
        let work = try #require(tree.first { $0.folder.name == "Work" })
        #expect(work.children.map(\.folder.name) == ["Projects ∕ 2023"])
        #expect(work.children.first?.folder.icon == "🚀")
        #expect(!tree.contains { $0.folder.name == "Old" })

        let notes = try store.allNotes()
        let plan = try #require(notes["Launch plan"])
        let todo = try #require(notes["Book the venue"])
        #expect(plan.folderId == work.children.first?.folder.id)
        #expect(plan.tags.sorted() == ["travel", "urgent"] && todo.tags == ["urgent"])
        #expect(plan.createdAt == Timestamp.date(from: J.created) && plan.modifiedAt == Timestamp.date(from: J.updated))
        let attachments = try store.attachments(noteId: plan.id)
        #expect(attachments.map(\.fileName).sorted() == ["diagram.png", "spec"])
        let diagram = try #require(attachments.first { $0.fileName == "diagram.png" })
        #expect(plan.body.contains("![diagram.png](attachment:\(diagram.id.key))"))
        #expect(plan.body.contains("[checklist](note:\(todo.id.key))"))
        #expect(plan.body.contains("[lost link](:/\(Self.ghost))"))
        #expect(plan.body.contains(#"author: "Ada Lovelace""#) && plan.body.contains(#"source_url: "https://example.com/a?b=1""#))
        #expect(plan.body.contains(#"location: "52.37021700, 4.89516800, 0.0000""#))
        // A field's escaped newline comes back a newline, written in the properties block's quoting.
        #expect(plan.body.contains(#"user_data: "{\"app\":{\"k\":\"v\nw\"}}""#), "\(plan.body)")
        #expect(!plan.body.contains("source_application") && !plan.body.contains("is_conflict"))

        #expect(todo.body.contains("todo: open") && todo.body.contains(#"due: "2023-11-14T22:13:20.000Z""#))
        #expect(todo.body.hasSuffix("- [ ] Book the venue\n\nCall them on Monday."))
        let sent = try #require(notes["Send invites"])
        #expect(sent.body.contains("todo: done") && sent.body.hasSuffix("- [x] Send invites"))
        let clipped = try #require(notes["Clipped page"])
        let clippedPicture = try #require(try store.attachments(noteId: clipped.id).first)
        #expect(clipped.body.contains(#"<img src="attachment:\#(clippedPicture.id.key)"/>"#))

        let bin = try store.trashedNotes()
        #expect(bin.map(\.title) == ["Thrown away"] && bin.first?.folderId == nil)
        #expect(notes.values.filter { $0.title == "Launch plan" }.count == 1)
    }

    @Test("importing the same export twice adds nothing")
    func twice() throws {
        let folder = TemporaryDirectory()
        let jex = folder.file("export.jex")
        try TarFixture.write(Self.export(), to: jex)
        let store = try folder.store()
        _ = try Importer(store: store).importItems(at: jex)
        let again = try Importer(store: store).importItems(at: jex)
        #expect(again.imported == 0 && again.alreadyPresent == 5, "\(again)")
        #expect(try store.folderTree().count == 1)
    }

    @Test("an encrypted item and a file that is not an item are skipped and named; a tar of something else is refused")
    func damagedItems() throws {
        let folder = TemporaryDirectory()
        let jex = folder.file("export.jex")
        try TarFixture.write([
            .text("\(Self.plan).md", J.note(Self.plan, title: "Kept", body: "text", parent: "")),
            .text("\(Self.todo).md", "id: \(Self.todo)\nencryption_cipher_text: JED01000022…\nencryption_applied: 1\nupdated_time: \(J.updated)\ntype_: 1"),
            .text("\(Self.done).md", "# Just Markdown\n\nno fields"),
        ], to: jex)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: jex)
        #expect(report.imported == 1 && report.skipped.count == 2, "\(report)")
        #expect(report.skipped.contains { $0.item == "\(Self.todo).md" && $0.reason.contains("Tools → Options → Encryption") })
        #expect(report.skipped.contains { $0.item == "\(Self.done).md" && $0.reason.hasPrefix("not an item Joplin wrote") })

        let other = folder.file("other.jex")
        try TarFixture.write([.text("readme.txt", "hello")], to: other)
        #expect(throws: InterchangeError.badExport(path: other.path, reason: Wording("reasonJoplinNoItems"))) {
            try Importer(store: store).importItems(at: other)
        }
    }

    @Test("a long note is found by the fields at its end, and one whose fields are longer than that end by reading it whole")
    func longNotes() throws {
        let folder = TemporaryDirectory()
        let jex = folder.file("export.jex")
        let long = String(repeating: "A line of a long note.\n", count: 400)
        try TarFixture.write([
            .text("\(Self.plan).md", J.note(Self.plan, title: "Long", body: long, parent: Self.work)),
            .text("\(Self.todo).md", J.note(Self.todo, title: "Big fields", body: "short", parent: Self.work, fields: [
                "user_data": String(repeating: "x", count: 3_000), "is_todo": "1",
            ])),
            .text("\(Self.work).md", J.folder(Self.work, title: "Work")),
            .text("\(J.id(40)).md", J.noteTag(J.id(40), note: Self.plan, tag: Self.travel)),
            .text("\(Self.travel).md", J.tag(Self.travel, title: "travel")),
        ], to: jex)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: jex)
        #expect(report.imported == 2 && report.skipped.isEmpty && report.warnings.isEmpty, "\(report)")
        let notes = try store.allNotes()
        let note = try #require(notes["Long"])
        #expect(note.body.trimmingCharacters(in: .newlines) == long.trimmingCharacters(in: .newlines))
        #expect(note.tags == ["travel"] && note.folderId != nil)
        #expect(try #require(notes["Big fields"]).body.hasSuffix("- [ ] Big fields\n\nshort"))
    }

    @Test("RAW items: escaped field values, a title alone, a final newline, no fields")
    func items() throws {
        let item = try #require(JoplinItem(text: "Title\n\nLine one\n\nLine three\n\nid: ABC\nauthor: a\\nb \\\\n c\ntype_: 1\n"))
        #expect(item.title == "Title" && item.body == "Line one\n\nLine three" && item.id == "abc")
        #expect(item.fields["author"] == "a\nb \\n c")
        let folder = try #require(JoplinItem(text: "Only a title\n\nid: x\ntype_: 2"))
        #expect(folder.title == "Only a title" && folder.body.isEmpty && folder.kind == .folder)
        #expect(JoplinItem(text: "no fields at all") == nil)
        #expect(JoplinItem(text: "Title\n\nid: x") == nil)
        #expect(JoplinLinks.ids(in: "[a](:/\(Self.plan)) :/\(Self.plan)0 ![b](:/\(Self.todo.uppercased()))") == [Self.plan, Self.todo])
    }
}
