import Foundation
import Testing

@Suite("notetaker: notes")
struct NoteCommandTests {
    let cli = CLIRunner()

    @Test func newPrintsTheIdAndListShowsTheNote() throws {
        let id = try cli.ok(["new", "Café plans", "--body", "Visit the naïve café", "--tag", "Travel", "--pin"])
        #expect(UUID(uuidString: id) != nil)
        let list = try cli.ok(["list"])
        #expect(list.contains(String(id.prefix(8))))
        #expect(list.contains("* Café plans  #Travel"))
    }

    @Test func duplicatePrintsTheCopysId() throws {
        let id = try cli.ok(["new", "Bread", "--body", "flour", "--tag", "baking"])
        let copy = try cli.ok(["duplicate", String(id.prefix(8))])
        #expect(UUID(uuidString: copy) != nil && copy != id)
        let shown = try #require(try cli.run(["show", copy, "--json"]).json() as? [String: Any])
        #expect(shown["title"] as? String == "Bread (copy)")
        #expect(shown["body"] as? String == "flour")
        #expect(shown["tags"] as? [String] == ["baking"])
        try cli.ok(["rm", copy])
        let refused = try cli.run(["duplicate", copy])
        #expect(refused.status == 1 && refused.stderr.contains("trash"), "\(refused.stderr)")
    }

    @Test func listSortsByTitleOrCreation() throws {
        try cli.ok(["new", "beta"])
        try cli.ok(["new", "Alpha"])
        let titles = { (sort: String) throws -> [String?] in
            try #require(try cli.run(["list", "--sort", sort, "--json"]).json() as? [[String: Any]]).map { $0["title"] as? String }
        }
        #expect(try titles("title") == ["Alpha", "beta"])
        #expect(try titles("created") == ["Alpha", "beta"])
        let bad = try cli.run(["list", "--sort", "size"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("modified") && bad.stderr.contains("title"))
    }

    @Test func linksBacklinksAndLinkTo() throws {
        let target = try cli.ok(["new", "Groceries", "--body", "milk"])
        let link = try cli.ok(["link-to", String(target.prefix(8))])
        #expect(link == "[Groceries](note:\(target))")
        let source = try cli.ok(["new", "Plan", "--body", "Buy \(link) on Friday"])
        #expect(try cli.ok(["links", source]).contains("Groceries"))
        let backlinks = try #require(try cli.run(["backlinks", target, "--json"]).json() as? [[String: Any]])
        #expect(backlinks.map { $0["title"] as? String } == ["Plan"])
        #expect(backlinks.first?["context"] as? String == "Buy Groceries on Friday")
        #expect(try cli.ok(["backlinks", source]) == "No note links here.")
        #expect(try cli.run(["links", "ffffffff"]).status == 1)
    }

    @Test func jsonHasTheDocumentedFields() throws {
        let folderId = try cli.ok(["folder", "new", "Work"])
        let created = try #require(try cli.run(["new", "Report", "--body", "- [ ] draft", "--folder", "Work", "--tag", "q3", "--json"]).json() as? [String: Any])
        #expect(Set(created.keys) == ["id", "title", "body", "createdAt", "modifiedAt", "isPinned", "folderId", "tags",
                                      "attachments", "syncStatus", "trashedAt"])
        #expect(created["folderId"] as? String == folderId)
        #expect(created["tags"] as? [String] == ["q3"])
        #expect(created["isPinned"] as? Bool == false)
        #expect(created["syncStatus"] as? String == "pending")
        #expect(created["trashedAt"] is NSNull)
        #expect((created["createdAt"] as? String)?.hasSuffix("Z") == true)
        let list = try #require(try cli.run(["list", "--json"]).json() as? [[String: Any]])
        #expect(list.map { $0["title"] as? String } == ["Report"])
    }

    @Test func bodyFromStandardInput() throws {
        let id = try cli.ok(["new", "Piped", "--stdin"], stdin: "# Heading\n\n- from a pipe\n")
        let shown = try #require(try cli.run(["show", id, "--json"]).json() as? [String: Any])
        #expect(shown["body"] as? String == "# Heading\n\n- from a pipe\n")
        try cli.ok(["edit", String(id.prefix(6)), "--stdin"], stdin: "replaced")
        #expect(try cli.ok(["show", id]).hasSuffix("replaced"))
    }

    @Test func editWithOptionsAndWithTheEditor() throws {
        let id = try cli.ok(["new", "Old title", "--body", "old body"])
        try cli.ok(["edit", id, "--title", "New title"])
        #expect(try cli.ok(["show", id]).hasPrefix("# New title"))

        let script = cli.directory.appendingPathComponent("editor.sh")
        try "#!/bin/sh\nprintf 'Edited in editor\\n\\nnew body\\nsecond line' > \"$1\"\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try cli.ok(["edit", id], environment: ["EDITOR": script.path, "VISUAL": ""])
        let shown = try #require(try cli.run(["show", id, "--json"]).json() as? [String: Any])
        #expect(shown["title"] as? String == "Edited in editor")
        #expect(shown["body"] as? String == "new body\nsecond line")

        let failing = try cli.run(["edit", id], environment: ["EDITOR": "false", "VISUAL": ""])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("the note was not changed"))
    }

    @Test func idPrefixesAndAmbiguity() throws {
        var ids: [String] = []
        for index in 0..<40 { ids.append(try cli.ok(["new", "n\(index)"])) }
        let first = ids[0]
        #expect(try cli.ok(["show", String(first.prefix(8))]).contains("# n0"))
        // With 40 ids, some share their first character.
        let shared = Dictionary(grouping: ids, by: { $0.prefix(1) }).first { $0.value.count > 1 }!.key
        let ambiguous = try cli.run(["show", String(shared)])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("matches more than one item"))
        let missing = try cli.run(["show", "zzzz"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: No note matches 'zzzz'. Run `notetaker list` to see note ids.\n")
    }

    @Test func pinUnpinAndMove() throws {
        let a = try cli.ok(["new", "A"])
        try cli.ok(["new", "B"])
        try cli.ok(["pin", a])
        #expect(try cli.run(["list"]).lines.first?.contains("* A") == true)
        try cli.ok(["unpin", a])
        #expect(try cli.run(["list"]).lines.allSatisfy { !$0.contains("* ") })
        try cli.ok(["folder", "new", "Inbox"])
        try cli.ok(["mv", a, "--folder", "Inbox"])
        #expect(try cli.run(["list", "--folder", "inbox"]).lines.count == 1)
        try cli.ok(["mv", a, "--no-folder"])
        #expect(try cli.run(["list", "--folder", "Inbox"]).lines.isEmpty)
        #expect(try cli.run(["mv", a]).status == 2)
        #expect(try cli.run(["mv", a, "--folder", "Inbox", "--no-folder"]).status == 2)
        #expect(try cli.run(["mv", a, "--folder", "Nowhere"]).status == 1)
    }

    @Test func listFiltersAndPages() throws {
        for index in 0..<5 { try cli.ok(["new", "plain \(index)"]) }
        try cli.ok(["new", "tagged", "--tag", "Work"])
        try cli.ok(["new", "pinned", "--pin"])
        #expect(try cli.run(["list", "--tag", "work"]).lines.count == 1)
        #expect(try cli.run(["list", "--pinned"]).lines.count == 1)
        #expect(try cli.run(["list", "--recent"]).lines.count == 7)
        #expect(try cli.run(["list", "--limit", "3"]).lines.count == 3)
        #expect(try cli.run(["list", "--limit", "3", "--offset", "6"]).lines.count == 1)
        #expect(try cli.run(["list", "--limit", "0"]).status == 1)
        #expect(try cli.run(["list", "--limit", "many"]).status == 2)
    }

    @Test func trashRestorePurgeAndEmpty() throws {
        let a = try cli.ok(["new", "A", "--body", "findable"])
        let b = try cli.ok(["new", "B"])
        try cli.ok(["rm", a, b])
        #expect(try cli.run(["list"]).lines.isEmpty)
        #expect(try cli.run(["trash"]).lines.count == 2)
        #expect(try cli.run(["search", "findable"]).lines.isEmpty)
        try cli.ok(["restore", a])
        #expect(try cli.run(["search", "findable"]).lines.count == 2)
        let notTrashed = try cli.run(["purge", a])
        #expect(notTrashed.status == 1)
        #expect(notTrashed.stderr.contains("is not in the trash"))
        try cli.ok(["purge", b])
        #expect(try cli.run(["trash"]).lines.isEmpty)
        try cli.ok(["rm", a])
        try cli.ok(["empty"])
        #expect(try cli.run(["show", a]).status == 1)
    }
}
