import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

@Suite struct NoteAPITests {
    @Test func createReadEditAndListNotes() async throws {
        let app = try WebTestApp()
        let folder = try app.store.createFolder(name: "Work")
        try await app.test { client in
            let created = try await client.send(.post, "/api/v1/notes", json: ["title": "Plan", "body": "**bold**", "tags": ["a"], "folderId": folder.id.uuidString])
            #expect(created.status == .created)
            let id = try #require(created.object["id"] as? String)
            #expect(id == id.lowercased())
            #expect(created.object["html"] as? String == "<p><strong>bold</strong></p>\n")
            let patched = try await client.send(.patch, "/api/v1/notes/\(id)", json: ["body": "changed", "isPinned": true, "tags": ["b", "c"], "folderId": NSNull()])
            #expect(patched.status == .ok)
            let note = try app.store.note(id: try #require(UUID(uuidString: id)))
            #expect(note.body == "changed" && note.isPinned && note.folderId == nil && note.tags.sorted() == ["b", "c"])
            _ = try app.store.createNote(NoteDraft(title: "Second"))
            let page = try await client.send(.get, "/api/v1/notes?limit=1")
            let notes = try #require(page.object["notes"] as? [[String: Any]])
            #expect(notes.map { $0["title"] as? String } == ["Plan"], "pinned first")
            #expect(page.object["nextOffset"] as? Int == 1)
            let last = try await client.send(.get, "/api/v1/notes?limit=1&offset=1")
            #expect(last.object["nextOffset"] is NSNull)
            let pinned = try await client.send(.get, "/api/v1/notes?pinned=true")
            #expect((pinned.object["notes"] as? [Any])?.count == 1)
            let tagged = try await client.send(.get, "/api/v1/notes?tag=c")
            #expect((tagged.object["notes"] as? [Any])?.count == 1)
            let read = try await client.send(.get, "/api/v1/notes/\(id)")
            #expect(read.object["body"] as? String == "changed")
            #expect((read.object["sync"] as? [String: Any])?["status"] as? String == "pending")
        }
    }

    @Test func trashRestoreAndPurge() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Old"))
        try await app.test { client in
            let permanentFirst = try await client.send(.delete, "/api/v1/notes/\(note.id)?permanent=true")
            #expect(permanentFirst.status == .conflict, "only a trashed note can be purged")
            #expect(try await client.send(.delete, "/api/v1/notes/\(note.id)").status == .noContent)
            let trash = try await client.send(.get, "/api/v1/notes?trash=true")
            #expect((trash.object["notes"] as? [Any])?.count == 1)
            let edit = try await client.send(.patch, "/api/v1/notes/\(note.id)", json: ["title": "New"])
            #expect(edit.status == .conflict && edit.errorCode == "conflict")
            let inTrash = try await client.send(.post, "/api/v1/notes/\(note.id)/duplicate")
            #expect(inTrash.status == .conflict, "a note in the trash is not copied")
            #expect(try await client.send(.post, "/api/v1/notes/\(note.id)/restore").status == .ok)
            let copy = try await client.send(.post, "/api/v1/notes/\(note.id)/duplicate")
            #expect(copy.status == .created)
            #expect((copy.object["title"] as? String)?.hasSuffix(" (copy)") == true)
            #expect(copy.object["id"] as? String != note.id.key)
            #expect(try await client.send(.delete, "/api/v1/notes/\(note.id)").status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/notes/\(note.id)?permanent=true").status == .noContent)
            #expect(try await client.send(.get, "/api/v1/notes/\(note.id)").status == .notFound)
            _ = try app.store.trashNotes(ids: [try app.store.createNote(NoteDraft(title: "x")).id])
            let emptied = try await client.send(.delete, "/api/v1/trash")
            #expect(emptied.object["purged"] as? Int == 1)
        }
    }

    @Test func badInputIsRefusedClearlyAndChangesNothing() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Keep", body: "as is", tags: ["t"]))
        let before = try app.snapshot()
        try await app.test { client in
            let cases: [(HTTPRequest.Method, String, String?, HTTPResponse.Status)] = [
                (.post, "/api/v1/notes", "{not json", .badRequest),
                (.post, "/api/v1/notes", #"{"title": 5}"#, .badRequest),
                (.post, "/api/v1/notes", #"{"title": "x", "folderId": "nope"}"#, .badRequest),
                (.post, "/api/v1/notes", #"{"title": "x", "folderId": "\#(UUID())"}"#, .notFound),
                (.post, "/api/v1/notes", #"{"title": "\#(String(repeating: "t", count: 1001))"}"#, .badRequest),
                (.patch, "/api/v1/notes/\(note.id)", #"{"title": "new", "folderId": "\#(UUID())"}"#, .notFound),
                (.patch, "/api/v1/notes/\(note.id)", #"{"body": "new", "tags": ["\#(String(repeating: "x", count: 101))"]}"#, .badRequest),
                (.patch, "/api/v1/notes/\(note.id)", #"{"isPinned": "yes"}"#, .badRequest),
                (.patch, "/api/v1/notes/not-an-id", #"{"title": "x"}"#, .notFound),
                (.patch, "/api/v1/notes/\(UUID())", #"{"title": "x"}"#, .notFound),
                (.get, "/api/v1/notes?limit=0", nil, .badRequest),
                (.get, "/api/v1/notes?limit=abc", nil, .badRequest),
                (.get, "/api/v1/notes?offset=-1", nil, .badRequest),
                (.get, "/api/v1/notes?pinned=maybe", nil, .badRequest),
                (.get, "/api/v1/notes?folder=zzz", nil, .badRequest),
                (.post, "/api/v1/notes/\(UUID())/restore", nil, .notFound),
                (.post, "/api/v1/notes/\(note.id)/restore", nil, .conflict),
                (.post, "/api/v1/notes/\(UUID())/duplicate", nil, .notFound),
                (.post, "/api/v1/notes/not-an-id/duplicate", nil, .notFound),
                (.delete, "/api/v1/notes/\(UUID())", nil, .notFound),
            ]
            for (method, uri, body, status) in cases {
                let response = try await client.send(method, uri, raw: body)
                #expect(response.status == status, "\(method) \(uri) \(body ?? "")")
                let message = response.object["message"] as? String ?? ""
                #expect(!message.isEmpty, "\(method) \(uri) answers a message")
            }
        }
        #expect(try app.snapshot() == before)
    }

    @Test func aRequestOverTheSizeLimitIsRefused() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let body = #"{"title": "big", "body": ""# + String(repeating: "x", count: JSON.maximumRequestBytes) + #""}"#
            let response = try await client.send(.post, "/api/v1/notes", raw: body)
            #expect(response.status == .contentTooLarge)
        }
        #expect(try app.store.notes().isEmpty)
    }
}

/// The one edit path through the API, and a note's history.
@Suite struct NoteEditBaseAPITests {
    @Test func anEditFromAnOlderRevisionIsMergedAndTheHistoryListsWhatItReplaced() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Shared", body: "line one\nline two\nline three"))
        try await app.test { client in
            let opened = try await client.send(.get, "/api/v1/notes/\(note.id)")
            let revision = try #require(opened.object["revision"] as? Int)
            // Another process edits a line while the page types at the end.
            _ = try app.store.updateNote(id: note.id, body: "line one\nline two EDITED\nline three")
            let base: [String: Any] = ["revision": revision, "title": "Shared", "body": "line one\nline two\nline three", "tags": [String]()]
            let saved = try await client.send(.patch, "/api/v1/notes/\(note.id)", json: ["title": "Shared", "body": "line one\nline two\nline three\nbrowser typed A", "base": base])
            #expect(saved.status == .ok)
            #expect(saved.object["body"] as? String == "line one\nline two EDITED\nline three\nbrowser typed A")
            #expect((saved.object["revision"] as? Int ?? 0) > revision)

            let list = try await client.send(.get, "/api/v1/notes/\(note.id)/versions")
            let versions = try #require(list.object["versions"] as? [[String: Any]])
            #expect(versions.first?["replacedBy"] as? String == "merge")
            let number = try #require(versions.first?["version"] as? Int)
            let detail = try await client.send(.get, "/api/v1/notes/\(note.id)/versions/\(number)")
            #expect(detail.object["body"] as? String == "line one\nline two EDITED\nline three")
            let diff = try #require(detail.object["diff"] as? [[String: String]])
            #expect(diff.contains { $0["kind"] == "added" && $0["text"] == "browser typed A" })
            let restored = try await client.send(.post, "/api/v1/notes/\(note.id)/versions/\(number)/restore")
            #expect(restored.object["body"] as? String == "line one\nline two EDITED\nline three")
        }
    }

    @Test func unknownVersionsAndVersionsOfAnotherNoteAreNotFound() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Mine", body: "a"))
        let other = try app.store.createNote(NoteDraft(title: "Other", body: "x"))
        _ = try app.store.updateNote(id: other.id, body: "y")
        let otherVersion = try #require(try app.store.history(noteId: other.id).first?.id)
        try await app.test { client in
            for path in ["/api/v1/notes/\(note.id)/versions/\(otherVersion)", "/api/v1/notes/\(note.id)/versions/99999",
                         "/api/v1/notes/\(note.id)/versions/abc", "/api/v1/notes/\(UUID())/versions"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound, "\(path)")
            }
            let restore = try await client.send(.post, "/api/v1/notes/\(note.id)/versions/\(otherVersion)/restore")
            #expect(restore.status == .notFound)
            let badBase = try await client.send(.patch, "/api/v1/notes/\(note.id)", json: ["body": "b", "base": ["revision": "x"]])
            #expect(badBase.status == .badRequest)
        }
        #expect(try app.store.note(id: note.id).body == "a")
    }
}
