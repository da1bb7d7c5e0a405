import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Every file an export or an import writes is readable by its owner only (0600, folders
/// 0700), whatever the process's umask: exports hold the notes, and the temporary files of an
/// import hold the bytes of attachments.
@Suite("File modes of exports and imports")
struct FileModeTests {
    /// Each file and folder under `root` (and `root`) whose mode is not the owner's only.
    static func exposed(under root: URL) throws -> [String] {
        var exposed: [String] = []
        var paths = [root.path]
        if let enumerator = FileManager.default.enumerator(atPath: root.path) {
            for case let path as String in enumerator { paths.append(root.appendingPathComponent(path).path) }
        }
        for path in paths {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            let folder = attributes[.type] as? FileAttributeType == .typeDirectory
            if mode != (folder ? 0o700 : 0o600) { exposed.append("\(path) \(String(mode, radix: 8))") }
        }
        return exposed
    }

    @Test("JSON, Markdown and PDF exports", arguments: [ExportFormat.json, .markdown, .pdf])
    func exports(format: ExportFormat) throws {
        let directory = TemporaryDirectory()
        let store = try JSONRoundTripTests.sampleStore(in: directory)
        let out = directory.file(format == .pdf ? "out/notes.pdf" : "out/export")
        _ = try Exporter(store: store).export(format, to: out)
        let exposed = try Self.exposed(under: out)
        #expect(exposed == [], "\(exposed)")
    }

    @Test("an Evernote import's resources, in their temporary files and in the store")
    func evernoteImport() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store("store/NoteTaker")
        let file = try directory.write(EvernoteTests.enex([
            EvernoteTests.note("Picture", content: "<div>see</div>", resources: EvernoteTests.resource(pngData(), mime: "image/png", name: "red.png")),
        ]), to: "export.enex")
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.imported == 1)
        #expect(try Self.exposed(under: try #require(store.databaseURL).deletingLastPathComponent()) == [])

        let temporary = directory.file("resource.bin")
        var writer = Base64FileWriter(url: temporary)
        writer.append(pngData().base64EncodedString())
        _ = writer.finish()
        #expect(try Self.exposed(under: temporary) == [])
    }

    @Test("a Markdown import's attachments in the store")
    func markdownImport() throws {
        let directory = TemporaryDirectory()
        _ = try directory.write(pngData(), to: "vault/pic.png")
        _ = try directory.write("![p](pic.png)", to: "vault/Note.md")
        let store = try directory.store("store/NoteTaker")
        _ = try Importer(store: store).importItems(at: directory.file("vault"))
        #expect(try Self.exposed(under: try #require(store.databaseURL).deletingLastPathComponent()) == [])
    }
}
