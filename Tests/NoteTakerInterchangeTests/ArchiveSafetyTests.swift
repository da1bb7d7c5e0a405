import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Archives that could harm the machine or are damaged: each is refused with a clear error
/// before anything is imported, and the store is left as it was.
@Suite struct ArchiveSafetyTests {
    /// A real Keep note, so that the archive would import if it were not refused.
    static let keepNote = ZipFixture.Entry.text(
        "Takeout/Keep/Fine.json", #"{"title":"Fine","textContent":"ok","createdTimestampUsec":1700000000000000}"#)

    /// Imports `zip` into a fresh store: the error and the store's note count afterwards.
    private func refusal(_ entries: [ZipFixture.Entry], stored: Bool = false, patch: ((URL) throws -> Void)? = nil) throws -> (String, Int) {
        let folder = TemporaryDirectory()
        let zip = folder.file("takeout.zip")
        try ZipFixture.write(entries, to: zip, stored: stored)
        try patch?(zip)
        let store = try folder.store()
        do {
            let report = try Importer(store: store).importItems(at: zip)
            Issue.record("imported: \(report)")
            return ("", try store.noteCount())
        } catch {
            #expect(try contents(of: store.attachmentsDirectory).isEmpty)
            return (String(describing: error), try store.noteCount())
        }
    }

    @Test("a path that leaves the archive (zip slip), either slash, or absolute, is refused")
    func pathsThatEscape() throws {
        for path in ["../../.bashrc", "Takeout/Keep/../../../etc/passwd", "/etc/cron.d/job", "..\\..\\evil.json", "C:/Windows/evil.json"] {
            let (message, notes) = try refusal([Self.keepNote, .text(path, "x")])
            #expect(message.contains("would be written outside the archive's folder"), "\(path): \(message)")
            #expect(notes == 0)
        }
    }

    @Test("a symbolic link is refused")
    func links() throws {
        let (message, notes) = try refusal([Self.keepNote, .link("Takeout/Keep/photo.jpg", target: "/home/ada/.ssh/id_ed25519")])
        #expect(message.contains("'Takeout/Keep/photo.jpg' is a symbolic link"), "\(message)")
        #expect(notes == 0)
    }

    @Test("a zip bomb is refused from its directory, before anything is inflated")
    func bomb() throws {
        let zeros = Data(count: 8 << 20)
        let (message, notes) = try refusal([Self.keepNote, .file("Takeout/Keep/big.png", zeros)])
        #expect(message.contains("inflates to more than 200 times its packed size"), "\(message)")
        #expect(notes == 0)
    }

    @Test("an entry that inflates beyond the size it declares is stopped there")
    func lyingSize() throws {
        let text = String(repeating: #"{"title":"Long","textContent":"words words words"} "#, count: 200)
        let (message, notes) = try refusal([.text("Takeout/Keep/Long.json", text)]) { try ZipFixture.declareSize(100, in: $0) }
        #expect(message.contains("inflates to more than the size it declares") || message.contains("is damaged"), "\(message)")
        #expect(notes == 0)
    }

    @Test("a truncated archive, or one whose bytes were changed, is refused")
    func damaged() throws {
        let (cut, cutNotes) = try refusal([Self.keepNote, .file("Takeout/Keep/photo.png", pngData(side: 64))]) { url in
            let data = try Data(contentsOf: url)
            try data.prefix(data.count / 2).write(to: url)
        }
        #expect(cut.contains("it is not a zip file, or it is cut short"), "\(cut)")
        #expect(cutNotes == 0)

        let (flipped, flippedNotes) = try refusal([Self.keepNote], stored: true) { url in
            var bytes = [UInt8](try Data(contentsOf: url))
            let at = try #require(bytes.indices.first { bytes[$0] == UInt8(ascii: "o") && bytes[$0 + 1] == UInt8(ascii: "k") })
            bytes[at] = UInt8(ascii: "O")
            try Data(bytes).write(to: url)
        }
        #expect(flipped.contains("'Takeout/Keep/Fine.json' is damaged (its checksum does not match)"), "\(flipped)")
        #expect(flippedNotes == 0)
    }

    @Test("a file that is not a zip, or a zip of something else, says what it expected")
    func notAnExport() throws {
        let folder = TemporaryDirectory()
        let other = folder.file("photos.zip")
        try ZipFixture.write([.text("Takeout/Photos/a.json", "{}")], to: other)
        #expect(throws: InterchangeError.unknownKind(path: other.path)) { try Importer(store: folder.store()).importItems(at: other) }
        let fake = try folder.write(Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3]), to: "fake.zip")
        do {
            _ = try Importer(store: folder.store()).importItems(at: fake)
            Issue.record("imported a file that is not a zip")
        } catch {
            #expect("\(error)".contains("it is not a zip file"), "\(error)")
        }
    }

    @Test("only paths inside the archive are contained; '.' parts and doubled slashes are tidied")
    func containment() {
        #expect(ArchivePath.contained("Takeout/Keep/a.json") == "Takeout/Keep/a.json")
        #expect(ArchivePath.contained("./Takeout//Keep/./a.json") == "Takeout/Keep/a.json")
        #expect(ArchivePath.contained("Takeout\\Keep\\a.json") == "Takeout/Keep/a.json")
        #expect(ArchivePath.contained("notes/..hidden/a.md") == "notes/..hidden/a.md")
        for hostile in ["../a", "a/../../b", "/a", "\\a", "C:\\a", "a\u{0}b"] {
            #expect(ArchivePath.contained(hostile) == nil, "\(hostile)")
        }
    }

    @Test("a path inside an archive is taken apart as Foundation's path functions would")
    func pathParts() {
        #expect(ArchivePath.folder("Takeout/Keep/a.json") == "Takeout/Keep" && ArchivePath.folder("a.json") == "")
        #expect(ArchivePath.name("Takeout/Keep/a b.json") == "a b.json" && ArchivePath.name("top") == "top")
        #expect(ArchivePath.stem("Takeout/Keep/16c9.3a4b.jpeg") == "Takeout/Keep/16c9.3a4b")
        #expect(ArchivePath.stem("Takeout/Keep.d/.hidden") == "Takeout/Keep.d/.hidden" && ArchivePath.stem("Keep/README") == "Keep/README")
        #expect(ArchivePath.fileExtension("a/Photo.JPG") == "jpg" && ArchivePath.fileExtension("Keep.d/notes") == "")
    }
}
