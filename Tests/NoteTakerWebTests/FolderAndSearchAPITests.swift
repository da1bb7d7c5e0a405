import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

@Suite struct FolderAndSearchAPITests {
    @Test func foldersAreCreatedRenamedMovedAndDeleted() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let work = try await client.send(.post, "/api/v1/folders", json: ["name": "Work"])
            #expect(work.status == .created)
            let workId = try #require(work.object["id"] as? String)
            let projects = try await client.send(.post, "/api/v1/folders", json: ["name": "Projects", "parentId": workId])
            let projectsId = try #require(projects.object["id"] as? String)
            #expect(projects.object["path"] as? String == "Work/Projects")
            _ = try app.store.createNote(NoteDraft(title: "n", folderId: UUID(uuidString: projectsId)))
            let sidebar = try await client.send(.get, "/api/v1/folders")
            let tree = try #require(sidebar.object["folders"] as? [[String: Any]])
            #expect(tree.first?["totalNoteCount"] as? Int == 1)
            #expect(sidebar.object["allNotes"] as? Int == 1)
            #expect(sidebar.object["recentNotes"] as? Int == 1)
            let renamed = try await client.send(.patch, "/api/v1/folders/\(projectsId)", json: ["name": "Plans"])
            #expect(renamed.object["name"] as? String == "Plans")
            let moved = try await client.send(.patch, "/api/v1/folders/\(projectsId)", json: ["parentId": NSNull()])
            #expect(moved.object["parentId"] is NSNull)
            let cycle = try await client.send(.patch, "/api/v1/folders/\(workId)", json: ["parentId": workId])
            #expect(cycle.status == .conflict)
            let both = try await client.send(.patch, "/api/v1/folders/\(workId)", json: ["name": "X", "parentId": projectsId])
            #expect(both.status == .badRequest)
            let taken = try await client.send(.post, "/api/v1/folders", json: ["name": "Work"])
            #expect(taken.status == .conflict)
            let empty = try await client.send(.post, "/api/v1/folders", json: ["name": "  "])
            #expect(empty.status == .badRequest)
            #expect(try await client.send(.delete, "/api/v1/folders/\(projectsId)").status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/folders/\(projectsId)").status == .notFound)
            #expect(try app.store.notes().first?.folderId == nil, "a deleted folder's notes stay")
        }
    }

    @Test func tagsWithCounts() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "a", tags: ["Home", "work"]))
        _ = try app.store.createNote(NoteDraft(title: "b", tags: ["home"]))
        try await app.test { client in
            let tags = try await client.send(.get, "/api/v1/tags").array
            #expect(tags.map { "\($0["name"] ?? "") \($0["noteCount"] ?? "")" } == ["Home 2", "work 1"])
        }
    }

    @Test func searchHighlightsIgnoresAccentsAndSurvivesOddSyntax() async throws {
        let app = try WebTestApp()
        let folder = try app.store.createFolder(name: "F")
        _ = try app.store.createNote(NoteDraft(title: "Café", body: "a <b>naïve</b> plan", isPinned: true, folderId: folder.id, tags: ["x"]))
        _ = try app.store.createNote(NoteDraft(title: "Other", body: "naive too"))
        try await app.test { client in
            let hits = try await client.send(.get, "/api/v1/search?q=NAIVE").array
            #expect(hits.count == 2)
            let snippet = try #require(hits.first { (($0["note"] as? [String: Any])?["title"] as? String) == "Café" }?["snippetHTML"] as? String)
            #expect(snippet.contains("<mark>naïve</mark>"))
            #expect(snippet.contains("&lt;b&gt;"), "note text in snippets is escaped")
            #expect(try await client.send(.get, "/api/v1/search?q=naive&pinned=true").array.count == 1)
            #expect(try await client.send(.get, "/api/v1/search?q=naive&tag=x").array.count == 1)
            #expect(try await client.send(.get, "/api/v1/search?q=naive&folder=\(folder.id)").array.count == 1)
            #expect(try await client.send(.get, "/api/v1/search?q=caf").array.count == 1, "the last word is a prefix while typing")
            let inside = try await client.send(.get, "/api/v1/search?q=aiv&contains=true").array
            #expect(inside.count == 1, "only 'naive' is written with a plain i")
            #expect((inside.first?["snippetHTML"] as? String)?.contains("n<mark>aiv</mark>e") == true)
            #expect(try await client.send(.get, "/api/v1/search?q=aiv&contains=maybe").status == .badRequest)
            for odd in ["\"", "AND OR NOT", "*", "(((", "-", "title:", "🙂", "NEAR(a b)"] {
                let response = try await client.send(.get, "/api/v1/search?q=\(odd.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                #expect(response.status == .ok, "\(odd)")
            }
            let long = try await client.send(.get, "/api/v1/search?q=\(String(repeating: "a", count: 1001))")
            #expect(long.status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/search?q=a&limit=0").status == .badRequest)
        }
    }

    @Test("query parameters are read as browsers encode them: + is a space, %2B a plus")
    func queryParametersAsBrowsersEncodeThem() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "Sourdough", body: "how to bake it slowly", tags: ["bread making"]))
        _ = try app.store.createNote(NoteDraft(title: "Notes on C++", body: "templates"))
        try await app.test { client in
            let twoWords = try await client.send(.get, "/api/v1/search?q=sourdough+bake").array
            #expect(twoWords.map { ($0["note"] as? [String: Any])?["title"] as? String } == ["Sourdough"])
            #expect(try await client.send(.get, "/api/v1/search?q=%22bake+it%22").array.count == 1, "a quoted phrase")
            #expect(try await client.send(.get, "/api/v1/search?q=%22it+bake%22").array.isEmpty, "the phrase keeps its order")
            #expect(try await client.send(.get, "/api/v1/search?q=c%2B%2B").array.count == 1, "%2B is a plus")
            #expect((try await client.send(.get, "/api/v1/notes?tag=bread+making").object["notes"] as? [Any])?.count == 1)
            #expect(try await client.send(.get, "/api/v1/search?q=100%25+bake").status == .ok)
            #expect(try await client.send(.get, "/api/v1/search?q=50%+bake").status == .ok, "a stray % is taken as it is")
        }
    }

    @Test("the list sorts by modification, creation or title, and shows first lines as plain text")
    func listSortsAndShowsPlainFirstLines() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "beta", body: "# A **heading**\n\ntext"))
        _ = try app.store.createNote(NoteDraft(title: "Alpha", body: "- [ ] a *task*"))
        let gamma = try app.store.createNote(NoteDraft(title: "Gamma", body: "[link](https://example.com) text"))
        _ = try app.store.updateNote(id: gamma.id, body: "[link](https://example.com) text again")
        try await app.test { client in
            func titles(_ sort: String) async throws -> [String?] {
                let page = try await client.send(.get, "/api/v1/notes?sort=\(sort)")
                return (page.object["notes"] as? [[String: Any]] ?? []).map { $0["title"] as? String }
            }
            #expect(try await titles("modified") == ["Gamma", "Alpha", "beta"])
            #expect(try await titles("created") == ["Gamma", "Alpha", "beta"])
            #expect(try await titles("title") == ["Alpha", "beta", "Gamma"])
            let page = try await client.send(.get, "/api/v1/notes?sort=title")
            let firstLines = (page.object["notes"] as? [[String: Any]] ?? []).map { $0["firstLine"] as? String }
            #expect(firstLines == ["a task", "A heading", "link text again"])
            let bad = try await client.send(.get, "/api/v1/notes?sort=size")
            #expect(bad.status == .badRequest)
            #expect((bad.object["message"] as? String)?.contains("modified, created or title") == true)
        }
    }

    @Test("tags are renamed (into another's name: merged) and deleted; unknown tags and bad names change nothing")
    func tagsRenameMergeAndDelete() async throws {
        let app = try WebTestApp()
        let bread = try app.store.createNote(NoteDraft(title: "Bread", tags: ["baking day"]))
        let cake = try app.store.createNote(NoteDraft(title: "Cake", tags: ["cakes", "sweet"]))
        try await app.test { client in
            let renamed = try await client.send(.patch, "/api/v1/tags/baking%20day", json: ["name": "Baking"])
            #expect(renamed.status == .ok)
            #expect(renamed.object["name"] as? String == "Baking" && renamed.object["noteCount"] as? Int == 1)
            let merged = try await client.send(.patch, "/api/v1/tags/cakes", json: ["name": "baking"])
            #expect(merged.object["noteCount"] as? Int == 2)
            #expect(try await client.send(.delete, "/api/v1/tags/SWEET").status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/tags/nothing").status == .notFound)
            #expect(try await client.send(.patch, "/api/v1/tags/Baking", json: ["name": "  "]).status == .badRequest)
            #expect(try await client.send(.patch, "/api/v1/tags/Baking", json: ["title": "x"]).status == .badRequest)
        }
        #expect(try app.store.note(id: bread.id).tags == ["Baking"])
        #expect(try app.store.note(id: cake.id).tags == ["Baking"])
        #expect(try app.store.tags().map(\.tag.name) == ["Baking"])
    }

    @Test("links between notes: rendered to open in the app, listed both ways, titles offered for [[")
    func linksBetweenNotes() async throws {
        let app = try WebTestApp()
        let target = try app.store.createNote(NoteDraft(title: "Groceries", body: "milk"))
        let source = try app.store.createNote(NoteDraft(title: "Plan", body: "Buy [the list](note:\(target.id.key)) and see [[Recipes|the recipes]]."))
        try await app.test { client in
            let note = try await client.send(.get, "/api/v1/notes/\(source.id.key)")
            let html = try #require(note.object["html"] as? String)
            #expect(html.contains("<a href=\"#note=\(target.id.key)\" class=\"note-link-inline\">the list</a>"), "\(html)")
            #expect(html.contains("<a href=\"#wiki=Recipes\" class=\"note-link-inline\">the recipes</a>"), "\(html)")
            #expect(!html.contains("target=\"_blank\""), "links to notes open in the app")
            let backlinks = try await client.send(.get, "/api/v1/notes/\(target.id.key)/backlinks").array
            #expect(backlinks.map { $0["title"] as? String } == ["Plan"])
            #expect(backlinks.first?["context"] as? String == "Buy the list and see [[Recipes|the recipes]].")
            let links = try await client.send(.get, "/api/v1/notes/\(source.id.key)/links").array
            #expect(links.map { $0["id"] as? String } == [target.id.key])
            let titles = try await client.send(.get, "/api/v1/titles?prefix=gro").array
            #expect(titles.map { $0["title"] as? String } == ["Groceries"])
            #expect(try await client.send(.get, "/api/v1/notes/\(UUID().uuidString)/backlinks").status == .notFound)
            #expect(try await client.send(.get, "/api/v1/titles?limit=0").status == .badRequest)
        }
    }

    @Test func renderAndStatistics() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "a"))
        try await app.test { client in
            let rendered = try await client.send(.post, "/api/v1/render", json: ["markdown": "# Hi\n\n<script>x()</script>"])
            let html = try #require(rendered.object["html"] as? String)
            #expect(html.hasPrefix("<h1>Hi</h1>") && !html.contains("<script"))
            #expect(try await client.send(.post, "/api/v1/render", json: ["text": "x"]).status == .badRequest)
            let stats = try await client.send(.get, "/api/v1/stats")
            #expect(stats.object["notes"] as? Int == 1)
        }
    }
}
