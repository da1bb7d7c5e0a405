import Foundation
import Testing

/// `notetaker edit` in `$EDITOR` never writes over a change made meanwhile, and
/// `notetaker history` lists, shows, diffs and restores versions.
@Suite struct HistoryCommandTests {
    let cli = CLIRunner()

    @Test func anEditorSessionMergesAChangeMadeWhileItWasOpen() throws {
        let id = try cli.ok(["new", "Shared", "--body", "line one\nline two\nline three"])
        let opened = cli.directory.appendingPathComponent("opened")
        let go = cli.directory.appendingPathComponent("go")
        let script = cli.directory.appendingPathComponent("slow-editor.sh")
        // The editor opens, waits (at most 30 s) while another process edits, then adds a line.
        try """
            #!/bin/sh
            touch "\(opened.path)"
            i=0
            while [ ! -f "\(go.path)" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
            printf '\\nadded in the editor' >> "$1"
            """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let editing = try cli.start(["edit", id], environment: ["EDITOR": script.path, "VISUAL": ""])
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: opened.path), Date() < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: opened.path), "the editor never opened")
        try cli.ok(["edit", id, "--body", "line one\nline two EDITED\nline three"])
        try Data().write(to: go)
        let result = try editing.finish(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("both changes were merged"))
        let shown = try #require(try cli.run(["show", id, "--json"]).json() as? [String: Any])
        #expect(shown["body"] as? String == "line one\nline two EDITED\nline three\nadded in the editor")
    }

    @Test func historyListsShowsDiffsAndRestores() throws {
        #expect(try cli.ok(["sync", "settings", "--device-name", "Kitchen laptop"]).contains("device name     Kitchen laptop"))
        let id = try cli.ok(["new", "Recipe", "--body", "flour\nwater"])
        try cli.ok(["edit", id, "--body", "flour\nwater\nsalt"])
        let versions = try #require(try cli.run(["history", id, "--json"]).json() as? [[String: Any]])
        #expect(versions.count == 1)
        #expect(versions[0]["replacedBy"] as? String == "edit")
        #expect(versions[0]["summary"] as? String == "+1 −0 line")
        #expect(versions[0]["device"] as? String == "Kitchen laptop")
        #expect(versions[0]["thisDevice"] as? Bool == true)
        let number = try #require(versions[0]["version"] as? Int)
        #expect(try cli.ok(["history", "show", id, String(number)]) == "Recipe\n\nflour\nwater")
        #expect(try cli.ok(["history", "show", id, String(number), "--diff"]).contains("+ salt"))
        try cli.ok(["history", "restore", id, String(number)])
        let shown = try #require(try cli.run(["show", id, "--json"]).json() as? [String: Any])
        #expect(shown["body"] as? String == "flour\nwater")
        let listed = try cli.ok(["history", id])
        #expect(listed.contains("this device"), "the versions written here say so: \(listed)")
        #expect(listed.contains("then replaced by a restore"))
        let badName = try cli.run(["sync", "settings", "--device-name", String(repeating: "x", count: 101)])
        #expect(badName.status == 1)
        #expect(badName.stderr.contains("at most 100 characters"))

        let unknown = try cli.run(["history", "restore", id, "99999"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("has no version 99999"))
        #expect(try cli.run(["history", "show", id, "abc"]).status == 2)
        try cli.ok(["history", "retention", "--every-version-days", "3", "--daily-days", "30", "--weekly-days", "365"])
        #expect(try cli.ok(["history", "retention"]).contains("Every version for 3 days, one a day for 30 days, then one a week until 365 days"))
        let bad = try cli.run(["history", "retention", "--every-version-days", "40"])
        #expect(bad.status == 1)
        #expect(try cli.ok(["history", "prune"]).isEmpty)
    }
}
