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
        return (try #require(try store.notes().first).body, report)
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
