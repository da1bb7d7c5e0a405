import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

@Suite struct MarkdownExportTests {
    @Test func foldersBecomeDirectoriesWithFrontMatterAndAssets() throws {
        let directory = TemporaryDirectory()
        let store = try JSONRoundTripTests.sampleStore(in: directory)
        let out = directory.file("md")
        let report = try Exporter(store: store).export(.markdown, to: out)
        #expect(report.notes == 2, "the trash is not exported as Markdown")
        let files = try contents(of: out)
        #expect(files.keys.sorted() == ["Unfiled.md", "Work/Projects/Café plans.md", "assets/notes.txt", "assets/red square.png"])
        let text = String(decoding: try #require(files["Work/Projects/Café plans.md"]), as: UTF8.self)
        #expect(text.hasPrefix("---\nid: "))
        #expect(text.contains("title: \"Café plans\"\ntags:\n  - \"Errands\"\n  - \"Food & Drink\"\n"))
        #expect(text.contains("\npinned: true\n---\n# Menu"))
        #expect(text.contains("![red](../../assets/red%20square.png)"), "the body's link points at the exported file")
        #expect(text.contains("[notes.txt](../../assets/notes.txt)"), "an attachment the body does not mention is linked at the end")
        #expect(files["assets/red square.png"] == pngData())
    }

    @Test func namesAreSafeEverywhereAndClashesResolved() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        for title in ["Plans", "plans", "a/b: c?", "CON", "..hidden", "", "   ", String(repeating: "é", count: 300)] {
            try store.make(title)
        }
        let out = directory.file("md")
        _ = try Exporter(store: store).export(.markdown, to: out)
        let names = try contents(of: out).keys.sorted()
        #expect(names.contains("Plans.md") && names.contains("plans (2).md"))
        #expect(names.contains("a-b- c-.md"))
        #expect(names.contains("_CON.md"))
        #expect(names.contains("hidden.md"))
        #expect(names.contains("Untitled.md") && names.contains("Untitled (2).md"))
        #expect(names.allSatisfy { $0.utf8.count <= 130 && !$0.hasPrefix(".") })
        #expect(names.count == 8)
    }

    @Test func markdownExportReadsBackWithTheSameNotes() throws {
        let directory = TemporaryDirectory()
        let source = try JSONRoundTripTests.sampleStore(in: directory)
        _ = try Exporter(store: source).export(.markdown, to: directory.file("md"))
        let copy = try directory.store("copy")
        let report = try Importer(store: copy).importItems(at: directory.file("md"))
        #expect(report.kind == .markdown && report.imported == 2 && report.skipped.isEmpty && report.warnings.isEmpty)
        let original = try #require(try source.allNotes()["Café plans"])
        let note = try #require(try copy.allNotes()["Café plans"])
        #expect(note.id == original.id && note.isPinned && note.tags.sorted() == original.tags.sorted())
        #expect(Timestamp.string(note.createdAt) == Timestamp.string(original.createdAt))
        #expect(note.attachments.map(\.fileName).sorted() == ["notes.txt", "red square.png"])
        let image = try #require(note.attachments.first { $0.kind == .image })
        #expect(note.body.contains("![red](attachment:\(image.id.key))"))
        #expect(try copy.folderPath(id: #require(note.folderId)) == "Work/Projects")
    }

    @Test("links between notes are written as relative .md links other tools follow, and read back as links by id")
    func linksSurviveExportAndImport() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let work = try store.createFolder(name: "Work Stuff")
        let target = try store.createNote(NoteDraft(title: "Road map", body: "dates", folderId: work.id))
        let source = try store.createNote(NoteDraft(title: "Diary", body: "See \(NoteStore.markdownLink(to: target)) today."))
        _ = try Exporter(store: store).export(.markdown, to: directory.file("md"))
        let written = try String(contentsOf: directory.file("md/Diary.md"), encoding: .utf8)
        #expect(written.contains("See [Road map](Work%20Stuff/Road%20map.md) today."), "\(written)")
        let back = try String(contentsOf: directory.file("md/Work Stuff/Road map.md"), encoding: .utf8)
        #expect(back.contains("dates"))
        let copy = try directory.store("copy")
        let report = try Importer(store: copy).importItems(at: directory.file("md"))
        #expect(report.linksKept == 1 && report.warnings.isEmpty, "\(report)")
        #expect(try copy.note(id: source.id).body == "See [Road map](note:\(target.id.key)) today.")
        #expect(try copy.backlinks(to: target.id).map(\.title) == ["Diary"])
    }
}

@Suite struct MarkdownImportTests {
    @Test func anObsidianVault() throws {
        let directory = TemporaryDirectory()
        let vault = "vault"
        try directory.write("{}", to: "\(vault)/.obsidian/app.json")
        try directory.write("# Ignored\n", to: "\(vault)/.trash/old.md")
        try directory.write(pngData(), to: "\(vault)/Attachments/diagram one.png")
        try directory.write(pngData(side: 4), to: "\(vault)/Attachments/meeting 10:30.png")
        try directory.write("%PDF-1.4 fake", to: "\(vault)/Projects/files/spec.pdf")
        try directory.write("""
            ---
            tags: [project, "big plans"]
            created: 2021-03-04
            aliases:
              - Roadmap
            ---
            # Roadmap

            See ![[diagram one.png]] and [the spec](files/spec.pdf), a [[Other note]] and [[Other note|alias]].
            Also #status/active and #2024 (not a tag) and `#notatag`, [site](https://example.com#frag).

            ```
            #not-a-tag-in-code ![[diagram one.png]]
            ```
            Outside: [secret](../../../../etc/passwd) and [gone](missing.png), [mail](mailto:a@b.c).
            ![[meeting 10:30.png]]
            """, to: "\(vault)/Projects/Roadmap.md")
        try directory.write("Just text with #Inbox", to: "\(vault)/Other note.md")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: directory.file(vault))
        #expect(report.found == 2 && report.imported == 2 && report.skipped.isEmpty)
        let notes = try store.allNotes()
        let roadmap = try #require(notes["Roadmap"])
        #expect(roadmap.tags.sorted() == ["big plans", "project", "status/active"])
        #expect(roadmap.createdAt == Timestamp.date(from: "2021-03-04"))
        #expect(try store.folderPath(id: #require(roadmap.folderId)) == "Projects")
        #expect(roadmap.attachments.map(\.fileName).sorted() == ["diagram one.png", "meeting 10:30.png", "spec.pdf"])
        #expect(roadmap.body.contains("[mail](mailto:a@b.c)"))
        let diagram = try #require(roadmap.attachments.first { $0.fileName == "diagram one.png" })
        let spec = try #require(roadmap.attachments.first { $0.fileName == "spec.pdf" })
        #expect(roadmap.body.contains("See ![diagram one.png](attachment:\(diagram.id.key)) and [the spec](attachment:\(spec.id.key))"))
        let other = try #require(notes["Other note"])
        #expect(roadmap.body.contains("a [Other note](note:\(other.id.key)) and [alias](note:\(other.id.key))"), "links between notes become links by id")
        #expect(try store.backlinks(to: other.id).map(\.title) == ["Roadmap"])
        #expect(report.linksKept == 2 && report.linksUnresolved == 0)
        #expect(roadmap.body.contains("#not-a-tag-in-code ![[diagram one.png]]"), "code is left alone")
        #expect(roadmap.body.contains("[secret](../../../../etc/passwd)"))
        let warnings = report.warnings.map(\.reason)
        #expect(warnings.contains { $0.contains("outside the imported folder") })
        #expect(warnings.contains { $0.contains("missing.png") && $0.contains("no such file") })
        #expect(notes["Other note"]?.tags == ["Inbox"] && notes["Other note"]?.folderId == nil)
        #expect(notes["Ignored"] == nil, "hidden folders such as .trash are not imported")

        let again = try Importer(store: store).importItems(at: directory.file(vault))
        #expect(again.imported == 0 && again.alreadyPresent == 2)
        #expect(try store.noteCount() == 2)
    }

    @Test("links between the notes of a vault, in every form Obsidian and Joplin write, become links by id")
    func linksBetweenNotes() throws {
        let directory = TemporaryDirectory()
        try directory.write("Groceries list", to: "vault/Home/Groceries.md")
        try directory.write("# Soup\n\n## Leeks\nChop them.", to: "vault/Recipes/Soup.md")
        try directory.write("One of two notes called Ideas", to: "vault/Work/Ideas.md")
        try directory.write("The other Ideas", to: "vault/Home/Ideas.md")
        try directory.write("""
            Buy [[Groceries]], cook [[Recipes/Soup#Leeks|the soup]], embed ![[Soup]].
            Joplin style: [the list](../Home/Groceries.md) and [soup](../Recipes/Soup.md#leeks).
            Not here: [[Nowhere]], [gone](Gone.md#part) and [joplin](:/0123456789abcdef0123456789abcdef); ambiguous: [[Ideas]]; a web page: [site](https://example.com/a.md).
            ```
            [[Groceries]] in code stays
            ```
            """, to: "vault/Plans/Week.md")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: directory.file("vault"))
        #expect(report.imported == 5, "\(report)")
        let notes = try store.notes(NoteQuery(limit: 10))
        let id = { (title: String) in notes.first { $0.title == title }?.id.key ?? "?" }
        let week = try #require(notes.first { $0.title == "Week" })
        let (groceries, soup) = (id("Groceries"), id("Soup"))
        #expect(week.body.hasPrefix("""
            Buy [Groceries](note:\(groceries)), cook [the soup](note:\(soup)), embed [Soup](note:\(soup)).
            Joplin style: [the list](note:\(groceries)) and [soup](note:\(soup)).
            Not here: [[Nowhere]], [gone](Gone.md#part) and [joplin](:/0123456789abcdef0123456789abcdef); ambiguous: [[Ideas]]; a web page: [site](https://example.com/a.md).
            """), "\(week.body)")
        #expect(week.body.contains("[[Groceries]] in code stays"))
        #expect(report.linksKept == 5 && report.linksUnresolved == 4, "\(report)")
        #expect(report.warnings.filter { $0.reason.contains("no note of that name") }.count == 4)
        #expect(!report.warnings.contains { $0.reason.contains("no such file") }, "a link to a heading of a note is not a missing file: \(report.warnings)")
        #expect(try store.backlinks(to: #require(UUID(uuidString: soup))).map(\.title) == ["Week"])
    }

    @Test("a link to a note already here, by its title, becomes a link by id; a title two notes share, or a note in the trash, does not")
    func linksToNotesAlreadyHere() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let reading = try store.createNote(NoteDraft(title: "Reading list", body: "Books"))
        _ = try store.createNote(NoteDraft(title: "Ideas", body: "one"))
        _ = try store.createNote(NoteDraft(title: "ideas", body: "two"))
        let trashed = try store.createNote(NoteDraft(title: "Old plan", body: "gone"))
        _ = try store.trashNotes(ids: [trashed.id])
        try directory.write("""
            Read [[reading list]], [the list](Reading%20list.md) and [[Books/Reading List#Next|next]].
            Not: [[Ideas]], [[Old plan]], [[Nowhere]].
            """, to: "later/Plan.md")
        let report = try Importer(store: store).importItems(at: directory.file("later"))
        let plan = try #require(try store.notes(NoteQuery(limit: 10)).first { $0.title == "Plan" })
        let link = "note:\(reading.id.key)"
        #expect(plan.body.hasPrefix("Read [reading list](\(link)), [the list](\(link)) and [next](\(link))."), "\(plan.body)")
        #expect(plan.body.contains("Not: [[Ideas]], [[Old plan]], [[Nowhere]]."))
        #expect(report.linksKept == 3 && report.linksUnresolved == 3, "\(report)")
        #expect(try store.backlinks(to: reading.id).map(\.title) == ["Plan"])
    }

    @Test func aJoplinExport() throws {
        let directory = TemporaryDirectory()
        try directory.write(pngData(), to: "joplin/_resources/9f2c1b.png")
        try directory.write("""
            ---
            title: Shopping: list
            updated: 2021-06-15 08:27:01Z
            created: 2021-06-14 07:00:00Z
            tags:
              - home
              - errands
            ---

            ![screenshot.png](../_resources/9f2c1b.png)

            - [ ] milk
            """, to: "joplin/Personal/Shopping- list.md")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: directory.file("joplin"))
        #expect(report.imported == 1 && report.warnings.isEmpty)
        let note = try #require(try store.allNotes()["Shopping: list"])
        #expect(note.tags.sorted() == ["errands", "home"])
        #expect(note.modifiedAt == Timestamp.date(from: "2021-06-15T08:27:01Z"))
        #expect(note.createdAt == Timestamp.date(from: "2021-06-14T07:00:00Z"))
        #expect(note.attachments.first?.kind == .image)
        #expect(note.body.contains("![screenshot.png](attachment:"))
        #expect(try store.folderPath(id: #require(note.folderId)) == "Personal")
    }

    @Test func badFilesAreSkippedWithTheirReason() throws {
        let directory = TemporaryDirectory()
        try directory.write(Data("Caf\u{E9} in Latin-1".unicodeScalars.map { UInt8($0.value) }), to: "in/latin1.md")
        try directory.write(String(repeating: "a long line ", count: 1_000_000), to: "in/huge.md")
        try directory.write(Data([0xFF, 0xFE] + Array("UTF-16 text".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), to: "in/utf16.md")
        try directory.write("---\ntitle: [broken\n", to: "in/open front matter.md")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: directory.file("in"))
        #expect(report.found == 4 && report.imported == 2)
        let reasons = Dictionary(report.skipped.map { ($0.item, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons["latin1.md"]?.contains("not UTF-8") == true)
        #expect(reasons["huge.md"]?.contains("10 MB") == true)
        let notes = try store.allNotes()
        #expect(notes["utf16"]?.body == "UTF-16 text")
        #expect(notes["open front matter"]?.body.hasPrefix("---\ntitle: [broken") == true, "an unclosed front matter is text")
    }
}

/// Importing Markdown reads only what the notes name inside their folder, never a hidden file,
/// and says what it attached: a note beside `~/.ssh/` cannot carry the key off to the store
/// and the sync server.
@Suite("What a Markdown import may attach")
struct MarkdownImportReachTests {
    @Test("a single file attaches named files of its folder, never hidden ones or links out, and lists each")
    func oneFileReachesOnlyWhatItNamesAndNothingHidden() throws {
        let home = TemporaryDirectory()
        _ = try home.write("-----BEGIN OPENSSH PRIVATE KEY-----", to: ".ssh/id_rsa")
        _ = try home.write("API_KEY=secret", to: ".env")
        _ = try home.write("config", to: "projects/.git/config")
        _ = try home.write("tax figures", to: "Documents/taxes.txt")
        _ = try home.write(pngData(), to: "photo.png")
        _ = try home.write("not named", to: "unrelated.txt")
        try FileManager.default.createSymbolicLink(atPath: home.file("innocent.png").path, withDestinationPath: home.file(".ssh/id_rsa").path)
        let note = try home.write("""
            ![k](.ssh/id_rsa) [env](.env) [git](projects/.git/config) [sneaky](Documents/../.ssh/id_rsa)
            ![pic](photo.png) [taxes](Documents/taxes.txt) ![link](innocent.png) [out](../../etc/passwd)
            """, to: "evil.md")
        let store = try home.store("Store/NoteTaker")
        let report = try Importer(store: store).importItems(at: note)

        let imported = try #require(try store.allNotes()["evil"])
        #expect(imported.attachments.map(\.fileName).sorted() == ["photo.png", "taxes.txt"])
        #expect(report.attachedFiles.map(\.file).sorted() == ["Documents/taxes.txt", "photo.png"])
        #expect(report.attachedFiles.allSatisfy { $0.note == "evil.md" })
        for target in [".ssh/id_rsa", ".env", "projects/.git/config", "Documents/../.ssh/id_rsa", "innocent.png"] {
            #expect(imported.body.contains("](\(target))"), "\(target) is left as written")
            #expect(report.warnings.contains { $0.reason.contains("link to \(target) left as it is: it is a hidden file") }, "\(target)")
        }
        #expect(report.warnings.contains { $0.reason.contains("outside the imported folder") })
        for attachment in imported.attachments {
            let bytes = try Data(contentsOf: store.fileURL(for: attachment))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("PRIVATE KEY"))
        }
    }

    @Test("a folder import never attaches a hidden file either")
    func aFolderImportSkipsHiddenFiles() throws {
        let vault = TemporaryDirectory()
        _ = try vault.write("token", to: "notes/.secret/token.txt")
        _ = try vault.write("visible", to: "notes/assets/visible.txt")
        _ = try vault.write("[t](.secret/token.txt) [v](assets/visible.txt) ![[token.txt]]", to: "notes/Note.md")
        let store = try vault.store("Store/NoteTaker")
        let report = try Importer(store: store).importItems(at: vault.file("notes"))
        let imported = try #require(try store.allNotes()["Note"])
        #expect(imported.attachments.map(\.fileName) == ["visible.txt"])
        #expect(report.attachedFiles == [.init(note: "Note.md", file: "assets/visible.txt")])
    }
}
