import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Exports shaped as Evernote 10 and later write them (indented, with Tasks beside the
/// content), and the damage Evernote's editors leave in older notes.
@Suite struct EvernoteTenTests {
    /// A note as Evernote 10 writes it: every element on its own indented line, whitespace
    /// around the CDATA and inside it before the XML declaration.
    static func note(_ title: String, content: String, tasks: String = "", created: String = "20240105T101500Z") -> String {
        """
          <note>
            <title>\(title)</title>
            <created>\(created)</created>
            <updated>20240106T080000Z</updated>
            <tag>work</tag>
            <note-attributes>
              <author>Ada Lovelace</author>
            </note-attributes>
            <content>
              <![CDATA[  <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd"><en-note>\(content)</en-note>      ]]>
            </content>
        \(tasks)
          </note>
        """
    }

    static func task(_ title: String, status: String, group: String, weight: String) -> String {
        """
            <task>
              <title>\(title)</title>
              <created>20240105T101600Z</created>
              <updated>20240105T101700Z</updated>
              <taskStatus>\(status)</taskStatus>
              <inNote>true</inNote>
              <taskFlag>false</taskFlag>
              <sortWeight>\(weight)</sortWeight>
              <noteLevelID>\(UUID().uuidString.lowercased())</noteLevelID>
              <taskGroupNoteLevelID>\(group)</taskGroupNoteLevelID>
              <statusUpdated>20240105T101700Z</statusUpdated>
            </task>
        """
    }

    let directory = TemporaryDirectory()

    func importing(_ text: String) throws -> (ImportReport, NoteStore) {
        let file = try directory.write(text, to: "Work.enex")
        let store = try directory.store()
        return (try Importer(store: store).importItems(at: file), store)
    }

    @Test("an Evernote 10 export, indented around its content, imports every note")
    func indentedExport() throws {
        let (report, store) = try importing(EvernoteTests.enex([
            Self.note("Plan", content: "<div>First <b>bold</b> line</div><div>Second line</div>"),
            Self.note("Ideas", content: "<h2>Later</h2><div>Something</div>"),
        ]))
        #expect(report.imported == 2 && report.skipped.isEmpty, "\(report)")
        #expect(report.stoppedEarly == nil, "\(report)")
        let notes = try store.allNotes()
        #expect(notes["Plan"]?.body.hasPrefix("```properties\nauthor: \"Ada Lovelace\"\n```\n\n") == true, "the author is kept")
        #expect(notes["Plan"]?.text == "First **bold** line\n\nSecond line")
        #expect(notes["Ideas"]?.text == "## Later\n\nSomething")
        #expect(notes["Plan"]?.tags == ["work"])
    }

    @Test("an empty <content> (Evernote for Windows' web clips) is an empty note, not a skipped one")
    func emptyContent() throws {
        let empty = """
              <note><title>Clipped page</title><content></content><created>20240105T101500Z</created></note>
            """
        let (report, store) = try importing(EvernoteTests.enex([empty]))
        #expect(report.imported == 1 && report.skipped.isEmpty, "\(report)")
        #expect(try store.allNotes()["Clipped page"]?.body == "")
    }

    @Test("content that is not well-formed is recovered with a warning; only a note with nothing readable is skipped")
    func damagedContent() throws {
        let damaged = Self.note("Damaged", content: "<div>Opened <b>bold<div>never closed<br>a line & more</div>")
        let empty = Self.note("Nothing", content: "<div><span></div></en-note")
        let (report, store) = try importing(EvernoteTests.enex([damaged, empty]))
        #expect(report.imported == 1, "\(report)")
        let warning = try #require(report.warnings.first { $0.item.contains("Damaged") }?.reason)
        #expect(warning.contains("damaged") && warning.contains("what could be read was imported"), "\(warning)")
        let body = try #require(try store.allNotes()["Damaged"]?.body)
        for text in ["Opened", "bold", "never closed", "a line & more"] { #expect(body.contains(text), "\(text) in \(body)") }
        #expect(report.skipped.map(\.item) == ["note 2 'Nothing'"])
        let reason = try #require(report.skipped.first?.reason)
        #expect(reason.contains("holds nothing readable"))
        #expect(!reason.contains("error 6") && !reason.contains("XML error"), "no libxml2 numbers: \(reason)")
    }

    @Test("Evernote's Tasks become a checklist where their group's placeholder is, in Evernote's order")
    func tasks() throws {
        let content = """
            <div>Before</div><div style="--en-task-group:true; --en-id:group-1;"><div>Content not supported</div></div><div>After</div>
            """
        let tasks = [
            Self.task("Book the room", status: "completed", group: "group-1", weight: "B"),
            Self.task("Call Ada", status: "open", group: "group-1", weight: "A"),
            Self.task("Without a place", status: "open", group: "group-9", weight: "A"),
        ].joined(separator: "\n")
        let (report, store) = try importing(EvernoteTests.enex([Self.note("Tasks", content: content, tasks: tasks)]))
        #expect(report.imported == 1, "\(report)")
        let body = try #require(try store.allNotes()["Tasks"]?.text)
        #expect(body == "Before\n\n- [ ] Call Ada\n- [x] Book the room\n\nAfter\n\n- [ ] Without a place")
        #expect(!body.contains("not supported"))
    }

    @Test("two notes alike in one file are two notes; the same file imported again adds none")
    func identicalNotes() throws {
        let twin = Self.note("Same", content: "<div>Same text</div>")
        let file = try directory.write(EvernoteTests.enex([twin, twin]), to: "Work.enex")
        let store = try directory.store()
        let first = try Importer(store: store).importItems(at: file)
        #expect(first.imported == 2 && first.alreadyPresent == 0, "\(first)")
        let again = try Importer(store: store).importItems(at: file)
        #expect(again.imported == 0 && again.alreadyPresent == 2, "\(again)")
        #expect(try store.notes(NoteQuery(limit: 100)).map(\.title) == ["Same", "Same"])
    }
}
