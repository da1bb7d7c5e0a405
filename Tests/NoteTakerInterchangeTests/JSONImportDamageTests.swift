import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Damaged or hostile JSON exports: each bad note is named and skipped, the rest go in,
/// and nothing half-written is left behind.
@Suite struct JSONImportDamageTests {
    private func export(_ directory: TemporaryDirectory) throws -> URL {
        let source = try JSONRoundTripTests.sampleStore(in: directory)
        let folder = directory.file("export")
        _ = try Exporter(store: source).export(.json, to: folder)
        return folder
    }

    private func lines(_ folder: URL) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("notes.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    private func setLines(_ lines: [String], in folder: URL) throws {
        try Data(lines.joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("notes.jsonl"))
    }

    @Test func aDamagedAttachmentSkipsItsNoteOnly() throws {
        let directory = TemporaryDirectory()
        let folder = try export(directory)
        let attachments = try contents(of: folder).keys.filter { $0.hasPrefix("attachments/") }
        try Data("tampered".utf8).write(to: folder.appendingPathComponent(try #require(attachments.first)))
        let store = try directory.store("copy")
        let report = try Importer(store: store).importItems(at: folder)
        #expect(report.found == 3 && report.imported == 2 && report.skipped.count == 1)
        #expect(report.skipped.first?.reason.contains("damaged") == true)
        #expect(try store.allNotes()["Café plans"] == nil)
        let files = try contents(of: store.attachmentsDirectory).keys.filter { !$0.hasPrefix(".") }
        #expect(files.isEmpty, "no file of the refused note stays in the store")
    }

    @Test func badLinesAreNamedAndTheRestImported() throws {
        let directory = TemporaryDirectory()
        let folder = try export(directory)
        var lines = try lines(folder)
        let last = lines.removeLast()
        lines.insert("{ this is not json", at: 0)
        lines.insert(#"{"id":"not-a-uuid","title":"x"}"#, at: 1)
        lines.append(String(last.prefix(last.count / 2)))
        try setLines(lines, in: folder)
        let store = try directory.store("copy")
        let report = try Importer(store: store).importItems(at: folder)
        #expect(report.found == 5)
        #expect(report.imported == 2)
        #expect(report.skipped.map(\.item).sorted() == ["notes.jsonl:1", "notes.jsonl:2", "notes.jsonl:5"])
        #expect(report.skipped.allSatisfy { $0.reason.contains("not") })
        #expect(try store.noteCount() == 2)
    }

    @Test func anExportFromANewerVersionIsRefusedWhole() throws {
        let directory = TemporaryDirectory()
        let folder = try export(directory)
        let manifest = folder.appendingPathComponent("notetaker-export.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7")
        try Data(text.utf8).write(to: manifest)
        let store = try directory.store("copy")
        #expect {
            try Importer(store: store).importItems(at: folder)
        } throws: { error in
            (error as? InterchangeError)?.message.contains("newer NoteTaker") == true
        }
        #expect(try store.noteCount() == 0)
        #expect(try store.folderTree().isEmpty)
    }

    @Test func pathsInTheFileAreNeverFollowed() throws {
        let directory = TemporaryDirectory()
        let folder = try export(directory)
        var lines = try lines(folder)
        let withFile = try #require(lines.firstIndex { $0.contains("\"sha256\"") })
        lines[withFile] = lines[withFile].replacingOccurrences(
            of: #""path":"attachments/[0-9a-f/]+""#, with: #""path":"../../../../etc/passwd""#, options: .regularExpression)
        let copy = lines
        let hash = try #require(lines[withFile].range(of: #""sha256":"[0-9a-f]{64}""#, options: .regularExpression))
        lines[withFile].replaceSubrange(hash, with: #""sha256":"../../../../etc/passwd""#)
        try setLines(lines, in: folder)
        let store = try directory.store("copy")
        let report = try Importer(store: store).importItems(at: folder)
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.reason.contains("sha256") == true)
        #expect(report.imported == 2)

        try setLines(copy, in: folder)
        let again = try Importer(store: store).importItems(at: folder)
        #expect(again.imported == 1, "a tampered path is ignored: files are found by their hash")
        let note = try #require(try store.allNotes()["Café plans"])
        #expect(note.attachments.count == 2)
        for attachment in note.attachments {
            #expect(try Data(contentsOf: store.fileURL(for: attachment)).count == Int(attachment.fileSize))
        }
    }

    @Test func valuesOutOfRangeAreRefusedOrLeftOutWithTheReason() throws {
        let directory = TemporaryDirectory()
        let folder = try export(directory)
        var lines = try lines(folder)
        let created = try #require(lines[0].range(of: #""createdAt":"[^"]+""#, options: .regularExpression))
        lines[0].replaceSubrange(created, with: #""createdAt":"0000-01-01T00:00:00.000Z""#)
        try setLines(lines, in: folder)
        let manifestURL = folder.appendingPathComponent("notetaker-export.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var folders = try #require(manifest["folders"] as? [[String: Any]])
        folders[0]["icon"] = String(repeating: "★", count: 1_000)
        manifest["folders"] = folders
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)

        let store = try directory.store("copy")
        let report = try Importer(store: store).importItems(at: folder)
        #expect(report.found == 3 && report.imported == 2)
        #expect(report.skipped.map(\.item) == ["notes.jsonl:1"])
        #expect(report.warnings.contains { $0.reason.contains("3,000 bytes, more than the 200 a folder icon may have") })
        let folderId = try #require((folders[0]["id"] as? String).flatMap(UUID.init(uuidString:)))
        let iconless = try store.folder(id: folderId)
        #expect(iconless.icon == nil, "the folder comes in without its icon")
        #expect(Timestamp.date(from: "0000-12-31T00:00:00Z") == nil && Timestamp.date(from: "0002-01-01") != nil)
        #expect(throws: NoteTakerError.self) { try store.createFolder(name: "Big icon", icon: String(repeating: "x", count: 201)) }
    }

    @Test func veryLongLinesAreSkippedWithoutReadingThemWhole() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write("short\n" + String(repeating: "x", count: 5_000) + "\nafter", to: "long.txt")
        var reader = try LineReader(url: file, maximumLineLength: 100)
        var seen: [String] = []
        while let line = try reader.next() {
            switch line {
            case .text(let data, let number): seen.append("\(number):\(String(decoding: data, as: UTF8.self))")
            case .tooLong(let number): seen.append("\(number):too long")
            }
        }
        #expect(seen == ["1:short", "2:too long", "3:after"])
    }

    @Test func nothingToImportIsAClearError() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try directory.write(Data([0, 1, 2, 3]), to: "random.bin")
        #expect(throws: InterchangeError.unknownKind(path: directory.file("random.bin").path)) {
            try Importer(store: store).importItems(at: directory.file("random.bin"))
        }
        #expect(throws: InterchangeError.self) { try Importer(store: store).importItems(at: directory.file("missing")) }
        #expect(try store.noteCount() == 0)
    }
}
