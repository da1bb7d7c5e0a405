import Foundation
import Testing

@Suite("notetaker: folders, tags, attachments, search, stats")
struct OrganizingCommandTests {
    let cli = CLIRunner()

    @Test func folders() throws {
        try cli.ok(["folder", "new", "Work", "--icon", "briefcase"])
        try cli.ok(["folder", "new", "Projects", "--parent", "Work"])
        try cli.ok(["folder", "new", "Deep", "--parent", "Work/Projects"])
        try cli.ok(["new", "memo", "--folder", "Work/Projects/Deep"])
        let tree = try cli.run(["folder", "list"]).lines
        #expect(tree.count == 3)
        #expect(tree[0].hasSuffix("Work (0, 1 with subfolders)"))
        #expect(tree[2].hasSuffix("    Deep (1)"))
        let json = try #require(try cli.run(["folder", "list", "--json"]).json() as? [[String: Any]])
        #expect(json.map { $0["path"] as? String } == ["Work", "Work/Projects", "Work/Projects/Deep"])
        #expect(json[0]["icon"] as? String == "briefcase")

        let cycle = try cli.run(["folder", "mv", "Work", "--parent", "Work/Projects/Deep"])
        #expect(cycle.status == 1)
        #expect(cycle.stderr.contains("Cannot move folder 'Work' into 'Deep'"))
        #expect(try cli.run(["folder", "mv", "Deep"]).status == 2)
        try cli.ok(["folder", "mv", "Deep", "--root"])
        try cli.ok(["folder", "rename", "Deep", "Shallow"])
        #expect(try cli.run(["folder", "new", "shallow"]).stderr.contains("already exists"))
        try cli.ok(["folder", "rm", "Work"])
        let after = try #require(try cli.run(["folder", "list", "--json"]).json() as? [[String: Any]])
        #expect(Set(after.compactMap { $0["path"] as? String }) == ["Projects", "Shallow"])
        #expect(try cli.run(["list"]).lines.count == 1)
        #expect(try cli.run(["folder", "rm", "Nope"]).status == 1)
    }

    @Test func tags() throws {
        let id = try cli.ok(["new", "note"])
        try cli.ok(["tag", "add", id, "Work", "urgent"])
        try cli.ok(["tag", "add", id, "WORK"])
        #expect(try cli.run(["tag", "list"]).lines == ["urgent  1", "Work    1"])
        try cli.ok(["tag", "rm", id, "urgent"])
        try cli.ok(["tag", "rename", "work", "Job"])
        try cli.ok(["new", "other", "--tag", "Career"])
        try cli.ok(["tag", "merge", "job", "career"])
        let tags = try #require(try cli.run(["tag", "list", "--json"]).json() as? [[String: Any]])
        #expect(tags.map { $0["name"] as? String } == ["Career", "urgent"])
        #expect(tags.map { $0["noteCount"] as? Int } == [2, 0])
        try cli.ok(["tag", "delete", "urgent"])
        #expect(try cli.run(["tag", "delete", "urgent"]).status == 1)
        #expect(try cli.run(["tag", "add", id]).status == 2)
    }

    @Test func attachments() throws {
        let id = try cli.ok(["new", "With a picture"])
        let file = cli.directory.appendingPathComponent("photo.png")
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try png.write(to: file)
        let attachmentId = try cli.ok(["attach", id, file.path])
        let listed = try #require(try cli.run(["attachments", id, "--json"]).json() as? [[String: Any]])
        #expect(listed.first?["kind"] as? String == "image")
        #expect(listed.first?["fileName"] as? String == "photo.png")
        #expect(listed.first?["fileSize"] as? Int == png.count)
        #expect(try cli.run(["attachments", id]).lines.first?.contains("image") == true)

        let out = cli.directory.appendingPathComponent("copy.png")
        try cli.ok(["extract", String(attachmentId.prefix(8)), "--out", out.path])
        #expect(try Data(contentsOf: out) == png)
        #expect(try cli.run(["extract", attachmentId, "--out", out.path]).status == 1)

        let other = try cli.ok(["new", "Other"])
        #expect(try cli.run(["detach", other, attachmentId]).status == 1)
        try cli.ok(["detach", id, attachmentId])
        #expect(try cli.run(["attachments", id]).lines.isEmpty)
        let missing = try cli.run(["attach", id, "/nonexistent/file"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Cannot read '/nonexistent/file'"))
    }

    @Test func search() throws {
        try cli.ok(["new", "Crème brûlée", "--body", "Caramelize the sugar on top", "--tag", "Dessert", "--pin"])
        try cli.ok(["new", "Shopping", "--body", "sugar, eggs, cream"])
        let lines = try cli.run(["search", "creme"]).lines
        #expect(lines.first?.contains("Crème brûlée") == true)
        let hits = try #require(try cli.run(["search", "sugar", "--json"]).json() as? [[String: Any]])
        #expect(hits.count == 2)
        #expect(hits.allSatisfy { ($0["snippet"] as? String)?.contains("[sugar]") == true })
        #expect(hits.allSatisfy { ($0["rank"] as? Double ?? 0) > 0 })
        #expect(try cli.run(["search", "sugar", "--tag", "dessert"]).lines.count == 2)
        #expect(try cli.run(["search", "sugar", "--pinned", "--limit", "1"]).lines.count == 2)
        for hostile in ["\"unbalanced", "NEAR(", "*", "-", "a OR", "title:x", "😀", "中文", "'; DROP TABLE note; --"] {
            let result = try cli.run(["search", hostile])
            #expect(result.status == 0, "search \(hostile): \(result.stderr)")
        }
        #expect(try cli.run(["search", "sugar", "--tag", "nope"]).status == 1)
    }

    @Test func searchInsideWordsAndInJapanese() throws {
        try cli.ok(["new", "Morning", "--body", "A cup of coffee"])
        try cli.ok(["new", "旅行", "--body", "東京タワーに行きました"])
        #expect(try cli.run(["search", "ffee"]).lines.isEmpty)
        let lines = try cli.run(["search", "--contains", "ffee"]).lines
        #expect(lines.count == 2 && lines[0].contains("Morning") && lines[1].contains("A cup of co[ffee]"))
        #expect(try cli.run(["search", "タワー"]).lines.first?.contains("旅行") == true)
        for bad in [["search"], ["search", "x", "--contains", "y"], ["search", "--contains", ""]] {
            let result = try cli.run(bad)
            #expect(result.status != 0 && result.stderr.contains("--contains"), "\(bad): \(result.stderr)")
        }
    }

    @Test func commandsThatOnlyReadWriteNothing() throws {
        try cli.ok(["new", "Groceries", "--body", "milk"])
        let id = try #require((try cli.run(["list", "--json"]).json() as? [[String: Any]])?.first?["id"] as? String)
        let file = URL(fileURLWithPath: cli.storePath)
        let before = try Data(contentsOf: file)
        for command in [["list"], ["search", "milk"], ["search", "--contains", "ilk"], ["stats"], ["folder", "list"], ["tag", "list"],
                        ["show", id], ["history", id], ["backlinks", id], ["sync", "status"], ["preferences"]] {
            let result = try cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: file) == before, "\(command) changed the store file")
        }
        let wal = cli.storePath + "-wal"
        let walBytes = FileManager.default.fileExists(atPath: wal) ? try Data(contentsOf: URL(fileURLWithPath: wal)).count : 0
        #expect(walBytes == 0, "a command that only reads wrote to the write-ahead log")
    }

    @Test func stats() throws {
        try cli.ok(["new", "one"])
        let stats = try #require(try cli.run(["stats", "--json"]).json() as? [String: Any])
        #expect(stats["notes"] as? Int == 1)
        #expect(stats["notesCreated"] as? Int == 1)
        // Only commands that change the store count a launch; `stats` only reads it.
        #expect(stats["launches"] as? Int == 1)
        #expect(stats["syncEvents"] as? Int == 0)
        #expect(try cli.ok(["stats"]).contains("notes created   1"))
    }

    @Test func preferencesShowAndChangeLineBreaks() throws {
        #expect(try cli.ok(["preferences"]).contains("line breaks     on"))
        #expect(try cli.run(["preferences", "--line-breaks", "off", "--json"]).json() as? [String: Bool] == ["lineBreaks": false])
        #expect(try cli.ok(["preferences"]).contains("line breaks     off"))
        let refused = try cli.run(["preferences", "--line-breaks", "maybe"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--line-breaks takes on or off."))
        #expect(try cli.run(["preferences", "--json"]).json() as? [String: Bool] == ["lineBreaks": false], "a refused value changes nothing")
    }
}
