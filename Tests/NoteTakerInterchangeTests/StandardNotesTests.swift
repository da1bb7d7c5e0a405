import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Standard Notes backups as "Download backup" writes them (decrypted): a zip with
/// `Standard Notes Backup and Import File.txt` (`{"version": "004", "items": [...]}`) and a
/// plain copy of each item in folders beside it; or that `.txt` alone.
@Suite struct StandardNotesTests {
    static func note(_ uuid: String, _ title: String, _ text: String, type: String? = nil, extra: [String: Any] = [:], app: [String: Any] = [:]) -> [String: Any] {
        var content: [String: Any] = [
            "title": title, "text": text, "references": [], "preview_plain": String(text.prefix(20)), "spellcheck": true,
            "appData": ["org.standardnotes.sn": ["client_updated_at": "2024-02-03T10:00:00.000Z"].merging(app) { $1 }],
        ]
        if let type { content["noteType"] = type }
        content.merge(extra) { $1 }
        return [
            "uuid": uuid, "content_type": "Note", "created_at": "2024-01-05T08:30:00.000Z", "updated_at": "2024-02-03T10:00:00.000Z",
            "created_at_timestamp": 1_704_443_400_000_000, "updated_at_timestamp": 1_706_954_400_000_000, "duplicate_of": NSNull(),
            "content": content,
        ]
    }

    static let superText = #"""
        {"root":{"children":[
          {"children":[{"detail":0,"format":0,"mode":"normal","style":"","text":"Plan","type":"text","version":1}],"direction":"ltr","format":"","indent":0,"type":"heading","version":1,"tag":"h2"},
          {"children":[{"format":1,"text":"Bold","type":"text"},{"format":0,"text":" and ","type":"text"},{"format":18,"text":"code","type":"text"},{"type":"linebreak"},{"children":[{"format":0,"text":"a link","type":"text"}],"type":"link","url":"https://example.com"}],"type":"paragraph"},
          {"children":[{"children":[{"text":"milk","type":"text","format":0}],"checked":true,"type":"listitem","value":1},{"children":[{"text":"eggs","type":"text","format":0}],"checked":false,"type":"listitem","value":2},{"children":[{"children":[{"children":[{"text":"free range","type":"text","format":0}],"checked":false,"type":"listitem","value":1}],"listType":"check","start":1,"tag":"ul","type":"list"}],"type":"listitem","value":3}],"listType":"check","start":1,"tag":"ul","type":"list"},
          {"children":[{"children":[{"text":"one","type":"text","format":0}],"type":"listitem","value":1},{"children":[{"text":"two","type":"text","format":0}],"type":"listitem","value":2}],"listType":"number","start":1,"tag":"ol","type":"list"},
          {"children":[{"text":"let x = 1","type":"code-highlight"},{"type":"linebreak"},{"text":"print(x)","type":"code-highlight"}],"language":"swift","type":"code"},
          {"children":[{"text":"wise words","type":"text","format":2}],"type":"quote"},
          {"type":"horizontalrule"},
          {"children":[{"children":[{"children":[{"children":[{"text":"A","type":"text"}],"type":"paragraph"}],"type":"tablecell"},{"children":[{"children":[{"text":"B","type":"text"}],"type":"paragraph"}],"type":"tablecell"}],"type":"tablerow"},{"children":[{"children":[{"children":[{"text":"1","type":"text"}],"type":"paragraph"}],"type":"tablecell"},{"children":[{"children":[{"text":"2|3","type":"text"}],"type":"paragraph"}],"type":"tablecell"}],"type":"tablerow"}],"type":"table"},
          {"type":"snfile","fileUuid":"f1"}
        ],"direction":"ltr","format":"","indent":0,"type":"root","version":1}}
        """#

    static func backup() throws -> Data {
        let items: [[String: Any]] = [
            note("n-markdown", "Recipes", "# Pancakes\r\n\r\nFlour, milk, eggs.", type: "markdown", app: ["pinned": true]),
            note("n-plain", "Old idea", "just text", app: ["archived": true]),
            note("n-task", "Errands", "- [ ] post office\n- [x] bank", type: "task", extra: ["editorIdentifier": "org.standardnotes.simple-task-editor"]),
            note("n-code", "Script", "echo hi", type: "code"),
            note("n-super", "Super plan", superText, type: "super",
                 extra: ["references": [["uuid": "f1", "content_type": "SN|File", "reference_type": "FileToNote"]]]),
            note("n-rich", "Clipped", "<p>Hello <b>web</b></p>", type: "rich-text"),
            note("n-trash", "Thrown", "gone", type: "plain-text", extra: ["trashed": true]),
            ["uuid": "n-deleted", "content_type": "Note", "deleted": true, "content": NSNull()],
            ["uuid": "t-work", "content_type": "Tag", "content": ["title": "Work", "references": [["uuid": "n-code", "content_type": "Note"]]]],
            ["uuid": "t-projects", "content_type": "Tag", "content": ["title": "Projects", "references": [
                ["uuid": "n-super", "content_type": "Note"], ["uuid": "n-task", "content_type": "Note"],
                ["uuid": "t-work", "content_type": "Tag", "reference_type": "TagToParentTag"],
            ]]],
            ["uuid": "t-food", "content_type": "Tag", "content": ["title": "food", "references": [["uuid": "n-markdown", "content_type": "Note"]]]],
            ["uuid": "s-view", "content_type": "SN|SmartTag", "content": ["title": "Untagged", "predicate": ["keypath": "tags"]]],
            ["uuid": "f1", "content_type": "SN|File", "content": ["name": "scan.pdf", "remoteIdentifier": "abc"]],
            ["uuid": "c1", "content_type": "SN|Component", "content": ["name": "Markdown Pro", "area": "editor-editor"]],
        ]
        return try JSONSerialization.data(withJSONObject: ["version": "004", "items": items], options: [.prettyPrinted, .sortedKeys])
    }

    @Test("a backup imports whole: note types, nested tags, pin, archive, trash, dates; what has no place is named")
    func backupZip() throws {
        let folder = TemporaryDirectory()
        let zip = folder.file("Standard Notes Backup - Sat Feb 03 2024 11_00_00 GMT+0100.zip")
        try ZipFixture.write([
            .file("Standard Notes Backup and Import File.txt", try Self.backup()),
            .text("Items/Note/Recipes-n-markdown.txt", "# Pancakes"), .text("Items/Tag/Work-t-work.txt", "Work"),
        ], to: zip)
        let store = try folder.store()
        let report = try Importer(store: store).importItems(at: zip)
        #expect(report.kind == .standardNotes)
        #expect(report.found == 7 && report.imported == 7 && report.skipped.isEmpty, "\(report)")
        let notes = try store.allNotes()

        let recipes = try #require(notes["Recipes"])
        #expect(recipes.isPinned && recipes.tags == ["food"] && recipes.text == "# Pancakes\n\nFlour, milk, eggs.")
        #expect(recipes.createdAt == Timestamp.date(from: "2024-01-05T08:30:00.000Z"))
        #expect(recipes.modifiedAt == Timestamp.date(from: "2024-02-03T10:00:00.000Z"))
        #expect(try store.folderPath(id: #require(notes["Old idea"]?.folderId)) == "Archive")
        let errands = try #require(notes["Errands"])
        #expect(errands.tags == ["Work/Projects"] && errands.text == "- [ ] post office\n- [x] bank")
        #expect(errands.body.contains(#"editorIdentifier: "org.standardnotes.simple-task-editor""#))
        #expect(try #require(notes["Script"]).text == "```\necho hi\n```" && notes["Script"]?.tags == ["Work"])
        #expect(try #require(notes["Thrown"]).isTrashed)

        let plan = try #require(notes["Super plan"])
        #expect(plan.tags == ["Work/Projects"])
        #expect(plan.text.hasPrefix("## Plan\n\n**Bold** and `code`\\\n[a link](<https://example.com>)\n\n- [x] milk\n- [ ] eggs\n    - [ ] free range\n\n1. one\n2. two"))
        #expect(plan.text.contains("```swift\nlet x = 1\nprint(x)\n```\n\n> *wise words*\n\n---\n\n| A | B |\n| --- | --- |\n| 1 | 2\\|3 |"))
        let warnings = report.warnings.filter { $0.item == "'Super plan'" }.map(\.reason)
        #expect(warnings.contains("its Super note element 'snfile' came in as plain text"), "\(report.warnings)")
        #expect(warnings.contains { $0.hasPrefix("its file 'scan.pdf' is not in the backup") })
        #expect(report.warnings.contains { $0.item == "'Clipped'" && $0.reason.hasPrefix("its text is HTML") })
        #expect(report.warnings.contains { $0.item == "Untagged" && $0.reason.hasPrefix("a smart view") })
    }

    @Test("the backup's .txt alone imports too, twice adding nothing")
    func backupText() throws {
        let folder = TemporaryDirectory()
        let text = try folder.write(try Self.backup(), to: "Standard Notes Backup and Import File.txt")
        let store = try folder.store()
        #expect(try Importer(store: store).importItems(at: text).imported == 7)
        let again = try Importer(store: store).importItems(at: text)
        #expect(again.imported == 0 && again.alreadyPresent == 7, "\(again)")
    }

    @Test("an encrypted backup is refused with what to do instead, and changes nothing")
    func encrypted() throws {
        let folder = TemporaryDirectory()
        let backup: [String: Any] = [
            "version": "004",
            "keyParams": ["identifier": "ada@example.com", "version": "004", "origination": "backup", "pw_nonce": "9f8e7d6c5b4a"],
            "items": [[
                "uuid": "n1", "content_type": "Note", "items_key_id": "k1", "enc_item_key": "004:abc:def:ghi",
                "content": "004:0123456789abcdef:cipher:authenticated", "created_at": "2024-01-05T08:30:00.000Z",
            ]],
        ]
        let file = try folder.write(try JSONSerialization.data(withJSONObject: backup), to: "Standard Notes Backup and Import File.txt")
        let store = try folder.store()
        #expect(throws: InterchangeError.badExport(path: file.path, reason: Wording("reasonStandardNotesEncrypted"))) {
            try Importer(store: store).importItems(at: file)
        }
        #expect(try store.noteCount() == 0)
    }

    @Test("a backup's .txt that is JSON without a list of items is refused, changing nothing")
    func notBackup() throws {
        let folder = TemporaryDirectory()
        let file = try folder.write(#"{"version":"004","items":{"content_type":"Note"}}"#, to: "Standard Notes Backup and Import File.txt")
        let store = try folder.store()
        #expect(throws: InterchangeError.badExport(path: file.path, reason: Wording("reasonStandardNotesNotBackup"))) {
            try Importer(store: store).importItems(at: file)
        }
        #expect(try store.noteCount() == 0)
    }

    @Test("Super notes: damaged JSON is kept as written with a warning; deep nesting comes in as text")
    func superEdges() throws {
        #expect(SuperNote.markdown("not json") == nil)
        var deep = #"{"text":"deep","type":"text"}"#
        for _ in 0..<100 { deep = #"{"type":"quote","children":[\#(deep)]}"# }
        let result = try #require(SuperNote.markdown(#"{"root":{"children":[\#(deep)],"type":"root"}}"#))
        #expect(result.text.contains("deep"))
    }
}
