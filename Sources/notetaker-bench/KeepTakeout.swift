import Foundation
import ZIPFoundation

/// A Google Keep export as Google Takeout writes one, for the interchange benchmark: a
/// deflated `.zip` with a `Takeout/Keep` folder holding, per note, its JSON and its HTML
/// rendering; a fifth of the notes are checklists, most carry a label or two, and one in fifty
/// has a picture beside it (named `.jpg` where the JSON says `.jpeg`, as Takeout does).
enum KeepTakeout {
    /// Writes `notes` notes of `corpus` text into a new Takeout zip at `file`.
    static func write(notes: Int, corpus: Corpus, generator: inout SeededGenerator, to file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        let archive = try Archive(url: file, accessMode: .create)
        let labels = (0..<40).map { _ in corpus.word(&generator).capitalizingFirst }
        var picture = [UInt8](repeating: 0, count: 24_000)
        let start: Int64 = 1_600_000_000_000_000
        for index in 0..<notes {
            let title = "\(corpus.title(&generator)) \(index)"
            let created = start + Int64(index) * 3_600_000_000 + Int64(generator.next() % 1_000_000)
            var note: [String: Any] = [
                "color": index % 7 == 0 ? "BLUE" : "DEFAULT", "isTrashed": index % 97 == 0, "isPinned": index % 31 == 0,
                "isArchived": index % 13 == 0, "title": title, "createdTimestampUsec": created,
                "userEditedTimestampUsec": created + Int64(generator.next() % 86_400_000_000),
                "labels": (0..<Int(generator.next() % 3)).map { _ in ["name": labels[Int(generator.next() % 40)]] },
            ]
            if index % 5 == 0 {
                note["listContent"] = (0..<(3 + Int(generator.next() % 6))).map { _ in
                    let text = corpus.title(&generator)
                    return ["text": text, "textHtml": text, "isChecked": generator.next() % 3 == 0] as [String: Any]
                }
            } else {
                let text = corpus.body(&generator)
                note["textContent"] = text
                note["textContentHtml"] = "<p dir=\"ltr\"><span style=\"font-weight:400;\">\(text.prefix(200))</span></p>"
            }
            if index % 50 == 0 {
                let name = "\(String(created, radix: 16)).\(index)"
                note["attachments"] = [["filePath": "\(name).jpeg", "mimetype": "image/jpeg"]]
                for position in picture.indices { picture[position] = UInt8(truncatingIfNeeded: generator.next()) }
                try add(Data(picture), as: "Takeout/Keep/\(name).jpg", to: archive)
            }
            let json = try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys])
            try add(json, as: "Takeout/Keep/\(title).json", to: archive)
            try add(Data("<html><body><div class=\"title\">\(title)</div></body></html>".utf8), as: "Takeout/Keep/\(title).html", to: archive)
        }
        try add(Data(labels.joined(separator: "\n").utf8), as: "Takeout/Keep/Labels.txt", to: archive)
    }

    private static func add(_ data: Data, as path: String, to archive: Archive) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}
