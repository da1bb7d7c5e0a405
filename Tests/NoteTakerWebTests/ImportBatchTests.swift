import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// Several uploads imported as one folder: the links between their notes are kept, as
/// `notetaker import FOLDER` keeps them; a bad batch answers a clear error and imports nothing.
@Suite("Importing several files as one")
struct ImportBatchTests {
    private static func send(_ client: some TestClientProtocol, batch: String, path: String, _ text: String, last: Bool = false) async throws -> TestResponse {
        let query = "batch=\(batch)&path=\(path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path)\(last ? "&last=true" : "")"
        return try await client.execute(uri: "/api/v1/import?\(query)", method: .post, headers: [:], body: ByteBuffer(string: text))
    }

    @Test("Markdown files sent as one batch, with a file they link to, import as one folder with their links kept")
    func linksKept() async throws {
        let app = try WebTestApp()
        let batch = UUID().uuidString
        try await app.test { client in
            let first = try await Self.send(client, batch: batch, path: "Vault/Plan.md", "Read [[Reading list]] and see ![[Projects/diagram.png]].")
            #expect(first.status == .accepted && first.object["kept"] as? Int == 1)
            let picture = try await Self.send(client, batch: batch, path: "Vault/Projects/diagram.png", "not really a PNG")
            #expect(picture.status == .accepted && picture.object["kept"] as? Int == 2)
            #expect(try app.store.notes(NoteQuery()).isEmpty, "nothing is imported before the last file")
            let last = try await Self.send(client, batch: batch, path: "Vault/Reading list.md", "Books, and back to [the plan](Plan.md).", last: true)
            #expect(last.status == .ok && last.object["imported"] as? Int == 2, "\(last.object)")
            #expect(last.object["linksKept"] as? Int == 2)
        }
        let notes = try app.store.notes(NoteQuery())
        let plan = try #require(notes.first { $0.title == "Plan" })
        let reading = try #require(notes.first { $0.title == "Reading list" })
        #expect(plan.body.hasPrefix("Read [Reading list](note:\(reading.id.key))"), "\(plan.body)")
        #expect(reading.body.contains("[the plan](note:\(plan.id.key))"))
        #expect(try app.store.note(id: plan.id).attachments.map(\.fileName) == ["diagram.png"])
        let leftBehind = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.contains(batch.lowercased()) }
        #expect(leftBehind.isEmpty, "the batch's folder is removed after its import")
    }

    @Test("a batch that is not a UUID, or a path that is hidden, climbs out or is missing, is refused and imports nothing")
    func refused() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let before = try app.snapshot()
            let notUUID = try await Self.send(client, batch: "../../etc", path: "a.md", "text", last: true)
            #expect(notUUID.status == .badRequest && notUUID.errorCode == "invalid_input")
            let noPath = try await client.execute(uri: "/api/v1/import?batch=\(UUID().uuidString)&last=true", method: .post, headers: [:],
                                                  body: ByteBuffer(string: "text"))
            #expect(noPath.status == .badRequest)
            #expect(try app.snapshot() == before)
            for path in ["../outside.md", "Vault/.obsidian/x.md", ".env", "/", "Vault/../../x.md"] {
                let batch = UUID().uuidString
                let kept = try await Self.send(client, batch: batch, path: "Vault/kept.md", "kept until the batch fails")
                #expect(kept.status == .accepted)
                let response = try await Self.send(client, batch: batch, path: path, "text", last: true)
                #expect(response.status == .badRequest, "\(path)")
                #expect((response.object["message"] as? String)?.contains("relative path") == true)
                let again = try await Self.send(client, batch: batch, path: "Vault/other.md", "text", last: true)
                #expect(again.status == .ok, "a failed batch starts afresh: \(again.object)")
            }
        }
        #expect(try app.store.notes(NoteQuery()).map(\.title) == ["other"], "the failed batches' earlier files went with them")
        try await app.test { client in
            let empty = try await Self.send(client, batch: UUID().uuidString, path: "Empty.md", "", last: true)
            #expect(empty.status == .badRequest && (empty.object["message"] as? String)?.contains("is empty") == true)
            let damaged = try await Self.send(client, batch: UUID().uuidString, path: "notetaker-export.json", "{ not an export", last: true)
            #expect(damaged.status == .badRequest && damaged.errorCode == "invalid_input", "a damaged NoteTaker export is the input's fault: \(damaged.object)")
        }
    }
}
