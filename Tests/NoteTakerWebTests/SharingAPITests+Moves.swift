import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

extension SharingAPITests {
    @Test("POST /notes/{id}/move: a note into a shared folder and out of it again; bad moves answer an error and change nothing")
    func moveThroughTheWebApp() async throws {
        try await SyncAPITests().withServer { server in
            let ines = try WebTestApp(), bob = try WebTestApp()
            let folder = try ines.store.createFolder(name: "Trip")
            let packing = try ines.store.createNote(NoteDraft(title: "Packing", body: "Boots", tags: ["travel"]))
            try await ines.test { owner in
                try await bob.test { editor in
                    try await Self.register("ines", on: server, with: owner)
                    try await Self.register("bob", on: server, with: editor)
                    let shared = try await owner.send(.post, "/api/v1/shares", json: [
                        "folderId": folder.id.uuidString, "with": [["account": "bob", "role": "editor"]],
                    ])
                    let zone = try #require(shared.object["zone"] as? String)
                    #expect(try await editor.send(.post, "/api/v1/shares/\(zone)/accept").status == .ok)

                    // Bad moves: nothing changes.
                    let before = try ines.snapshot()
                    #expect(try await owner.send(.post, "/api/v1/notes/\(packing.id)/move", json: ["toShare": "trip"]).status == .badRequest)
                    #expect(try await owner.send(.post, "/api/v1/notes/\(packing.id)/move", json: ["toShare": UUID().uuidString]).errorCode == "no_such_share")
                    #expect(try await owner.send(.post, "/api/v1/notes/\(packing.id)/move?share=trip", json: ["toShare": zone]).status == .badRequest)
                    #expect(try await owner.send(.post, "/api/v1/notes/\(UUID())/move", json: ["toShare": zone]).status == .notFound)
                    #expect(try await owner.send(.post, "/api/v1/notes/\(packing.id)/move", json: ["toShare": zone, "folderId": UUID().uuidString]).status == .notFound)
                    #expect(try ines.snapshot() == before)

                    // Into the shared folder: at its top, sent at once, and bob has it at his sync.
                    let moved = try await owner.send(.post, "/api/v1/notes/\(packing.id)/move", json: ["toShare": zone])
                    #expect(moved.status == .ok, "\(moved.object)")
                    #expect(moved.object["share"] as? String == zone && moved.object["syncProblem"] is NSNull)
                    #expect((moved.object["note"] as? [String: Any])?["folderId"] as? String == folder.id.key)
                    #expect(try await owner.send(.get, "/api/v1/notes/\(packing.id)").status == .notFound)
                    #expect(try await editor.send(.post, "/api/v1/sync/now").status == .ok)
                    let bobs = try await editor.send(.get, "/api/v1/notes/\(packing.id)?share=\(zone)").object
                    #expect(bobs["body"] as? String == "Boots" && bobs["tags"] as? [String] == ["travel"], "\(bobs)")

                    // Bob, an editor, takes it out into his own notes: it leaves the share for ines too.
                    let out = try await editor.send(.post, "/api/v1/notes/\(packing.id)/move?share=\(zone)", json: ["toShare": NSNull()])
                    #expect(out.status == .ok && out.object["share"] is NSNull, "\(out.object)")
                    #expect(try await editor.send(.get, "/api/v1/notes/\(packing.id)").object["body"] as? String == "Boots")
                    #expect(try await owner.send(.post, "/api/v1/sync/now").status == .ok)
                    #expect(try await owner.send(.get, "/api/v1/notes/\(packing.id)?share=\(zone)").status == .notFound)

                    // Made a viewer, bob may move nothing into the share.
                    #expect(try await owner.send(.put, "/api/v1/shares/\(zone)/members/bob", json: ["role": "viewer"]).status == .ok)
                    #expect(try await editor.send(.post, "/api/v1/sync/now").status == .ok)
                    let viewed = try bob.snapshot()
                    let refused = try await editor.send(.post, "/api/v1/notes/\(packing.id)/move", json: ["toShare": zone])
                    #expect(refused.status == .forbidden && refused.errorCode == "not_allowed", "\(refused.object)")
                    #expect(try bob.snapshot() == viewed)
                }
            }
        }
    }
}
