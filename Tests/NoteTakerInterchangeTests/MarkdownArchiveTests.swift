import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// A Markdown folder zipped, as people send or upload a vault: macOS's Finder zips a folder
/// `vault` as `vault/…` entries with `__MACOSX/vault/._name` copies beside them; other tools
/// zip the folder's contents at the top. Each imports as the folder itself would, read in place.
@Suite(.serialized) struct MarkdownArchiveTests {
    static let roadmap = """
        ---
        tags: [project]
        ---
        # Roadmap

        See ![[diagram one.png]] and a [[Other note]]. Outside: [secret](../../../etc/passwd).
        Again [the diagram](../Attachments/diagram%20one.png); [settings](../.obsidian/app.json), [gone](missing.png).
        """

    /// The vault as Finder zips it.
    static func finderZip() -> [ZipFixture.Entry] {
        [
            .text("vault/.obsidian/app.json", "{}"),
            .text("vault/.trash/old.md", "# Old\n"),
            .file("vault/Attachments/diagram one.png", pngData()),
            .text("vault/Projects/Roadmap.md", roadmap),
            .text("vault/Other note.md", "Just text with #Inbox"),
            .file("__MACOSX/vault/._Other note.md", Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00])),
            .file("__MACOSX/vault/Projects/._Roadmap.md", Data([0x00, 0x05, 0x16, 0x07])),
        ]
    }

    /// Scratch folders this import left in the temporary directory.
    private func scratchLeft() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("notetaker-markdown-") }
    }

    @Test("a zipped vault imports as its folder does: the top folder is the root, links and pictures resolved, macOS copies and hidden files left out")
    func finderZippedVault() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("vault.zip")
        try ZipFixture.write(Self.finderZip(), to: zip)
        let store = try folder.store()
        let before = try scratchLeft()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.kind == .markdown)
        #expect(report.found == 2 && report.imported == 2 && report.skipped.isEmpty, "\(report)")
        let notes = try store.allNotes()
        let roadmap = try #require(notes["Roadmap"])
        let other = try #require(notes["Other note"])
        #expect(try store.folderPath(id: #require(roadmap.folderId)) == "Projects", "the zip's top folder is not made a folder")
        #expect(other.folderId == nil && other.tags == ["Inbox"] && roadmap.tags == ["project"])
        let diagram = try #require(roadmap.attachments.first)
        #expect(roadmap.body.contains("See ![diagram one.png](attachment:\(diagram.id.key)) and a [Other note](note:\(other.id.key))"))
        #expect(roadmap.body.contains("[secret](../../../etc/passwd)"), "a link out of the vault is left as written")
        #expect(roadmap.body.contains("Again [the diagram](attachment:\(diagram.id.key))"), "a relative link to the same file is the same attachment")
        #expect(roadmap.attachments.count == 1)
        let reasons = report.warnings.map(\.reason)
        #expect(reasons.contains { $0.contains("outside the imported folder") })
        #expect(reasons.count == 3, "outside, hidden and missing: \(reasons)")
        #expect(notes["Old"] == nil && notes["._Other note"] == nil && notes.count == 2)
        #expect(try scratchLeft() == before, "the pictures inflated for their notes are removed")

        // The zip again, and the folder it holds unpacked on disk: the same notes, added once.
        #expect(try Importer(store: store).importItems(at: zip).alreadyPresent == 2)
        for case .file(let path, let data) in Self.finderZip() where path.hasPrefix("vault/") {
            _ = try folder.write(data, to: "unpacked/\(path)")
        }
        let unpacked = try Importer(store: store).importItems(at: folder.file("unpacked/vault"))
        #expect(unpacked.imported == 0 && unpacked.alreadyPresent == 2, "\(unpacked)")
        #expect(try store.noteCount() == 2)
    }

    @Test("a zip of a folder's contents keeps its subfolders; one without notes, or leaving the archive, is refused and adds nothing")
    func contentsZippedAndRefusals() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("notes.zip")
        try ZipFixture.write([.text("Inbox.md", "# Inbox\n\nCall Ada."), .text("Work/Plan.md", "# Plan\n\nShip it.")], to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.kind == .markdown && report.imported == 2)
        #expect(try store.folderPath(id: #require(store.allNotes()["Plan"]?.folderId)) == "Work")

        let escaping = folder.file("escaping.zip")
        try ZipFixture.write([.text("Fine.md", "fine"), .text("../../evil.md", "evil")], to: escaping)
        let fresh = try folder.store("Fresh")
        #expect(throws: InterchangeError.self) { try Importer(store: fresh).importItems(at: escaping) }
        let noNotes = folder.file("pictures.zip")
        try ZipFixture.write([.file("a.png", pngData())], to: noNotes)
        #expect(throws: InterchangeError.unknownKind(path: noNotes.path)) { try Importer(store: fresh).importItems(at: noNotes) }
        #expect(try fresh.noteCount() == 0)
    }

    @Test("a note whose bytes were changed in the zip stops the import, naming it, and nothing goes in")
    func damagedNote() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("vault.zip")
        try ZipFixture.write([.text("vault/A first.md", "# First\n\nfine"), .text("vault/B second.md", "# Second\n\nok then")], to: zip, stored: true)
        var bytes = [UInt8](try Data(contentsOf: zip))
        let at = try #require(bytes.indices.first { bytes[$0] == UInt8(ascii: "o") && bytes[$0 + 1] == UInt8(ascii: "k") })
        bytes[at] = UInt8(ascii: "O")
        try Data(bytes).write(to: zip)
        let store = try folder.store()
        #expect(throws: InterchangeError.badArchive(path: zip.path, reason: Wording("archiveChecksum", ["entry": "vault/B second.md"]))) {
            try Importer(store: store).importItems(at: zip)
        }
        #expect(try store.noteCount() == 0)
    }
}
