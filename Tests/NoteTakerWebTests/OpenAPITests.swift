import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerInterchange
import NoteTakerKit
@testable import NoteTakerWeb
import NoteTakerSync
import NoteTakerSyncProtocol
import Testing

/// The API's OpenAPI document stays true: exactly the served routes, and each schema names
/// exactly the keys the app's JSON has.
@Suite struct OpenAPITests {
    private func document() async throws -> [String: Any] {
        let response = try await WebTestApp().test { try await $0.send(.get, "/api/v1/openapi.json") }
        #expect(response.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func theDocumentedRoutesAreTheServedRoutes() async throws {
        let paths = try #require(try await document()["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in
            operations.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
        })
        let router = buildWebRouter(store: try NoteStore.inMemory(), configuration: WebConfiguration(key: WebTestApp.key))
        let served = Set(router.routes.map { route in
            let path = route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            return "\(route.method) /" + path.joined(separator: "/")
        })
        #expect(documented == served)
    }

    @Test func eachSchemaListsTheKeysTheAPIWrites() async throws {
        let components = try #require(try await document()["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: [String: Any]])
        let store = try NoteStore.inMemory()
        let folder = try store.createFolder(name: "F")
        var note = try store.createNote(NoteDraft(title: "t", body: "b", folderId: folder.id, tags: ["x"]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID()).txt")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let attachment = try store.attachFile(at: file, toNote: note.id)
        note = try store.note(id: note.id)
        let share = ShareEntry(
            zone: UUID().key, owner: "ines", role: .editor, accepted: true, title: "Trip", kind: "folder", root: UUID().key,
            members: [ShareEntry.Member(account: "ines", role: .owner), ShareEntry.Member(account: "bob", role: .editor)])
        let samples: [String: any Encodable] = [
            "NoteSummary": NoteSummaryJSON(note),
            "NotePage": NotePageJSON(notes: [], nextOffset: nil),
            "Note": try NoteJSON(note, store: store),
            "Preferences": Preferences(),
            "Sync": SyncJSON(note.sync),
            "Attachment": AttachmentJSON(attachment),
            "Folder": FolderJSON(try #require(try store.folderTree().first)),
            "Tag": TagJSON(name: "x", noteCount: 1),
            "LinkedNote": LinkedNote(id: note.id, title: "t", context: "c"),
            "SearchHit": SearchHitJSON(note: NoteSummaryJSON(note), snippetHTML: ""),
            "Statistics": try store.statistics(),
            "SyncSummary": try store.syncSummary(),
            "SyncReport": SyncReport(),
            "SyncState": SyncRoutes.Status.State(WebSync.State(lastError: .busy), in: .german),
            "ImportReport": ImportReport(kind: .evernote),
            "SessionInfo": SessionInfo(id: "0123456789abcdef", deviceName: "d", createdAt: 0, lastUsedAt: 0, current: true),
            "SessionList": SessionList(sessions: []),
            "NoteVersion": NoteVersion(id: 1, noteId: note.id, modifiedAt: Date(), replacedAt: Date(), replacedBy: .edit, title: "t", bodySize: 1),
            "NoteVersion with its changed lines": {
                var version = NoteVersion(id: 1, noteId: note.id, modifiedAt: Date(), replacedAt: Date(), replacedBy: .edit, title: "t", bodySize: 1)
                version.changedLines = .init(added: 2, removed: 1)
                return version
            }(),
            "VersionList": HistoryRoutes.VersionListJSON(versions: [], serverProblem: nil),
            "VersionDetail": HistoryRoutes.VersionDetailJSON(version: 1, modifiedAt: Date(), replacedBy: .edit, title: "t", currentTitle: "u", body: "b", diff: []),
            "Publication": PublishRoutes.PublicationJSON(link: "https://notes.example/p/x#k", publishedAt: Date(), outdated: false),
            "Share": share,
            "ShareMember": ShareEntry.Member(account: "bob", role: .editor),
            "ShareList": ShareRoutes.ShareListJSON(shares: [share], offline: false, canShare: true),
            "ShareChange": ShareRoutes.ShareChangeJSON(zone: share.zone, share: share, keptPrivately: 0, syncProblem: nil),
            "Identity": ShareRoutes.IdentityJSON(account: "bob", safetyNumber: "12345 67890", keys: "same"),
        ]
        for (name, sample) in samples {
            let schemaName = String(name.prefix { $0 != " " })
            let schema = try #require(schemas[schemaName], "\(schemaName) is not documented")
            let encoded = try #require(try JSONSerialization.jsonObject(with: JSON.encoder.encode(sample)) as? [String: Any])
            let documented = Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            #expect(Set(encoded.keys) == documented, "\(name)")
        }
    }
}

@Suite struct WebMethodNotAllowedTests {
    @Test func aMethodARouteDoesNotTakeAnswers405WithAllow() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Kept"))
        let before = try app.snapshot()
        try await app.test { client in
            for (method, path, allow) in [
                (HTTPRequest.Method.delete, "/api/v1/notes", "GET, HEAD, OPTIONS, POST"),
                (.post, "/api/v1/notes/\(note.id)", "DELETE, GET, HEAD, OPTIONS, PATCH"),
                (.put, "/api/v1/search", "GET, HEAD, OPTIONS"),
            ] {
                let response = try await client.send(method, path)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.errorCode == "method_not_allowed")
            }
            #expect(try await client.send(.delete, "/api/v1/no-such-thing").status == .notFound)
        }
        #expect(try app.snapshot() == before)
    }
}
