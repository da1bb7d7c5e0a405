import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// Sharing from the web app (docs/sharing.md §3.4), three accounts' apps against a real sync
/// server on loopback: a folder shared, invitations accepted, the share's notes read and
/// changed through the note routes with `?share=`, a viewer refused, roles changed, a member
/// removed, a member leaving and the owner stopping.
@Suite struct SharingAPITests {
    /// Registers `user` on `server` from `client`'s app (end-to-end encrypted, as by default).
    static func register(_ user: String, on server: URL, with client: any TestClientProtocol) async throws {
        let registered = try await client.send(.post, "/api/v1/sync/account", json: [
            "server": server.absoluteString, "username": user, "password": "correct horse \(user)", "register": true,
        ])
        #expect(registered.status == .created, "\(user): \(registered.object)")
    }

    static func titles(_ client: any TestClientProtocol, share: String) async throws -> [String] {
        let page = try await client.send(.get, "/api/v1/notes?share=\(share)&sort=title")
        return (page.object["notes"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test("a folder shared, accepted, changed by an editor and refused to a viewer; roles, removal, leaving and stopping")
    func shareThroughTheWebApp() async throws {
        try await SyncAPITests().withServer { server in
            let ines = try WebTestApp(), bob = try WebTestApp(), cara = try WebTestApp()
            let folder = try ines.store.createFolder(name: "Trip")
            let plan = try ines.store.createNote(NoteDraft(title: "Day one", body: "Train at nine", folderId: folder.id))
            let file = ines.directory.appendingPathComponent("ticket.txt")
            try Data("seat 42".utf8).write(to: file)
            let ticket = try ines.store.attachFile(at: file, toNote: plan.id)
            try await ines.test { owner in
                try await bob.test { editor in
                    try await cara.test { viewer in
                        for (user, client) in [("ines", owner), ("bob", editor), ("cara", viewer)] {
                            try await Self.register(user, on: server, with: client)
                            #expect(try await client.send(.get, "/api/v1/shares").object["canShare"] as? Bool == true)
                        }
                        // Refused before anything is shared: nothing changes.
                        let before = try ines.snapshot()
                        for bad in [
                            ["folderId": folder.id.uuidString, "noteId": plan.id.uuidString, "with": [["account": "bob", "role": "editor"]]],
                            ["folderId": folder.id.uuidString, "with": [[String: String]]()],
                            ["folderId": folder.id.uuidString, "with": [["account": "bob", "role": "owner"]]],
                        ] as [[String: Any]] {
                            #expect(try await owner.send(.post, "/api/v1/shares", json: bad).status == .badRequest, "\(bad)")
                        }
                        #expect(try await owner.send(.post, "/api/v1/shares", json: [
                            "folderId": folder.id.uuidString, "with": [["account": "nobody-here", "role": "editor"]],
                        ]).status.code >= 400)
                        #expect(try ines.snapshot() == before)

                        let shared = try await owner.send(.post, "/api/v1/shares", json: [
                            "folderId": folder.id.uuidString,
                            "with": [["account": "bob", "role": "editor"], ["account": "cara", "role": "viewer"]],
                        ])
                        #expect(shared.status == .created, "\(shared.object)")
                        let zone = try #require(shared.object["zone"] as? String)
                        let entry = try #require(shared.object["share"] as? [String: Any])
                        #expect(entry["role"] as? String == "owner" && entry["title"] as? String == "Trip")
                        #expect((entry["members"] as? [[String: Any]])?.count == 3)
                        // The folder moved into the share: gone from the account's tree, there with ?share=.
                        let tree = try await owner.send(.get, "/api/v1/folders").object["folders"] as? [[String: Any]] ?? []
                        #expect(!tree.contains { $0["name"] as? String == "Trip" })
                        #expect(try await Self.titles(owner, share: zone) == ["Day one"])
                        // A file of a shared note is served by its id alone, as a preview addresses it.
                        let content = try await owner.send(.get, "/api/v1/attachments/\(ticket.id)/content")
                        #expect(content.status == .ok && String(buffer: content.body) == "seat 42")

                        // Bob sees an invitation, accepts it and gets the notes.
                        let listed = try await editor.send(.get, "/api/v1/shares").object["shares"] as? [[String: Any]] ?? []
                        #expect(listed.count == 1 && listed.first?["accepted"] as? Bool == false && listed.first?["owner"] as? String == "ines")
                        #expect(try await editor.send(.get, "/api/v1/notes?share=\(zone)").errorCode == "no_such_share", "not before accepting")
                        let accepted = try await editor.send(.post, "/api/v1/shares/\(zone)/accept")
                        #expect(accepted.status == .ok, "\(accepted.object)")
                        #expect((accepted.object["share"] as? [String: Any])?["accepted"] as? Bool == true)
                        #expect(try await Self.titles(editor, share: zone) == ["Day one"])

                        // Both sides see the same safety number.
                        let bobSees = try await editor.send(.get, "/api/v1/identities/ines").object
                        let inesSees = try await owner.send(.get, "/api/v1/identities/bob").object
                        #expect(bobSees["safetyNumber"] as? String != nil && bobSees["safetyNumber"] as? String == inesSees["safetyNumber"] as? String)
                        #expect(bobSees["keys"] as? String == "same", "kept when the invitation was checked")

                        // Bob's edit goes up with his sync, and comes down with Ines's.
                        let edited = try await editor.send(.patch, "/api/v1/notes/\(plan.id)?share=\(zone)", json: ["body": "Train at ten"])
                        #expect(edited.status == .ok, "\(edited.object)")
                        #expect(try await editor.send(.post, "/api/v1/sync/now").status == .ok)
                        #expect(try await owner.send(.post, "/api/v1/sync/now").status == .ok)
                        let arrived = try await owner.send(.get, "/api/v1/notes/\(plan.id)?share=\(zone)").object
                        #expect(arrived["body"] as? String == "Train at ten")
                        #expect(arrived["editedBy"] as? String == "bob", "the note names who wrote its text: \(arrived)")
                        #expect(edited.object["editedBy"] is NSNull, "one's own text names no one")
                        // The note's history in the share, with the versions the server kept (through the zone's routes).
                        for client in [owner, editor] {
                            let history = try await client.send(.get, "/api/v1/notes/\(plan.id)/versions?share=\(zone)")
                            #expect(history.status == .ok && history.object["serverProblem"] is NSNull, "\(history.object)")
                            let versions = history.object["versions"] as? [[String: Any]] ?? []
                            #expect(versions.contains { $0["title"] as? String == "Day one" }, "\(versions)")
                        }

                        // Cara may read, not change.
                        #expect(try await viewer.send(.post, "/api/v1/shares/\(zone)/accept").status == .ok)
                        #expect(try await Self.titles(viewer, share: zone) == ["Day one"])
                        #expect(try await viewer.send(.get, "/api/v1/notes/\(plan.id)?share=\(zone)").object["body"] as? String == "Train at ten")
                        // Her device came after the edit: the earlier text is in its history from the server's.
                        let earlier = try await viewer.send(.get, "/api/v1/notes/\(plan.id)/versions?share=\(zone)").object["versions"] as? [[String: Any]] ?? []
                        let first = try #require(earlier.last?["version"] as? Int, "no version from the server: \(earlier)")
                        #expect(earlier.last?["author"] as? String == "ines", "the version names the account that wrote it")
                        #expect(try await viewer.send(.get, "/api/v1/notes/\(plan.id)/versions/\(first)?share=\(zone)").object["body"] as? String == "Train at nine")
                        let refused = try await viewer.send(.patch, "/api/v1/notes/\(plan.id)?share=\(zone)", json: ["body": "Mine now"])
                        #expect(refused.status == .forbidden && refused.errorCode == "not_allowed")
                        #expect(try await viewer.send(.post, "/api/v1/notes?share=\(zone)", json: ["title": "Extra"]).status == .forbidden)
                        #expect(try await viewer.send(.delete, "/api/v1/notes/\(plan.id)?share=\(zone)").status == .forbidden)
                        #expect(try await viewer.send(.get, "/api/v1/notes/\(plan.id)?share=\(zone)").object["body"] as? String == "Train at ten")
                        #expect(try await viewer.send(.put, "/api/v1/shares/\(zone)/members/bob", json: ["role": "viewer"]).status == .forbidden)
                        // A share this account has no part in answers 404; a share that is no id, 400; nothing changes.
                        let viewed = try cara.snapshot()
                        #expect(try await viewer.send(.get, "/api/v1/notes?share=\(UUID().uuidString)").errorCode == "no_such_share")
                        #expect(try await viewer.send(.post, "/api/v1/notes?share=trip", json: ["title": "Stray"]).status == .badRequest)
                        #expect(try await viewer.send(.post, "/api/v1/notes?share=", json: ["title": "Stray"]).status == .badRequest)
                        #expect(try await viewer.send(.post, "/api/v1/shares/not-a-zone/accept").errorCode == "no_such_share")
                        #expect(try cara.snapshot() == viewed)

                        // Ines makes Cara an editor, then removes her: Cara's devices drop the share.
                        let promoted = try await owner.send(.put, "/api/v1/shares/\(zone)/members/cara", json: ["role": "editor"])
                        #expect(((promoted.object["members"] as? [[String: Any]]) ?? []).contains { $0["account"] as? String == "cara" && $0["role"] as? String == "editor" })
                        #expect(try await owner.send(.put, "/api/v1/shares/\(zone)/members/cara", json: ["role": "boss"]).status == .badRequest)
                        let removed = try await owner.send(.delete, "/api/v1/shares/\(zone)/members/cara")
                        #expect(removed.status == .ok && (removed.object["members"] as? [[String: Any]])?.count == 2)
                        #expect(try await viewer.send(.post, "/api/v1/sync/now").status == .ok)
                        #expect((try await viewer.send(.get, "/api/v1/shares").object["shares"] as? [[String: Any]] ?? []).isEmpty)
                        #expect(try await viewer.send(.get, "/api/v1/notes?share=\(zone)").errorCode == "no_such_share")

                        // Bob leaves; Ines stops sharing and has the folder back as her own.
                        let left = try await editor.send(.delete, "/api/v1/shares/\(zone)")
                        #expect(left.status == .ok && left.object["share"] is NSNull)
                        #expect(try await editor.send(.get, "/api/v1/notes?share=\(zone)").errorCode == "no_such_share")
                        #expect(try await owner.send(.delete, "/api/v1/shares/\(zone)").status == .ok)
                        let back = try await owner.send(.get, "/api/v1/folders").object["folders"] as? [[String: Any]] ?? []
                        #expect(back.contains { $0["name"] as? String == "Trip" })
                        #expect(try ines.store.note(id: plan.id).body == "Train at ten")
                    }
                }
            }
        }
    }
}
