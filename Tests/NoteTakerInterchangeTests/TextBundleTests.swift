import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// TextBundles as Bear 2 and other apps write them: Bear's `.bear2bk` backup (a zip of a
/// `.textbundle` folder per note, `info.json` with Bear's fields, `text.markdown` opening with
/// the title as a heading, pictures in `assets/` linked with percent-encoded names), a
/// `.textpack` (one bundle zipped at its top) and a `.textbundle` folder.
@Suite struct TextBundleTests {
    static func bearInfo(_ id: String, pinned: Int = 0, archived: Int = 0, trashed: Int = 0) -> String {
        """
        {
          "creatorIdentifier" : "net.shinyfrog.bear",
          "net.shinyfrog.bear" : {
            "archived" : \(archived),
            "archivedDate" : "2024-06-14T16:24:38Z",
            "creationDate" : "2024-06-07T10:08:13Z",
            "lastEditingDevice" : "Ada's MacBook",
            "locked" : 0,
            "lockedDate" : null,
            "modificationDate" : "2024-06-14T05:56:56Z",
            "pinned" : \(pinned),
            "pinnedDate" : "2024-06-14T05:57:04Z",
            "pinnedInTagTitles" : [],
            "trashed" : \(trashed),
            "trashedDate" : "2024-06-15T09:00:00Z",
            "uniqueIdentifier" : "\(id)",
            "version" : 3
          },
          "transient" : false,
          "type" : "net.daringfireball.markdown",
          "version" : 2
        }
        """
    }

    static func backup() -> [ZipFixture.Entry] {
        [
            .text("Trip to Lisbon.textbundle/info.json", bearInfo("B1C5CA69-462B-45A9-A063-A046FD2A12A1", pinned: 1)),
            .text("Trip to Lisbon.textbundle/text.markdown", """
                # Trip to Lisbon

                Trams and tiles. #travel/europe #to read# and `#not a tag`

                ![](assets/my%20photo.png)<!-- {"width":300} -->

                The map: [map](map.pdf), and [gone](assets/missing.png).
                """),
            .file("Trip to Lisbon.textbundle/assets/my photo.png", pngData()),
            .text("Trip to Lisbon.textbundle/map.pdf", "%PDF-1.4 map"),
            .text("Trip to Lisbon.textbundle/assets/extra.png", "unused"),
            .text("Old.textbundle/info.json", bearInfo("0A1B2C3D-0000-4000-8000-000000000001", archived: 1)),
            .text("Old.textbundle/text.markdown", "# Old ideas\n\nboats #ideas"),
            .text("Gone.textbundle/info.json", bearInfo("0A1B2C3D-0000-4000-8000-000000000002", trashed: 1)),
            .text("Gone.textbundle/text.markdown", "# Gone\n\nthrown away"),
            .text("Empty.textbundle/info.json", bearInfo("0A1B2C3D-0000-4000-8000-000000000003")),
            .text("Bear Notes 2024-06-15 at 10.00.json", #"{"notes":4}"#),
        ]
    }

    @Test("a Bear backup imports whole: titles, tags with slashes and spaces, pictures and files inside the bundle, pin, archive, trash")
    func bearBackup() throws {
        let folder = TemporaryDirectory()
        let backup = folder.file("Bear Notes 2024-06-15 at 10.00.bear2bk")
        try ZipFixture.write(Self.backup(), to: backup)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: backup)
        #expect(report.kind == .textBundle)
        #expect(report.found == 4 && report.imported == 3, "\(report)")
        #expect(report.skipped.map(\.item) == ["Empty.textbundle"])
        let notes = try store.allNotes()

        let trip = try #require(notes["Trip to Lisbon"])
        #expect(trip.isPinned && trip.tags.sorted() == ["to read", "travel/europe"], "\(trip.tags)")
        #expect(trip.createdAt == Timestamp.date(from: "2024-06-07T10:08:13Z") && trip.modifiedAt == Timestamp.date(from: "2024-06-14T05:56:56Z"))
        let files = trip.attachments.sorted { $0.fileName < $1.fileName }
        #expect(files.map(\.fileName) == ["map.pdf", "my photo.png"])
        #expect(try Data(contentsOf: store.fileURL(for: files[1])) == pngData())
        #expect(trip.text.contains("![my photo.png](attachment:\(files[1].id.key))"))
        #expect(trip.text.contains("[map](attachment:\(files[0].id.key))") && trip.text.contains("[gone](assets/missing.png)"))
        #expect(!trip.text.hasPrefix("# Trip"))
        let warnings = report.warnings.filter { $0.item == "Trip to Lisbon.textbundle" }.map(\.reason)
        #expect(warnings.contains("its link to 'assets/missing.png' names no file inside its bundle; it was left as written"), "\(report.warnings)")
        #expect(warnings.contains("its bundle's file 'extra.png' is shown by no link; it was not imported"))

        let old = try #require(notes["Old ideas"])
        #expect(try store.folderPath(id: #require(old.folderId)) == "Archive" && old.tags == ["ideas"])
        #expect(try #require(notes["Gone"]).isTrashed)

        let again = try Importer(store: store).importItems(at: backup)
        #expect(again.imported == 0 && again.alreadyPresent == 3, "\(again)")
    }

    @Test("a .textpack and a .textbundle folder from another app: the bundle's name is the title without a heading")
    func textpackAndFolder() throws {
        let folder = TemporaryDirectory()
        let pack = folder.file("Draft.textpack")
        try ZipFixture.write([
            .text("info.json", #"{"version":2,"type":"net.daringfireball.markdown","creatorIdentifier":"com.ulyssesapp.mac","transient":false}"#),
            .text("text.md", "Chapter one. ![figure](assets/fig.png)"),
            .file("assets/fig.png", pngData()),
        ], to: pack)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: pack)
        #expect(report.kind == .textBundle && report.imported == 1, "\(report)")
        let draft = try #require(try store.allNotes()["Draft"])
        #expect(draft.text.hasPrefix("Chapter one. ![figure](attachment:") && draft.attachments.count == 1)

        try folder.write(#"{"version":2,"type":"net.daringfireball.markdown"}"#, to: "Letter.textbundle/info.json")
        try folder.write("# Dear Ada\n\nSee ![](../outside.png) #letters", to: "Letter.textbundle/text.md")
        try folder.write("secret", to: "outside.png")
        let letter = try Importer(store: store).importItems(at: folder.file("Letter.textbundle"))
        #expect(letter.imported == 1, "\(letter)")
        let note = try #require(try store.allNotes()["Dear Ada"])
        #expect(note.tags == ["letters"] && note.attachments.isEmpty && note.text.contains("![](../outside.png)"))
        #expect(letter.warnings.map(\.reason) == ["its link to '../outside.png' names no file inside its bundle; it was left as written"])
    }

    @Test("a .textpack holding no bundle is refused, changing nothing")
    func noBundle() throws {
        let folder = TemporaryDirectory()
        let pack = folder.file("Empty.textpack")
        try ZipFixture.write([.text("notes/readme.txt", "hello")], to: pack)
        let store = try folder.store()
        #expect(throws: InterchangeError.badExport(path: pack.path, reason: Wording("reasonTextBundleNone"))) {
            try Importer(store: store).importItems(at: pack)
        }
        #expect(try store.noteCount() == 0)
    }

    @Test("Bear's spaced tags: closed by '#', not in code, not across lines")
    func spacedTags() {
        let found = BearTags.spacedTags(in: "#to read# and #a b c#, #open\nline# x#y z# \n```\n#in code#\n```")
        #expect(found.tags == ["to read", "a b c"])
        #expect(!found.remaining.contains("#to read#") && found.remaining.contains("#open"))
    }
}
