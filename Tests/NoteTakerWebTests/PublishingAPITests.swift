import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol
@testable import NoteTakerWeb
import Testing

/// Publishing a note from the web app (docs/sharing.md §5), against a real sync server on
/// loopback: the page the server keeps opens only with the link's key, and holds the note as
/// the preview shows it with its pictures inlined and nothing that leads into the account.
@Suite struct PublishingAPITests {
    /// A picture: a 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!

    /// The page the server keeps at `link`, opened with the key in its fragment; `nil` when
    /// the server has none (404).
    static func page(at link: String) async throws -> PublishedPageContent? {
        let url = try #require(URL(string: link))
        let fragment = try #require(url.fragment)
        let (id, key) = (url.lastPathComponent, try #require(Base64URL.decode(fragment)))
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        (components.path, components.fragment) = ("/v1/published/\(id)", nil)
        let (data, response) = try await URLSession.shared.data(from: try #require(components.url))
        if (response as? HTTPURLResponse)?.statusCode == 404 { return nil }
        return try PublishedPageContent(plaintext: try PublishedPageSeal.open(data, id: id, key: key))
    }

    @Test("a note is published with its pictures inlined and no address into the account; published again at the same link, then taken down")
    func publishUpdateAndTakeDown() async throws {
        try await SyncAPITests().withServer { server in
            let app = try WebTestApp()
            let other = try app.store.createNote(NoteDraft(title: "Private plans", body: "not for the page"))
            let created = try app.store.createNote(NoteDraft(title: "Trip <plan>", body: "Start"))
            let file = app.directory.appendingPathComponent("map.png")
            try Self.png.write(to: file)
            let picture = try app.store.attachFile(at: file, toNote: created.id)
            let body = """
                # Day one
                ![the map](attachment:\(picture.id.uuidString)) and [[Private plans]], [that note](note:\(other.id.uuidString)),
                [the file](attachment:\(picture.id.uuidString)), [a site](https://example.org), ![remote](https://example.org/x.png)
                - [ ] pack
                <script>alert(1)</script>
                """
            let note = try app.store.updateNote(id: created.id, body: body)
            try await app.test { client in
                let notLoggedIn = try await client.send(.post, "/api/v1/notes/\(note.id)/publication")
                #expect(notLoggedIn.status == .conflict && notLoggedIn.errorCode == "not_logged_in")
                let registered = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "correct horse", "register": true,
                ])
                #expect(registered.status == .created)
                #expect(try await client.send(.get, "/api/v1/notes/\(note.id)/publication").status == .noContent)

                let published = try await client.send(.post, "/api/v1/notes/\(note.id)/publication")
                #expect(published.status == .ok)
                let link = try #require(published.object["link"] as? String)
                #expect(link.hasPrefix(server.absoluteString + "/p/") && link.contains("#"))
                #expect(published.object["outdated"] as? Bool == false)
                let page = try #require(try await Self.page(at: link))
                #expect(page.title == "Trip <plan>")
                #expect(page.html.contains("<h1>Day one</h1>"))
                #expect(page.html.contains("src=\"data:image/png;base64,\(Self.png.base64EncodedString())\""), "\(page.html)")
                for leak in ["attachment:", "/api/v1/", "#note=", "#wiki=", "note:", "https://example.org/x.png", "<script>", "not for the page"] {
                    #expect(!page.html.contains(leak), "\(leak) in \(page.html)")
                }
                #expect(page.html.contains("href=\"https://example.org\""), "links to the web stay")
                #expect(page.html.contains("Private plans"), "a wiki link stays as its text")

                // Edited, the page is outdated until published again, at the same link.
                _ = try app.store.updateNote(id: note.id, body: "Changed plans")
                let outdated = try await client.send(.get, "/api/v1/notes/\(note.id)/publication")
                #expect(outdated.object["outdated"] as? Bool == true && outdated.object["link"] as? String == link)
                let again = try await client.send(.post, "/api/v1/notes/\(note.id)/publication")
                #expect(again.object["link"] as? String == link && again.object["outdated"] as? Bool == false)
                #expect(try await Self.page(at: link)?.html == "<p>Changed plans</p>\n")

                #expect(try await client.send(.delete, "/api/v1/notes/\(note.id)/publication").status == .noContent)
                #expect(try await Self.page(at: link) == nil, "the server no longer has it")
                #expect(try await client.send(.delete, "/api/v1/notes/\(note.id)/publication").errorCode == "not_published")
                #expect(try app.store.publishedNotes().isEmpty)
            }
        }
    }

    @Test("a note whose pictures would make the page too large is refused before anything goes up")
    func tooLarge() async throws {
        try await SyncAPITests().withServer { server in
            let app = try WebTestApp()
            let note = try app.store.createNote(NoteDraft(title: "Photos"))
            var body = ""
            for index in 0..<2 {
                let file = app.directory.appendingPathComponent("photo\(index).png")
                try Data(repeating: UInt8(index), count: 10_000_000).write(to: file)
                let photo = try app.store.attachFile(at: file, toNote: note.id)
                body += "![photo](attachment:\(photo.id.uuidString))\n"
            }
            _ = try app.store.updateNote(id: note.id, body: body)
            try await app.test { client in
                _ = try await client.send(.post, "/api/v1/sync/account", json: [
                    "server": server.absoluteString, "username": "ada", "password": "correct horse", "register": true,
                ])
                let refused = try await client.send(.post, "/api/v1/notes/\(note.id)/publication")
                #expect(refused.status == .contentTooLarge && refused.errorCode == "too_large")
                #expect((refused.object["message"] as? String)?.contains("25 MB") == true || (refused.object["message"] as? String)?.contains("26 MB") == true,
                        "\(refused.object)")
                #expect(try app.store.publishedNotes().isEmpty)
            }
        }
    }
}
