import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// What Evernote's editors and web clipper write, kept as the note showed it: bold by weight,
/// the highlighter, hidden clip text, table captions and line breaks in cells, links inside
/// code, tasks inside list items, files the text never shows, and files that go on after the
/// export.
@Suite struct EvernoteFidelityTests {
    let directory = TemporaryDirectory()

    func body(_ content: String, resources: String = "") throws -> (String, ImportReport) {
        let store = try directory.store()
        let file = try directory.write(EvernoteTests.enex([EvernoteTests.note("Clip", content: content, resources: resources)]), to: "Clips.enex")
        let report = try Importer(store: store).importItems(at: file)
        return (try #require(try store.notes().first).text, report)
    }

    @Test("bold written as a weight, and both highlighters")
    func weightsAndHighlights() throws {
        let (text, _) = try body("""
            <div><span style="font-weight: 700;">heavy</span>, <span style="font-weight:600">semi</span>, \
            <span style="font-weight: 400;">plain</span>, <span style="font-weight: bolder">bolder</span></div>\
            <div><span style="--en-highlight:yellow;background-color: rgb(255, 239, 158);">marked</span> and \
            <span style="-evernote-highlight:true; background-color:#FFFFb0">marked before</span></div>
            """)
        #expect(text.contains("**heavy**, **semi**, plain, **bolder**"), "\(text)")
        #expect(text.contains("<mark>marked</mark> and <mark>marked before</mark>"), "\(text)")
    }

    @Test("text a web page hid stays hidden")
    func hiddenText() throws {
        let (text, _) = try body("""
            <div>Article</div><div style="display:none">Subscribe to our newsletter</div>\
            <div>Body <span style="display: none;">tracking pixel text</span>continues</div>\
            <div style="visibility: hidden">menu</div>
            """)
        #expect(text == "Article\n\nBody continues", "\(text)")
    }

    @Test("a table keeps its caption and the line breaks in its cells")
    func tables() throws {
        let (text, _) = try body("""
            <table><caption>Prices</caption><tbody><tr><td><div>Item</div></td><td><div>Cost</div></td></tr>\
            <tr><td><div>Tea</div><div>green</div></td><td>2 <br/>or 3</td></tr></tbody></table>
            """)
        #expect(text.contains("*Prices*\n\n| Item | Cost |"), "\(text)")
        #expect(text.contains("| Tea<br>green | 2<br>or 3 |"), "\(text)")
    }

    @Test("links inside code keep their targets")
    func linksInCode() throws {
        let (text, _) = try body("""
            <div>Call <code><a href="https://x.dev/api">api()</a></code> or <code>see <a href="https://x.dev/b">b</a></code></div>\
            <pre>curl <a href="https://example.com/data">https://example.com/data</a></pre>
            """)
        #expect(text.contains("[`api()`](https://x.dev/api)"), "\(text)")
        #expect(text.contains("`see b` (<https://x.dev/b>)"), "\(text)")
        #expect(text.contains("```\ncurl https://example.com/data\n```\n\nLinks in the code above: <https://example.com/data>"), "\(text)")
    }

    @Test("a checkbox at the start of a list item makes a task item, not a list in the item")
    func tasksInLists() throws {
        let (text, _) = try body("""
            <ul><li><div><en-todo checked="true"/>Pack</div></li><li><div><en-todo/>Lock the door</div></li><li>Plain</li></ul>\
            <ol><li><en-todo/>First</li></ol>
            """)
        #expect(text.contains("- [x] Pack\n- [ ] Lock the door\n- Plain"), "\(text)")
        #expect(text.contains("1. [ ] First"), "\(text)")
        #expect(!text.contains("- - ["))
    }

    @Test("a file the text never shows is still shown, under the text")
    func unshownResources() throws {
        let shown = EvernoteTests.resource(EvernoteTests.picture, mime: "image/png", name: "map.png")
        let unshown = EvernoteTests.resource(Data("minutes".utf8), mime: "application/pdf", name: "minutes.pdf")
        let hash = EvernoteTests.pictureMD5
        let (text, report) = try body("<div>Meeting</div><en-media type=\"image/png\" hash=\"\(hash)\"/>", resources: shown + unshown)
        #expect(report.imported == 1)
        #expect(text.hasPrefix("Meeting\n\n![map.png](attachment:"), "\(text)")
        #expect(text.hasSuffix(")") && text.contains("\n\n[minutes.pdf](attachment:"), "\(text)")
    }

    @Test("a file that goes on after </en-export> imported whole, with a warning instead of 'stopped early'")
    func contentAfterTheExport() throws {
        let store = try directory.store()
        let text = EvernoteTests.enex([EvernoteTests.note("One", content: "<div>1</div>"), EvernoteTests.note("Two", content: "<div>2</div>")])
            + "\n<en-export><note><title>pasted twice</title></note></en-export>\n"
        let report = try Importer(store: store).importItems(at: try directory.write(text, to: "Twice.enex"))
        #expect(report.imported == 2)
        #expect(report.stoppedEarly == nil)
        #expect(report.warnings.contains { $0.reason.contains("goes on after the end of the export") })
    }
}

@Suite struct PropertiesImportTests {
    let directory = TemporaryDirectory()

    @Test("Evernote's author, source, place and reminder are kept as the note's properties")
    func evernoteAttributes() throws {
        let note = """
            <note><title>Clipped</title><content><![CDATA[<?xml version="1.0" encoding="UTF-8"?><en-note><div>Recipe</div></en-note>]]></content>\
            <created>20231015T083000Z</created><note-attributes><latitude>38.7223</latitude><longitude>-9.1393</longitude>\
            <altitude>12</altitude><author>Ada Lovelace</author><source>web.clip7</source>\
            <source-url>https://cooking.example.com/soup?id=7&amp;x=1</source-url><reminder-time>20231101T090000Z</reminder-time>\
            <place-name>Lisbon</place-name></note-attributes></note>
            """
        let store = try directory.store()
        _ = try Importer(store: store).importItems(at: try directory.write(EvernoteTests.enex([note]), to: "Clips.enex"))
        let body = try #require(try store.notes().first?.body)
        #expect(body == """
            ```properties
            author: "Ada Lovelace"
            source: "web.clip7"
            source-url: "https://cooking.example.com/soup?id=7&x=1"
            reminder-time: "2023-11-01T09:00:00.000Z"
            place-name: "Lisbon"
            location: "38.7223, -9.1393, 12"
            ```

            Recipe
            """, "\(body)")
    }

    @Test("Obsidian properties stay with the note, go back into front matter on export, and come back the same")
    func obsidianRoundTrip() throws {
        try directory.write("""
            ---
            title: Leek soup
            tags: [cooking]
            created: 2024-02-01
            status: draft
            aliases:
              - "Soup, leek"
              - Potage
            rating: 4
            related: "[[Stock]]"
            ---
            Chop the leeks.
            """, to: "vault/Leek soup.md")
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: directory.file("vault"))
        #expect(report.imported == 1 && report.warnings.isEmpty, "\(report)")
        let note = try #require(try store.notes().first)
        #expect(note.body == """
            ```properties
            status: draft
            aliases:
              - "Soup, leek"
              - Potage
            rating: 4
            related: "[[Stock]]"
            ```

            Chop the leeks.
            """, "\(note.body)")
        #expect(note.tags == ["cooking"] && note.title == "Leek soup")

        let exported = directory.file("export")
        _ = try Exporter(store: store).export(.markdown, to: exported)
        let file = try #require(FileManager.default.enumerator(atPath: exported.path)?.compactMap { $0 as? String }.first { $0.hasSuffix("Leek soup.md") })
        let text = try String(contentsOf: exported.appendingPathComponent(file), encoding: .utf8)
        #expect(text.contains("pinned: false\nstatus: draft\naliases:\n  - \"Soup, leek\"\n  - Potage\nrating: 4\nrelated: \"[[Stock]]\"\n---\n"), "\(text)")
        #expect(!text.contains("```properties"))

        let again = try directory.store("Again")
        _ = try Importer(store: again).importItems(at: exported)
        #expect(try again.notes().first?.body == note.body, "a round trip keeps the properties as they were")
    }
}
