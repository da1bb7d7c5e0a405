import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

@Suite struct PDFTests {
    /// The text of a PDF, extracted by poppler's `pdftotext` (installed by scripts/test).
    static func text(of pdf: URL) throws -> String {
        let text = try output("pdftotext", "-enc", "UTF-8", pdf.path, "-")
        #expect(!text.isEmpty, "pdftotext is needed (apt install poppler-utils)")
        return text
    }

    /// Standard output of a command found on the PATH.
    static func output(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func fontCoversCJK() throws -> Bool {
        !(try output("fc-list", ":lang=ja")).isEmpty
    }

    @Test func textInEveryScriptComesBackOut() throws {
        let directory = TemporaryDirectory()
        let store = try JSONRoundTripTests.sampleStore(in: directory)
        try store.make("Scripts", """
            # Ελληνικά και русский

            Accents: crème brûlée, naïve, Ångström, **bold café**, *italic Ωμέγα*, `code ёж`, [a link](https://example.com/x?a=1&b=2).

            - [x] done item
            - [ ] open item
            1. first

            > quoted Привет

            ```
            let total = 42 // σχόλιο
            ```

            | a | b |
            | --- | --- |
            | 1 | 2 |

            <script>alert(1)</script> & < > "quotes"
            """)
        let pdf = directory.file("notes.pdf")
        let report = try Exporter(store: store).export(.pdf, to: pdf)
        #expect(report.notes == 3)
        #expect(try Data(contentsOf: pdf).starts(with: Data("%PDF-".utf8)))
        let text = try Self.text(of: pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["Ελληνικά και русский", "crème brûlée, naïve, Ångström", "bold café", "italic Ωμέγα", "code ёж",
                         "a link (https://", "example.com/x?a=1&b=2)", "done item", "open item", "quoted Привет",
                         "let total = 42 // σχόλιο", "<script>alert(1)</script> & < > \"quotes\"", "Café plans", "Work / Projects"] {
            #expect(text.contains(expected), "missing '\(expected)' in:\n\(text)")
        }
        #expect(!text.contains("**") && !text.contains("Old idea"))
        #expect(try Self.output("pdfimages", "-list", pdf.path).contains("image"), "the red square is drawn as a picture")
        #expect(report.warnings.contains { Catalog.errors.text($0, in: .english).contains("CJK") } == !(try Self.fontCoversCJK()),
                "the sample's 日本語 needs a CJK font; without one the report says how to get it")
    }

    @Test func oneNoteOrOneFolder() throws {
        let directory = TemporaryDirectory()
        let store = try JSONRoundTripTests.sampleStore(in: directory)
        let unfiled = try #require(try store.allNotes()["Unfiled"])
        let one = directory.file("one.pdf")
        #expect(try Exporter(store: store).export(.pdf, selection: NoteSelection(noteId: unfiled.id), to: one).notes == 1)
        let text = try Self.text(of: one)
        #expect(text.contains("Unfiled") && !text.contains("Café plans"))
        let work = try store.resolveFolder("Work")
        let folder = directory.file("work.pdf")
        #expect(try Exporter(store: store).export(.pdf, selection: NoteSelection(folderId: work.id), to: folder).notes == 1)
        #expect(try Self.text(of: folder).contains("Café plans"))
    }
}
