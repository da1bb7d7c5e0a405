import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Google Keep exports from Google Takeout, shaped as Takeout writes them: a `Takeout/Keep`
/// folder with a JSON and an HTML file per note (named after the title, or after the time
/// for an untitled note), the pictures beside them, and `Labels.txt`.
@Suite struct KeepTests {
    /// 2024-03-13 14:40:00 UTC and an edit 1 h 33 min later, in microseconds.
    static let created: Int64 = 1_710_340_800_000_000
    static let edited: Int64 = 1_710_346_380_123_456

    /// A note's JSON as Takeout writes it; `minutes` after ``created`` it was made.
    static func json(_ fields: String, minutes: Int64 = 0) -> String {
        """
        {"color":"DEFAULT","isTrashed":false,"isPinned":false,"isArchived":false,\(fields),\
        "userEditedTimestampUsec":\(edited),"createdTimestampUsec":\(created + minutes * 60_000_000)}
        """
    }

    static let plainHTML = #"<p dir=\"ltr\" style=\"line-height:1.38;margin-top:0.0pt;margin-bottom:0.0pt;\"><span style=\"font-size:7.2pt;font-weight:400;font-style:normal;\">Call the plumber</span></p>"#
    static let boldHTML = #"<p dir=\"ltr\"><span style=\"font-weight:700;\">Passport</span></p>"#

    static func takeout(photo: Data = pngData()) -> [ZipFixture.Entry] {
        [
            .text("Takeout/archive_browser.html", "<html><body>Takeout</body></html>"),
            .text("Takeout/Keep/Home.json", json(#""textContent":"Call the plumber\r\nabout the sink","textContentHtml":"\#(plainHTML)","title":"Home","labels":[{"name":"House"}]"#)),
            .text("Takeout/Keep/Home.html", "<html><body><div class=\"title\">Home</div></body></html>"),
            // "Free range" is an item nested under "Eggs" in Keep: Takeout writes a list flat, a
            // child after its parent, with no parent or indent field, so it comes in as written.
            .text("Takeout/Keep/Groceries.json", """
                {"attachments":[{"filePath":"16c9b0a1e2f.3a4b5c6d7e8f9.jpeg","mimetype":"image/jpeg"}],"color":"YELLOW",\
                "isTrashed":false,"isPinned":true,"isArchived":false,"listContent":[{"textHtml":"Milk","text":"Milk","isChecked":false},\
                {"textHtml":"Eggs","text":"Eggs","isChecked":true},{"textHtml":"Free range","text":"Free range","isChecked":true}],\
                "title":"Groceries","userEditedTimestampUsec":"\(edited)","createdTimestampUsec":"\(created + 1)",\
                "labels":[{"name":"Shopping"},{"name":"House"}],"sharees":[{"isOwner":true,"type":"WRITER","email":"ada@example.com"},\
                {"isOwner":false,"type":"WRITER","email":"bob@example.com"}],\
                "annotations":[{"description":"Recipes","source":"WEBLINK","title":"Pancakes","url":"https://example.com/pancakes?x=1"}]}
                """),
            .file("Takeout/Keep/16c9b0a1e2f.3a4b5c6d7e8f9.jpg", photo),
            .text("Takeout/Keep/Old ideas.json", json(#""textContent":"Boat","title":"Old ideas","isArchived":true,"labels":[]"#, minutes: 2)
                .replacingOccurrences(of: #""isArchived":false,"#, with: "")),
            .text("Takeout/Keep/Gone.json", json(#""textContent":"Thrown away","title":"Gone","isTrashed":true"#, minutes: 3)
                .replacingOccurrences(of: #""isTrashed":false,"#, with: "")),
            .text("Takeout/Keep/2024-03-13T15_40_00.000+01_00.json", json(#""textContent":"No title here","title":"""#, minutes: 4)),
            .text("Takeout/Keep/Trip.json", json(#""textContent":"Pack","textContentHtml":"\#(boldHTML)","title":"Trip","reminder":{"at":"tomorrow"},"origin":"android""#, minutes: 5)),
            .text("Takeout/Keep/Labels.txt", "House\nShopping\n"),
            .file("Takeout/Keep/stray.png", pngData(side: 2)),
            .text("Takeout/Keep/Broken.json", "{\"title\": \"Broken\", \"textContent\": "),
        ]
    }

    @Test("a Takeout imports whole: text, checklists, labels, pin, archive, trash, colour, sharing, links, dates, pictures")
    func takeout() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("takeout-20240313T154000Z-001.zip")
        try ZipFixture.write(Self.takeout(), to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.kind == .googleKeep)
        #expect(report.found == 7 && report.imported == 6, "\(report)")
        #expect(report.skipped.map(\.item) == ["Takeout/Keep/Broken.json"])
        let notes = try store.allNotes()

        let home = try #require(notes["Home"])
        #expect(home.body == "Call the plumber\nabout the sink")
        #expect(home.tags == ["House"] && !home.isPinned && home.folderId == nil && !home.isTrashed)
        #expect(home.createdAt == Date(timeIntervalSince1970: 1_710_340_800))
        #expect(abs(home.modifiedAt.timeIntervalSince1970 - 1_710_346_380.123) < 0.001)

        let groceries = try #require(notes["Groceries"])
        #expect(groceries.isPinned && groceries.tags == ["House", "Shopping"])
        #expect(groceries.text.contains("- [ ] Milk\n- [x] Eggs\n- [x] Free range"))
        let photo = try #require(groceries.attachments.first)
        #expect(photo.fileName == "16c9b0a1e2f.3a4b5c6d7e8f9.jpg")
        #expect(try Data(contentsOf: store.fileURL(for: photo)) == pngData())
        #expect(groceries.text.contains("![16c9b0a1e2f.3a4b5c6d7e8f9.jpg](attachment:\(photo.id.key))"))
        #expect(groceries.text.contains("- [Pancakes](<https://example.com/pancakes?x=1>)"))
        #expect(groceries.body.contains(#"color: "yellow""#))
        #expect(groceries.body.contains(#"shared-with: "ada@example.com (owner), bob@example.com""#))

        let archived = try #require(notes["Old ideas"])
        #expect(try store.folderPath(id: #require(archived.folderId)) == "Archive")
        #expect(try #require(notes["Gone"]).isTrashed)
        #expect(try #require(notes[""]).body == "No title here")

        let trip = try #require(notes["Trip"])
        #expect(trip.body.contains(#"origin: "android""#))
        let tripWarnings = report.warnings.filter { $0.item == "Takeout/Keep/Trip.json" }.map(\.reason)
        #expect(tripWarnings.contains("its field 'reminder' (a list or an object) was not kept"), "\(report.warnings)")
        #expect(tripWarnings.contains("its formatting (bold, italics, headings) came in as plain text"))
        // The HTML copies, Labels.txt and the pictures notes name are expected; the stray file is named.
        #expect(report.warnings.filter { $0.reason.hasPrefix("no note names this file") }.map(\.item) == ["Takeout/Keep/stray.png"])
        #expect(!report.warnings.contains { $0.item == "Takeout/Keep/Home.json" })
    }

    @Test("a Takeout in parts is read as one: a note's picture found in another part, from any part or a folder of them")
    func parts() throws {
        let folder = TemporaryDirectory()
        let entries = Self.takeout()
        let picture = entries.filter { if case .file(let path, _) = $0 { path.hasSuffix(".jpg") } else { false } }
        let first = folder.file("takeout-20240313T154000Z-001.zip"), second = folder.file("takeout-20240313T154000Z-002.zip")
        try ZipFixture.write(entries.filter { if case .file(let path, _) = $0 { !path.hasSuffix(".jpg") } else { true } }, to: first)
        try ZipFixture.write(picture + [.text("Takeout/Keep/Later.json", Self.json(#""textContent":"in part two","title":"Later""#, minutes: 9))], to: second)
        try folder.write("not a part", to: "takeout-20240313T154000Z-notes.txt")
        for input in [second, first] {
            let store = try folder.store(UUID().uuidString)
            let report = try Importer(store: store).importItems(at: input)
            #expect(report.kind == .googleKeep && report.imported == 7, "\(report)")
            #expect(!report.warnings.contains { $0.reason.hasPrefix("its attachment") }, "\(report.warnings)")
            #expect(try store.allNotes()["Groceries"]?.attachments.count == 1)
        }
        let partsFolder = TemporaryDirectory()
        for part in [first, second] { try FileManager.default.copyItem(at: part, to: partsFolder.file(part.lastPathComponent)) }
        let store = try folder.store("from-folder")
        #expect(try Importer(store: store).importItems(at: partsFolder.url).imported == 7)

        let drive = folder.file("takeout-20240101T000000Z-001.zip")
        try ZipFixture.write([.text("Takeout/Drive/readme.txt", "hello")], to: drive)
        #expect(throws: InterchangeError.badExport(path: drive.path, reason: Wording("reasonKeepNoNotes"))) {
            try Importer(store: store).importItems(at: drive)
        }
    }

    @Test("importing the same Takeout twice adds nothing")
    func twice() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("takeout.zip")
        try ZipFixture.write(Self.takeout(), to: zip)
        let store = try folder.store()
        _ = try Importer(store: store).importItems(at: zip)
        let again = try Importer(store: store).importItems(at: zip)
        #expect(again.imported == 0 && again.alreadyPresent == 6, "\(again)")
        #expect(try store.noteCount() == 6)
    }

    @Test("a picture named after its note is found by its stem, not mistaken for the note's own JSON")
    func pictureNamedLikeItsNote() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("takeout.zip")
        try ZipFixture.write([
            .text("Takeout/Keep/Sketch.json", Self.json(#""attachments":[{"filePath":"Sketch.jpeg","mimetype":"image/jpeg"}],"title":"Sketch""#)),
            .text("Takeout/Keep/Sketch.html", "<html></html>"),
            .file("Takeout/Keep/Sketch.jpg", pngData()),
        ], to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.imported == 1 && report.warnings.isEmpty, "\(report)")
        let picture = try #require(try store.allNotes()["Sketch"]?.attachments.first)
        #expect(picture.fileName == "Sketch.jpg")
        #expect(try Data(contentsOf: store.fileURL(for: picture)) == pngData())
    }

    @Test("an attachment missing from the export is named; the note still comes in")
    func missingAttachment() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("takeout.zip")
        try ZipFixture.write([.text("Takeout/Keep/Sketch.json", Self.json(
            #""attachments":[{"filePath":"drawing.png","mimetype":"image/png"}],"textContent":"see drawing","title":"Sketch""#))], to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.imported == 1)
        #expect(report.warnings.map(\.reason) == ["its attachment 'drawing.png' is not in the export"])
        #expect(try store.allNotes()["Sketch"]?.attachments.isEmpty == true)
    }
}
