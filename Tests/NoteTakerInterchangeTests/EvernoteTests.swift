import Crypto
import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

@Suite struct EvernoteTests {
    static let picture = pngData()
    static var pictureMD5: String { Insecure.MD5.hash(data: picture).map { String(format: "%02x", $0) }.joined() }

    static func note(_ title: String, content: String, resources: String = "", tags: [String] = [], created: String = "20231015T083000Z") -> String {
        """
        <note><title>\(title)</title><content><![CDATA[<?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">
        <en-note>\(content)</en-note>]]></content><created>\(created)</created><updated>20231016T090000Z</updated>
        \(tags.map { "<tag>\($0)</tag>" }.joined())<note-attributes><author>me</author></note-attributes>\(resources)</note>
        """
    }

    static func resource(_ data: Data, mime: String, name: String?, wrap: Bool = true) -> String {
        var base64 = data.base64EncodedString()
        if wrap { base64 = stride(from: 0, to: base64.count, by: 76).map { String(Array(base64)[$0..<min($0 + 76, base64.count)]) }.joined(separator: "\n") }
        return "<resource><data encoding=\"base64\">\n\(base64)\n</data><mime>\(mime)</mime>"
            + (name.map { "<resource-attributes><file-name>\($0)</file-name></resource-attributes>" } ?? "") + "</resource>"
    }

    static func enex(_ notes: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">
        <en-export export-date="20231020T100000Z" application="Evernote" version="10.0">
        \(notes.joined(separator: "\n"))
        </en-export>
        """
    }

    static let richContent = """
        <h1>Trip</h1><div>Plain, <b>bold</b>, <i>italic</i>, <u>under</u>, <s>gone</s>, <span style="font-weight: bold;">styled</span> \
        and <a href="https://example.com/a b">a link</a>&nbsp;&mdash; 5 * 3 [x].</div><div><br/></div>\
        <div><en-todo checked="true"/>Pack bags</div><div><en-todo/>Buy tickets</div>\
        <ul style="--en-todo:true;"><li style="--en-checked:true;"><div>Passport</div></li><li><div>Visa</div></li></ul>\
        <ol><li>First</li><li>Second<ul><li>Nested</li></ul></li></ol>\
        <table><tbody><tr><td>City</td><td>Nights</td></tr><tr><td>Paris | FR</td><td>3</td></tr><tr><td>Αθήνα</td></tr></tbody></table>\
        <blockquote><div>A quote</div></blockquote><div style="--en-codeblock:true;"><div>let x = 1</div><div>print(x)</div></div>\
        <hr/><div>Picture: <en-media hash="\(pictureMD5)" type="image/png"/></div>
        """

    @Test func aRichNoteBecomesMarkdownWithItsPicture() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write(Self.enex([
            Self.note("Trip plans", content: Self.richContent,
                      resources: Self.resource(Self.picture, mime: "image/png", name: "map.png")
                        + Self.resource(Data("boarding pass".utf8), mime: "application/pdf", name: nil),
                      tags: ["travel", "2023"]),
            Self.note("Второй", content: "<div>Ünïcödé Ελληνικά</div>"),
        ]), to: "My Notebook.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.kind == .evernote && report.found == 2 && report.imported == 2, "\(report)")
        let note = try #require(try store.allNotes()["Trip plans"])
        #expect(note.tags.sorted() == ["2023", "travel"])
        #expect(note.createdAt == Timestamp.date(from: "2023-10-15T08:30:00Z"))
        #expect(note.modifiedAt == Timestamp.date(from: "2023-10-16T09:00:00Z"))
        #expect(try store.folderPath(id: #require(note.folderId)) == "My Notebook")
        let map = try #require(note.attachments.first { $0.fileName == "map.png" })
        #expect(map.kind == .image)
        #expect(note.attachments.contains { $0.fileName == "Attachment 2.pdf" })
        let body = note.body
        for expected in [
            "# Trip", "Plain, **bold**, *italic*, under, ~~gone~~, **styled** and [a link](https://example.com/a%20b)\u{A0}— 5 \\* 3 \\[x\\].",
            "- [x] Pack bags\n- [ ] Buy tickets", "- [x] Passport\n- [ ] Visa", "1. First\n2. Second\n   - Nested",
            "| City | Nights |\n| --- | --- |\n| Paris \\| FR | 3 |\n| Αθήνα |  |", "> A quote", "```\nlet x = 1\nprint(x)\n```", "---",
            "Picture: ![map.png](attachment:\(map.id.key))",
        ] {
            #expect(body.contains(expected), "missing: \(expected)\nin:\n\(body)")
        }
        #expect(try store.allNotes()["Второй"]?.text == "Ünïcödé Ελληνικά")

        let again = try Importer(store: store).importItems(at: file)
        #expect(again.imported == 0 && again.alreadyPresent == 2)
        #expect(try store.noteCount() == 2)
    }

    @Test func aTruncatedFileKeepsTheNotesBeforeTheBreak() throws {
        let directory = TemporaryDirectory()
        let whole = Self.enex([Self.note("One", content: "<div>1</div>"), Self.note("Two", content: "<div>2</div>"),
                               Self.note("Three", content: "<div>3</div>", resources: Self.resource(Self.picture, mime: "image/png", name: "p.png"))])
        let cut = String(whole.prefix(upTo: try #require(whole.range(of: "<mime>image/png")).lowerBound))
        let file = try directory.write(cut, to: "cut.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.imported == 2)
        #expect(report.stoppedEarly?.contains("cut off or broken") == true, "\(report)")
        #expect(report.skipped.map(\.item) == ["note 3 'Three'"])
        #expect(Set(try store.allNotes().keys) == ["One", "Two"])
        #expect(try contents(of: store.attachmentsDirectory).isEmpty)
    }

    @Test func badBase64SkipsItsNoteOnly() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write(Self.enex([
            Self.note("Broken", content: "<div>x</div>", resources: "<resource><data encoding=\"base64\">@@@ not base64 !!!!</data><mime>image/png</mime></resource>"),
            Self.note("Fine", content: "<div>ok</div>"),
            Self.note("Bad ENML", content: "<div><i>"),
        ]), to: "mixed.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.found == 3 && report.imported == 1)
        let reasons = report.skipped.map { "\($0.item): \($0.reason)" }
        #expect(reasons.contains { $0.hasPrefix("note 1 'Broken'") && $0.contains("not valid base64") })
        #expect(reasons.contains { $0.hasPrefix("note 3 'Bad ENML'") && $0.contains("holds nothing readable") })
        #expect(Set(try store.allNotes().keys) == ["Fine"])
    }

    @Test func aWrongEncodingIsReportedClearly() throws {
        let directory = TemporaryDirectory()
        var bytes = Data(Self.enex([Self.note("Fine", content: "<div>ok</div>")]).utf8)
        let latin1 = Self.note("Caf\u{E9}", content: "<div>na\u{EF}ve</div>").unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        let end = try #require(bytes.range(of: Data("</en-export>".utf8)))
        bytes.replaceSubrange(end.lowerBound..<end.lowerBound, with: latin1)
        let file = try directory.write(bytes, to: "latin1.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.imported == 1)
        #expect(report.stoppedEarly?.contains("not valid in the declared encoding") == true, "\(report)")
        #expect(Set(try store.allNotes().keys) == ["Fine"])
    }

    @Test func aLargeResourceStreamsThrough() throws {
        let directory = TemporaryDirectory()
        var big = Data(count: 12_000_000)
        big.withUnsafeMutableBytes { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4096) { buffer[index] = UInt8(truncatingIfNeeded: index / 4096) }
        }
        let file = try directory.write(Self.enex([Self.note("Big", content: "<div>see file</div>", resources: Self.resource(big, mime: "application/octet-stream", name: "big.bin", wrap: false))]), to: "big.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.imported == 1, "\(report)")
        let attachment = try #require(try store.allNotes()["Big"]?.attachments.first)
        #expect(attachment.fileSize == 12_000_000)
        #expect(try Data(contentsOf: store.fileURL(for: attachment)) == big)
    }

    @Test func aDeclaredLatin1FileReadsCorrectly() throws {
        let directory = TemporaryDirectory()
        let text = Self.enex([Self.note("Café", content: "<div>naïve crème</div>")])
            .replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE en-export", with: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!DOCTYPE en-export")
        let bytes = Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        let file = try directory.write(bytes, to: "latin.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.imported == 1, "\(report)")
        #expect(try store.allNotes()["Café"]?.text == "naïve crème")
    }

    @Test func resourceNamesAreOnlyLabels() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write(Self.enex([
            Self.note("Tricky", content: "<div>x</div>", resources: Self.resource(Data("#!/bin/sh".utf8), mime: "text/plain", name: "../../../tmp/evil.sh")),
        ]), to: "tricky.enex")
        let store = try directory.store()
        _ = try Importer(store: store).importItems(at: file)
        let attachment = try #require(try store.allNotes()["Tricky"]?.attachments.first)
        #expect(!attachment.fileName.contains("/"))
        #expect(store.fileURL(for: attachment).path.hasPrefix(store.attachmentsDirectory.path))
    }

    @Test func aNoteTooLargeForTheParserStopsTheImportThereClearly() throws {
        let directory = TemporaryDirectory()
        let huge = "<div>" + String(repeating: "word ", count: 2_200_000) + "</div>"
        let file = try directory.write(Self.enex([Self.note("Small", content: "<div>ok</div>"), Self.note("Huge", content: huge)]), to: "huge.enex")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: file)
        #expect(report.imported == 1)
        #expect(report.stoppedEarly?.contains("more than 10 MB of text") == true, "\(report)")
        #expect(report.skipped.map(\.item) == ["note 2 'Huge'"])
        #expect(Set(try store.allNotes().keys) == ["Small"])
    }
}
