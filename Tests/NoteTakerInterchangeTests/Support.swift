import Foundation
import NoteTakerKit
import NoteTakerMarkdown
@testable import NoteTakerInterchange

/// A folder under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("NoteTakerInterchangeTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    func file(_ path: String) -> URL { url.appendingPathComponent(path) }

    /// Writes `data` at `path` inside the folder (making its folders) and returns its URL.
    @discardableResult
    func write(_ data: Data, to path: String) throws -> URL {
        let file = self.file(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Writes UTF-8 text at `path`.
    @discardableResult
    func write(_ text: String, to path: String) throws -> URL {
        try write(Data(text.utf8), to: path)
    }

    /// A new store on disk inside the folder.
    func store(_ name: String = "NoteTaker") throws -> NoteStore {
        try NoteStore.open(at: file("\(name).sqlite"))
    }
}

/// A small PNG picture (a red square), built byte by byte.
func pngData(side: Int = 8) -> Data {
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }
    let header = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [8, 2, 0, 0, 0]
    var raw: [UInt8] = []
    for _ in 0..<side {
        raw.append(0)
        for _ in 0..<side { raw += [255, 0, 0] }
    }
    var stored: [UInt8] = [0x78, 0x01, 0x01]
    stored += [UInt8(raw.count & 0xFF), UInt8(raw.count >> 8), UInt8(~raw.count & 0xFF), UInt8((~raw.count >> 8) & 0xFF)]
    stored += raw + bigEndian(adler32(raw))
    return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", stored) + chunk("IEND", []))
}

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

private func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    return (b << 16) | a
}

extension NoteStore {
    /// Creates a note with a title and body, for brevity.
    @discardableResult
    func make(_ title: String, _ body: String = "", folder: UUID? = nil) throws -> Note {
        try createNote(NoteDraft(title: title, body: body, folderId: folder))
    }

    /// Every note, trashed or not, by title.
    func allNotes() throws -> [String: Note] {
        var notes: [String: Note] = [:]
        try forEachNote(in: NoteSelection(includeTrashed: true)) { batch in
            for note in batch { notes[note.title] = note }
        }
        return notes
    }

    /// How many notes there are, trashed or not.
    func noteCount() throws -> Int {
        try allNotes().count
    }
}

/// Every file under `folder` by relative path, with its bytes.
func contents(of folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let prefix = folder.standardizedFileURL.path + "/"
    for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? .init() {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
            result[String(url.standardizedFileURL.path.dropFirst(prefix.count))] = try Data(contentsOf: url)
        }
    }
    return result
}

extension Note {
    /// The body without the properties block an import put at its top.
    var text: String {
        NoteProperties.split(body).map { String($0.rest) } ?? body
    }
}
