import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// Answers the OpenAPI document promises, each found wrong by schemathesis once: an input the
/// document calls invalid is refused with a clear error and changes nothing; one it calls
/// valid is never answered 400.
@Suite("The web API answers as its document says")
struct DocumentedAnswersTests {
    @Test("an empty or malformed folder id is refused, in the trash too, instead of read as no folder")
    func folderIds() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "Kept"))
        try await app.test { client in
            for uri in ["/api/v1/notes?folder=", "/api/v1/search?q=kept&folder=", "/api/v1/export?format=json&folder=",
                        "/api/v1/notes?trash=true&folder=nope", "/api/v1/notes?trash=true&sort=sideways"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest, "\(uri)")
            }
            #expect(try await client.send(.get, "/api/v1/notes?trash=true").status == .ok)
        }
    }

    @Test("resolving a note with no conflict is 409, a state and not a malformed request")
    func noConflict() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Calm"))
        try await app.test { client in
            let response = try await client.send(.post, "/api/v1/conflicts/\(note.id)/resolve", json: ["keep": "both"])
            #expect(response.status == .conflict && response.errorCode == "conflict")
            #expect((response.object["message"] as? String)?.contains("no sync conflict") == true)
        }
    }

    @Test("a file that is not a picture has no thumbnail: 404, not its bytes under an image's name")
    func thumbnails() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Files"))
        try await app.test { client in
            let upload = try await client.execute(
                uri: "/api/v1/notes/\(note.id)/attachments?name=notes.txt", method: .post, headers: [:], body: ByteBuffer(string: "plain"))
            let id = try #require(upload.object["id"] as? String)
            let thumbnail = try await client.send(.get, "/api/v1/attachments/\(id)/thumbnail")
            #expect(thumbnail.status == .notFound && thumbnail.errorCode == "not_found")
        }
    }

    @Test("an upload to import needs a name ending in .enex, .md or .markdown after a character, and some bytes")
    func importNames() async throws {
        let app = try WebTestApp()
        let markdown = ByteBuffer(string: "# Trip\n\nPack the tent.\n")
        try await app.test { client in
            let before = try app.snapshot()
            for (name, body) in [("notes.txt", markdown), (".md", markdown), ("folder%2F.md", markdown), ("empty.md", ByteBuffer())] {
                let response = try await client.execute(uri: "/api/v1/import?name=\(name)", method: .post, headers: [:], body: body)
                #expect(response.status == .badRequest, "\(name)")
            }
            #expect(try app.snapshot() == before)
            let upper = try await client.execute(uri: "/api/v1/import?name=TRIP.MD", method: .post, headers: [:], body: markdown)
            #expect(upper.status == .ok && upper.object["imported"] as? Int == 1)
            let titles = try app.store.notes(NoteQuery()).map(\.title)
            #expect(titles == ["Trip"] || titles == ["TRIP"], "\(titles)")
        }
        #expect(ImportRoutes.uploadName("Work\u{2028}notes.ENEX") == "Work notes.enex")
        #expect(ImportRoutes.uploadName(" .md") == "attachment.md")
        #expect(ImportRoutes.uploadName("a.markdown") == "a.markdown")
        #expect(ImportRoutes.uploadName("a/.md") == nil && ImportRoutes.uploadName("md") == nil)
    }

    @Test("renaming a folder to null is refused, not read as no change")
    func folderNameNull() async throws {
        let app = try WebTestApp()
        let folder = try app.store.createFolder(name: "Work")
        try await app.test { client in
            let response = try await client.send(.patch, "/api/v1/folders/\(folder.id)", raw: #"{"name": null, "parentId": null}"#)
            #expect(response.status == .badRequest)
            #expect(try await client.send(.patch, "/api/v1/folders/\(folder.id)", raw: #"{"parentId": null}"#).status == .ok)
        }
    }
}
