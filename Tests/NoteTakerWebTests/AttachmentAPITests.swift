import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

@Suite struct AttachmentAPITests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64))

    @Test func uploadServeAndRemove() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Pictures"))
        try await app.test { client in
            let upload = try await client.execute(
                uri: "/api/v1/notes/\(note.id)/attachments?name=chart.png", method: .post, headers: [:], body: ByteBuffer(bytes: Self.png))
            #expect(upload.status == .created)
            #expect(upload.object["kind"] as? String == "image")
            let url = try #require(upload.object["url"] as? String)
            let image = try await client.send(.get, url)
            #expect(image.status == .ok && Data(buffer: image.body) == Self.png)
            #expect(image.headers[.contentType] == "image/png")
            #expect(image.headers[.contentDisposition]?.hasPrefix("inline") == true)
            // A picture no larger than a thumbnail is its own thumbnail.
            let small = try await client.send(.get, try #require(upload.object["thumbnailUrl"] as? String))
            #expect(small.status == .ok && Data(buffer: small.body) == Self.png)
            let download = try await client.send(.get, url + "?download=true")
            #expect(download.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let page = try await client.execute(
                uri: "/api/v1/notes/\(note.id)/attachments?name=page.html", method: .post, headers: [:],
                body: ByteBuffer(string: "<script>alert(1)</script>"))
            let pageURL = try #require(page.object["url"] as? String)
            let served = try await client.send(.get, pageURL)
            #expect(served.headers[.contentType] == "application/octet-stream", "HTML is never served as a page")
            #expect(served.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let id = try #require(upload.object["id"] as? String)
            #expect(try await client.send(.delete, "/api/v1/attachments/\(id)").status == .noContent)
            #expect(try await client.send(.get, url).status == .notFound)
        }
        #expect(try app.store.note(id: note.id).attachments.map(\.fileName) == ["page.html"])
    }

    @Test func aLargePictureIsListedWithASmallThumbnail() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Holiday"))
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-\(UUID()).bmp")
        try Self.bmp(width: 2000, height: 1500).write(to: picture)
        defer { try? FileManager.default.removeItem(at: picture) }
        _ = try app.store.attachFile(at: picture, toNote: note.id, fileName: "beach.bmp")
        try await app.test { client in
            let listed = try await client.send(.get, "/api/v1/notes").object["notes"] as? [[String: Any]]
            let thumbnail = try #require(listed?.first?["thumbnailUrl"] as? String)
            let served = try await client.send(.get, thumbnail)
            #expect(served.status == .ok && served.headers[.contentType] == "image/jpeg")
            #expect(served.body.readableBytes < 50_000, "a thumbnail of \(served.body.readableBytes) bytes")
            #expect(try await client.send(.get, "/api/v1/attachments/\(UUID())/thumbnail").status == .notFound)
        }
    }

    /// An uncompressed BMP picture, as large as a photo.
    static func bmp(width: Int, height: Int) -> Data {
        func little(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let rowBytes = (width * 3 + 3) / 4 * 4
        let header = Array("BM".utf8) + little(54 + rowBytes * height, 4) + little(0, 4) + little(54, 4)
            + little(40, 4) + little(width, 4) + little(height, 4) + little(1, 2) + little(24, 2) + little(0, 24)
        return Data(header + [UInt8](repeating: 90, count: rowBytes * height))
    }

    @Test func badUploadsAreRefusedAndChangeNothing() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "n"))
        let trashed = try app.store.createNote(NoteDraft(title: "t"))
        _ = try app.store.trashNotes(ids: [trashed.id])
        let before = try app.snapshot()
        try await app.test { client in
            let noName = try await client.execute(uri: "/api/v1/notes/\(note.id)/attachments", method: .post, headers: [:], body: ByteBuffer(string: "x"))
            #expect(noName.status == .badRequest)
            let missing = try await client.execute(uri: "/api/v1/notes/\(UUID())/attachments?name=a.txt", method: .post, headers: [:], body: ByteBuffer(string: "x"))
            #expect(missing.status == .notFound)
            let inTrash = try await client.execute(uri: "/api/v1/notes/\(trashed.id)/attachments?name=a.txt", method: .post, headers: [:], body: ByteBuffer(string: "x"))
            #expect(inTrash.status == .conflict)
            let sneaky = try await client.execute(uri: "/api/v1/notes/\(note.id)/attachments?name=../../etc/passwd", method: .post, headers: [:], body: ByteBuffer(string: "x"))
            #expect(sneaky.status == .created)
            #expect(sneaky.object["fileName"] as? String != "../../etc/passwd", "names are never paths")
            _ = try app.store.detach(attachmentId: try #require(UUID(uuidString: sneaky.object["id"] as? String ?? "")))
            #expect(try await client.send(.get, "/api/v1/attachments/\(UUID())/content").status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/attachments/nope").status == .notFound)
        }
        #expect(try app.snapshot() == before)
    }
}

@Suite struct UploadFileModeTests {
    @Test("an upload's temporary file is its owner's only while it waits for the store")
    func uploadsAreOwnerOnly() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("upload-mode-\(UUID())")
        defer { try? FileManager.default.removeItem(at: url) }
        try await RequestBody(buffer: ByteBuffer(string: "private bytes")).save(to: url, limit: 100) { _ in WebAPIError.invalid("too large") }
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
    }
}
