import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Notion's "Markdown & CSV" export as Notion writes it: every page a `.md` named by its title and
/// 32-hex id, starting with its title as a heading; subpages, pictures and databases in a folder
/// of the page's name; a database as `Name id.csv` and `Name id_all.csv` (with a byte-order mark),
/// its rows' pages in a folder of its name with their properties under the title; links relative
/// and percent-encoded. Newer exports come as a zip holding `Export-…-Part-1.zip`.
@Suite struct NotionTests {
    static let home = "Home 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d", meetingA = "Meeting 0123456789abcdef0123456789abcdef"
    static let meetingB = "Meeting fedcba9876543210fedcba9876543210", tasks = "Tasks 00112233445566778899aabbccddeeff"
    static let row = "Write spec 99887766554433221100ffeeddccbbaa"

    static func export() -> [ZipFixture.Entry] {
        [
            .text("\(home).md", """
                # Home

                Start here. See [Meeting](Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Meeting%200123456789abcdef0123456789abcdef.md) \
                and the [other meeting](Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Meeting%20fedcba9876543210fedcba9876543210.md).

                ![diagram.png](Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/diagram.png)

                [Tasks](Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Tasks%2000112233445566778899aabbccddeeff.csv)
                [gone](Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Nothing%20here.md) and [web](https://www.notion.so/abc)
                """),
            .text("\(home)/\(meetingA).md", "# Meeting\n\nMonday: back to [Home](../Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md)."),
            .text("\(home)/\(meetingB).md", "# Meeting\n\nThursday."),
            .file("\(home)/diagram.png", pngData()),
            .text("\(home)/\(tasks).csv", "\u{FEFF}Name,Status\nWrite spec,Done\n"),
            .text("\(home)/\(tasks)_all.csv", "\u{FEFF}Name,Status,Notes\nWrite spec,Done,\"first, then \"\"review\"\"\"\nShip,Not started,\"two\nlines\"\n"),
            .text("\(home)/\(tasks)/\(row).md", "# Write spec\n\nStatus: Done\nAssignee: Ada Lovelace\n\nThe spec itself."),
        ]
    }

    @Test("an export imports whole: ids out of names, subpages in folders, links by id, pictures, databases as tables with their rows")
    func export() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("Export-4f3e2d1c-0b9a-8f7e-6d5c-4b3a2f1e0d9c.zip")
        try ZipFixture.write(Self.export(), to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.kind == .notion)
        #expect(report.found == 5 && report.imported == 5 && report.skipped.isEmpty, "\(report)")
        #expect(report.linksKept == 4 && report.linksUnresolved == 1, "\(report)")
        #expect(report.warnings.map(\.reason) == ["its link to 'Home%201a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Nothing%20here.md' names nothing in the export; it was left as written"])
        var notes: [Note] = []
        try store.forEachNote(in: NoteSelection()) { notes += $0 }
        let home = try #require(notes.first { $0.title == "Home" })
        let meetings = notes.filter { $0.title == "Meeting" }.sorted { $0.text < $1.text }
        let tasks = try #require(notes.first { $0.title == "Tasks" })
        #expect(meetings.count == 2 && home.folderId == nil)
        #expect(try store.folderPath(id: #require(meetings.first?.folderId)) == "Home")
        #expect(home.text.contains("[Meeting](note:\(meetings[0].id.key))") && home.text.contains("[other meeting](note:\(meetings[1].id.key))"))
        #expect(home.text.contains("[Tasks](note:\(tasks.id.key))") && home.text.contains("[web](https://www.notion.so/abc)"))
        #expect(meetings[0].text.contains("[Home](note:\(home.id.key))"))
        let picture = try #require(home.attachments.first)
        #expect(picture.fileName == "diagram.png" && home.text.contains("![diagram.png](attachment:\(picture.id.key))"))
        #expect(tasks.text == "| Name | Status | Notes |\n| --- | --- | --- |\n| Write spec | Done | first, then \"review\" |\n| Ship | Not started | two<br>lines |")
        let row = try #require(notes.first { $0.title == "Write spec" })
        #expect(try store.folderPath(id: #require(row.folderId)) == "Home/Tasks")
        #expect(row.body.contains(#""Assignee": "Ada Lovelace""#) && row.text == "The spec itself.", "\(row.body)")

        let again = try Importer(store: store).importItems(at: zip)
        #expect(again.imported == 0 && again.alreadyPresent == 5, "\(again)")
    }

    @Test("an export zipped again in parts, as Notion now sends it, is one import: links and pictures across parts found")
    func zipOfZips() throws {
        let folder = TemporaryDirectory()
        let entries = Self.export()
        let first = folder.file("part1.zip"), second = folder.file("part2.zip")
        try ZipFixture.write(Array(entries.prefix(1)), to: first)
        try ZipFixture.write(Array(entries.dropFirst()), to: second)
        let outer = folder.file("Export-4f3e2d1c.zip")
        try ZipFixture.write([
            .file("Export-4f3e2d1c-Part-1.zip", try Data(contentsOf: first)), .file("Export-4f3e2d1c-Part-2.zip", try Data(contentsOf: second)),
        ], to: outer)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: outer)
        #expect(report.kind == .notion && report.imported == 5 && report.linksKept == 4, "\(report)")
        #expect(try store.allNotes()["Home"]?.attachments.count == 1)
    }

    @Test("a zip of Notion's parts holding no page is refused, changing nothing")
    func noPages() throws {
        let folder = TemporaryDirectory()
        let outer = folder.file("Export-4f3e2d1c.zip"), inner = folder.file("inner.zip")
        try ZipFixture.write([.text("readme.txt", "hello")], to: inner)
        try ZipFixture.write([.file("Export-4f3e2d1c-Part-1.zip", try Data(contentsOf: inner))], to: outer)
        let store = try folder.store()
        #expect(throws: InterchangeError.badExport(path: outer.path, reason: Wording("reasonNotionNoPages"))) {
            try Importer(store: store).importItems(at: outer)
        }
        #expect(try store.noteCount() == 0)
    }

    @Test("names: the id is taken off titles and folders; CSV quoting")
    func names() {
        #expect(NotionPath.split("Roadmap 2024 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md") == ("Roadmap 2024", "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"))
        #expect(NotionPath.split("Tasks 00112233445566778899aabbccddeeff_all.csv").title == "Tasks")
        #expect(NotionPath.split("Notes.md") == ("Notes", nil))
        #expect(NotionPath.folders("Home \(String(repeating: "a", count: 32))/Sub \(String(repeating: "b", count: 32))") == "Home/Sub")
        #expect(CSVTable.rows("a,\"b,c\"\r\n\"x\"\"y\",\n") == [["a", "b,c"], ["x\"y", ""]])
        #expect(ArchivePath.resolve("../a/./b.md", from: "x/y") == "x/a/b.md" && ArchivePath.resolve("../../a.md", from: "x") == nil)
    }
}
