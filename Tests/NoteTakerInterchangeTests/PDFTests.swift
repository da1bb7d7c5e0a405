import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

@Suite struct PDFTests {
    /// The text of a PDF, extracted by poppler's `pdftotext` (installed by scripts/test).
    static func text(of pdf: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pdftotext", "-enc", "UTF-8", pdf.path, "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "pdftotext is needed (apt install poppler-utils)")
        return String(decoding: data, as: UTF8.self)
    }

    static func fontCoversCJK() throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["fc-list", ":lang=ja"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return !data.isEmpty
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
        #expect(report.warnings.contains { $0.contains("CJK") } == !(try Self.fontCoversCJK()),
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
