import Foundation
import NoteTakerKit

/// A Joplin export as Joplin's "Export → JEX" writes one, for the interchange benchmark: a tar
/// (ustar headers, as node-tar writes them) of RAW items, one `<id>.md` per note, notebook,
/// tag, tag link and resource, and the resources' bytes in `resources/`. Forty notebooks, a
/// quarter of them inside another; most notes carry a tag or two; one in ten is a to-do; one
/// in five links to another note, and one in fifty shows a picture.
enum JoplinExport {
    /// Writes `notes` notes of `corpus` text into a new `.jex` at `file`.
    static func write(notes: Int, corpus: Corpus, generator: inout SeededGenerator, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let output = FileHandle(forWritingAtPath: file.path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? output.close() }
        var tar = Tar(output: output)
        // 32 hex digits: the item's kind, then its index spread out.
        let id = { (kind: Int, index: Int) in
            let spread = String(index * 2_654_435_761, radix: 16)
            return String(kind, radix: 16) + String(repeating: "0", count: 31 - spread.count) + spread
        }
        let stamp = { (seconds: Int) in Timestamp.string(Date(timeIntervalSince1970: Double(seconds))) }
        for index in 0..<40 {
            let parent = index % 4 == 3 ? id(2, index - 1) : ""
            try tar.add("\(id(2, index)).md", item(corpus.title(&generator), nil, [
                ("id", id(2, index)), ("created_time", stamp(1_500_000_000)), ("updated_time", stamp(1_500_000_000)),
                ("parent_id", parent), ("icon", ""), ("deleted_time", "0"), ("type_", "2"),
            ]))
        }
        for index in 0..<40 {
            try tar.add("\(id(5, index)).md", item(corpus.word(&generator), nil, [("id", id(5, index)), ("parent_id", ""), ("type_", "5")]))
        }
        var picture = [UInt8](repeating: 0, count: 24_000)
        for index in 0..<notes {
            var body = corpus.body(&generator)
            if index % 5 == 1 { body += "\n\nSee [the earlier note](:/\(id(1, index - 1)))." }
            if index % 50 == 0 {
                for position in picture.indices { picture[position] = UInt8(truncatingIfNeeded: generator.next()) }
                try tar.add("resources/\(id(4, index)).jpg", Data(picture))
                try tar.add("\(id(4, index)).md", item("photo \(index).jpg", nil, [
                    ("id", id(4, index)), ("mime", "image/jpeg"), ("file_extension", "jpg"), ("size", String(picture.count)), ("type_", "4"),
                ]))
                body += "\n\n![photo \(index).jpg](:/\(id(4, index)))"
            }
            let created = 1_600_000_000 + index * 3_600
            let isTodo = index % 10 == 0
            try tar.add("\(id(1, index)).md", item("\(corpus.title(&generator)) \(index)", body, [
                ("id", id(1, index)), ("parent_id", id(2, Int(generator.next() % 40))), ("created_time", stamp(created)),
                ("updated_time", stamp(created + 600)), ("is_conflict", "0"), ("author", ""), ("source_url", ""),
                ("is_todo", isTodo ? "1" : "0"), ("todo_completed", isTodo && index % 20 == 0 ? String(created + 900) + "000" : "0"),
                ("source_application", "net.cozic.joplin-desktop"), ("user_created_time", stamp(created)),
                ("user_updated_time", stamp(created + 600)), ("encryption_applied", "0"), ("markup_language", "1"),
                ("deleted_time", index % 97 == 0 ? String(created + 1_200) + "000" : "0"), ("type_", "1"),
            ]))
            for tag in 0..<Int(generator.next() % 3) {
                let link = id(6, index * 3 + tag)
                try tar.add("\(link).md", item(nil, nil, [
                    ("id", link), ("note_id", id(1, index)), ("tag_id", id(5, Int(generator.next() % 40))), ("type_", "6"),
                ]))
            }
        }
        try tar.finish()
    }

    /// An item as Joplin serializes it: title, body, `name: value` fields, `type_` last.
    private static func item(_ title: String?, _ body: String?, _ fields: [(String, String)]) -> Data {
        let parts = [title, body, fields.map { "\($0): \($1)" }.joined(separator: "\n")].compactMap { $0 }
        return Data(parts.joined(separator: "\n\n").utf8)
    }

    /// A tar being written: a ustar header before each file, its bytes padded to 512.
    private struct Tar {
        let output: FileHandle

        mutating func add(_ path: String, _ data: Data) throws {
            var header = [UInt8](repeating: 0, count: 512)
            let fields: [(Int, String)] = [
                (0, path), (100, "0000644"), (108, "0000000"), (116, "0000000"), (124, String(format: "%011o", data.count)),
                (136, String(format: "%011o", 1_700_000_000)), (257, "ustar"), (263, "00"),
            ]
            for (offset, text) in fields { header.replaceSubrange(offset..<offset + text.utf8.count, with: text.utf8) }
            header[156] = UInt8(ascii: "0")
            header.replaceSubrange(148..<156, with: Array("        ".utf8))
            let checksum = String(format: "%06o", header.reduce(0) { $0 + Int($1) })
            header.replaceSubrange(148..<155, with: Array(checksum.utf8) + [0])
            try output.write(contentsOf: Data(header) + data + Data(count: (512 - data.count % 512) % 512))
        }

        func finish() throws {
            try output.write(contentsOf: Data(count: 1_024))
        }
    }
}
