import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Simplenote exports as "Export Notes" writes them: a zip with `source/notes.json` (pretty
/// printed, every line ending `\r\n`, inside the notes too) and a `.txt` per note (its tags
/// appended), the trashed ones under `trash/`.
@Suite struct SimplenoteTests {
    static let notesJSON = """
        {
          "activeNotes": [
            {
              "id": "0c1f3d6b4a8e4f21a9d7c2b5e6f80911",
              "content": "Recipes\\r\\n\\r\\nPancakes: flour, milk, eggs.\\r\\nServe warm.",
              "creationDate": "2021-05-04T09:15:30.000Z",
              "lastModified": "2023-11-20T18:02:11.482Z",
              "pinned": true,
              "tags": [
                "cooking",
                "family"
              ]
            },
            {
              "id": "5be1c0a3f9d24e7c8b6a1d2e3f405162",
              "content": "\\r\\n  # Project plan\\r\\n- [ ] write spec\\r\\n- [x] pick a name",
              "creationDate": "2022-01-10T08:00:00.000Z",
              "lastModified": "2022-01-11T08:00:00.000Z",
              "markdown": true,
              "publicURL": "http://simp.ly/p/AbCdEf",
              "collaboratorEmails": [
                "bob@example.com"
              ]
            },
            {
              "id": "9f8e7d6c5b4a49382716a5b4c3d2e1f0",
              "content": "\(String(repeating: "A very long first line that is really a paragraph ", count: 4))\\r\\nSecond line.",
              "creationDate": "2020-02-29T12:00:00.000Z",
              "lastModified": "2020-02-29T12:00:00.000Z"
            },
            {
              "content": "no id"
            }
          ],
          "trashedNotes": [
            {
              "id": "aa11bb22cc33dd44ee55ff6677889900",
              "content": "Old list\\r\\nthings",
              "creationDate": "2019-07-01T10:00:00.000Z",
              "lastModified": "2019-08-01T10:00:00.000Z",
              "deleted": true
            }
          ]
        }
        """.replacingOccurrences(of: "\n", with: "\r\n")

    static func export() -> [ZipFixture.Entry] {
        [
            .text("source/notes.json", notesJSON),
            .text("Recipes.txt", "Recipes\r\n\r\nPancakes: flour, milk, eggs.\r\nServe warm.\n\nTags:\n  cooking, family"),
            .text("-- Project plan.txt", "# Project plan"),
            .text("trash/Old list.txt", "Old list\r\nthings"),
        ]
    }

    @Test("an export imports whole: titles as Simplenote shows them, bodies, tags, pins, trash, dates, links")
    func export() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("notes.zip")
        try ZipFixture.write(Self.export(), to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.kind == .simplenote)
        #expect(report.found == 5 && report.imported == 4, "\(report)")
        #expect(report.skipped.map(\.reason) == ["it has no id or no content"])
        let notes = try store.allNotes()

        let recipes = try #require(notes["Recipes"])
        #expect(recipes.body == "Pancakes: flour, milk, eggs.\nServe warm.")
        #expect(recipes.isPinned && recipes.tags == ["cooking", "family"])
        #expect(recipes.createdAt == Timestamp.date(from: "2021-05-04T09:15:30.000Z"))
        #expect(recipes.modifiedAt == Timestamp.date(from: "2023-11-20T18:02:11.482Z"))

        let plan = try #require(notes["Project plan"])
        #expect(plan.text == "- [ ] write spec\n- [x] pick a name")
        #expect(plan.body.contains(#"published: "http://simp.ly/p/AbCdEf""#))
        #expect(plan.body.contains(#"shared-with: "bob@example.com""#))

        let long = try #require(notes.values.first { $0.title.hasPrefix("A very long first line") })
        #expect(long.title == "A very long first line that is really a paragraph A very long…")
        #expect(long.body.hasPrefix("A very long first line that is really a paragraph A very long first line"))
        #expect(long.body.hasSuffix("\nSecond line."))

        let old = try #require(notes["Old list"])
        #expect(old.isTrashed && old.body == "things")
        #expect(old.trashedAt == Timestamp.date(from: "2019-08-01T10:00:00.000Z"))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test("notes.json alone imports the same; twice adds nothing")
    func notesFile() throws {
        let folder = TemporaryDirectory()
        let file = try folder.write(Self.notesJSON, to: "notes.json")
        let store = try folder.store()
        let first = try Importer(store: store).importItems(at: file)
        #expect(first.kind == .simplenote && first.imported == 4, "\(first)")
        let again = try Importer(store: store).importItems(at: file)
        #expect(again.imported == 0 && again.alreadyPresent == 4)
    }

    @Test("a notes.json that is not JSON is refused, naming the file")
    func damaged() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("notes.zip")
        try ZipFixture.write([.text("source/notes.json", "{\"activeNotes\": [")], to: zip)
        #expect(throws: InterchangeError.badExport(path: zip.path, reason: Wording("reasonSimplenoteNotJSON"))) {
            try Importer(store: folder.store()).importItems(at: zip)
        }
    }

    @Test("a notes.json without Simplenote's lists is refused, not read as an export of no notes")
    func notAnExport() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("notes.zip")
        try ZipFixture.write([.text("source/notes.json", #"{"notes": [{"id": "1", "content": "x"}]}"#)], to: zip)
        let store = try folder.store()
        #expect(throws: InterchangeError.badExport(path: zip.path, reason: Wording("reasonSimplenoteNoNotes"))) {
            try Importer(store: store).importItems(at: zip)
        }
        #expect(try store.noteCount() == 0)
    }

    @Test("the title is the first line that is not blank; a Markdown note's heading marks are left out")
    func titles() {
        #expect(SimplenoteImporter.split("\n \nTitle  \nbody", markdown: false) == ("Title", "body"))
        #expect(SimplenoteImporter.split("## Heading\n\n\ntext", markdown: true) == ("Heading", "text"))
        #expect(SimplenoteImporter.split("## Heading", markdown: false) == ("## Heading", ""))
        #expect(SimplenoteImporter.split("#hashtag first", markdown: true) == ("#hashtag first", ""))
        #expect(SimplenoteImporter.split("", markdown: true) == ("", ""))
    }
}
