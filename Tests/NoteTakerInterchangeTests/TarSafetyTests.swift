import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Tar archives (Joplin's `.jex`) that could harm the machine or are damaged: each is refused
/// with a clear error before anything is imported, and the store is left as it was.
@Suite struct TarSafetyTests {
    /// A real Joplin note, so that the archive would import if it were not refused.
    static let note = TarFixture.Entry.text(
        "\(JoplinFixture.id(1)).md", JoplinFixture.note(JoplinFixture.id(1), title: "Fine", body: "ok", parent: ""))

    /// Imports the tar of `entries` (its bytes changed by `patch`) into a fresh store: the error
    /// and the store's note count afterwards.
    private func refusal(_ entries: [TarFixture.Entry], ended: Bool = true, patch: ((inout [UInt8]) -> Void)? = nil) throws -> (String, Int) {
        let folder = TemporaryDirectory()
        let jex = folder.file("export.jex")
        try TarFixture.write(entries, to: jex, ended: ended)
        if let patch {
            var bytes = [UInt8](try Data(contentsOf: jex))
            patch(&bytes)
            try Data(bytes).write(to: jex)
        }
        let store = try folder.store()
        do {
            let report = try Importer(store: store).importItems(at: jex)
            Issue.record("imported: \(report)")
            return ("", try store.noteCount())
        } catch {
            #expect(try contents(of: store.attachmentsDirectory).isEmpty)
            return (String(describing: error), try store.noteCount())
        }
    }

    @Test("a path that leaves the archive, in a header or an extended header, is refused")
    func pathsThatEscape() throws {
        for entry in [TarFixture.Entry.text("../../.bashrc", "x"), .text("/etc/cron.d/job", "x"), .extendedPath("resources/../../../etc/passwd", Data("x".utf8))] {
            let (message, notes) = try refusal([Self.note, entry])
            #expect(message.contains("would be written outside the archive's folder"), "\(message)")
            #expect(notes == 0)
        }
    }

    @Test("links and devices are refused")
    func linksAndDevices() throws {
        let (link, notes) = try refusal([Self.note, .link("resources/x.png", target: "/home/ada/.ssh/id_ed25519")])
        #expect(link.contains("'resources/x.png' is a symbolic link") && notes == 0, "\(link)")
        let (device, _) = try refusal([Self.note, .device("resources/tty")])
        #expect(device.contains("'resources/tty' is a device or a pipe"), "\(device)")
    }

    @Test("a tar cut short, inside an entry or before its end, and a damaged header are refused")
    func cutShortAndDamaged() throws {
        let big = TarFixture.Entry.file("resources/\(JoplinFixture.id(2)).png", Data(count: 5_000))
        let (inside, notes) = try refusal([Self.note, big], ended: false) { $0.removeLast(2_000) }
        #expect(inside.contains("is damaged or cut short") && notes == 0, "\(inside)")
        let (end, _) = try refusal([Self.note], ended: false)
        #expect(end.contains("it stops before the empty block that ends a tar archive"), "\(end)")
        // The second header: before the picture's 5,120 bytes (5,000 padded) and the two end blocks.
        let (header, _) = try refusal([Self.note, big]) { $0[$0.count - 1_024 - 5_120 - 512 + 10] ^= 0x20 }
        #expect(header.contains("is damaged or cut short"), "\(header)")
        let (notTar, _) = try refusal([Self.note]) { $0[3] ^= 0x01 }
        #expect(notTar.contains("it is not a tar archive"), "\(notTar)")
    }

    @Test("a path given in an extended header is read, and header numbers in octal and base-256")
    func extendedHeadersAndNumbers() throws {
        let folder = TemporaryDirectory()
        let jex = folder.file("export.jex")
        let long = "resources/" + String(repeating: "nested/", count: 20) + "picture.png"
        try TarFixture.write([Self.note, .extendedPath(long, Data("png".utf8))], to: jex)
        let tar = try TarReader(url: jex)
        #expect(tar.files.map(\.path) == [Self.note.path, long])
        #expect(try tar.data(#require(tar.file(long))) == Data("png".utf8))
        #expect(TarHeader.number(Array("00000001750\0".utf8)[...]) == 1000)
        #expect(TarHeader.number(([0x80] + [UInt8](repeating: 0, count: 7) + [0, 0, 0x10, 0])[...]) == 4_096)
        #expect(TarHeader.number(Array("  12 \0".utf8)[...]) == 10)
        #expect(TarHeader.number(Array("9".utf8)[...]) == nil)
        #expect(TarHeader.number([UInt8](repeating: 0xFF, count: 12)[...]) == nil)
    }
}

extension TarFixture.Entry {
    /// The entry's path.
    var path: String {
        switch self {
        case .file(let path, _), .extendedPath(let path, _), .link(let path, _), .device(let path): path
        }
    }
}
