import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

@Suite(.serialized) struct ExportAPITests {
    /// The names of the files in a zip, read by Python's zipfile (which also checks every CRC).
    static func zipNames(_ data: Data) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).zip")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print('\\n'.join(z.namelist()))", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 could not read the zip")
        return text.split(separator: "\n").map(String.init).sorted()
    }

    @Test func markdownAndJSONComeAsZipsAndPDFAsAFile() async throws {
        let app = try WebTestApp()
        let work = try app.store.createFolder(name: "Work")
        _ = try app.store.createNote(NoteDraft(title: "Plan", body: "**Ελληνικά**", folderId: work.id, tags: ["Q1"]))
        _ = try app.store.createNote(NoteDraft(title: "Other", body: "x"))
        try await app.test { client in
            let markdown = try await client.send(.get, "/api/v1/export?format=markdown")
            #expect(markdown.status == .ok)
            #expect(markdown.headers[.contentType] == "application/zip")
            #expect(markdown.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(try Self.zipNames(Data(buffer: markdown.body)) == ["Other.md", "Work/Plan.md"])
            let json = try await client.send(.get, "/api/v1/export?format=json&folder=\(work.id)")
            #expect(try Self.zipNames(Data(buffer: json.body)) == ["notes.jsonl", "notetaker-export.json"])
            let pdf = try await client.send(.get, "/api/v1/export?format=pdf&tag=q1")
            #expect(pdf.headers[.contentType] == "application/pdf")
            #expect(Data(buffer: pdf.body).starts(with: Data("%PDF-".utf8)))
        }
    }

    @Test("the Markdown zip one app exports, another imports whole, folders and tags kept; again, nothing twice")
    func aMarkdownZipComesBackIn() async throws {
        let source = try WebTestApp()
        let work = try source.store.createFolder(name: "Work")
        _ = try source.store.createNote(NoteDraft(title: "Plan", body: "**Ελληνικά**", folderId: work.id, tags: ["Q1"]))
        _ = try source.store.createNote(NoteDraft(title: "Other", body: "x"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("markdown-export-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        try await source.test { client in try Data(buffer: try await client.send(.get, "/api/v1/export?format=markdown").body).write(to: file) }
        let zip = ByteBuffer(bytes: try Data(contentsOf: file))
        let target = try WebTestApp()
        try await target.test { client in
            let report = try await client.execute(uri: "/api/v1/import?name=NoteTaker%20export.zip", method: .post, headers: [:], body: zip)
            #expect(report.status == .ok && report.object["kind"] as? String == "markdown" && report.object["imported"] as? Int == 2)
            let again = try await client.execute(uri: "/api/v1/import?name=NoteTaker%20export.zip", method: .post, headers: [:], body: zip)
            #expect(again.object["alreadyPresent"] as? Int == 2 && again.object["imported"] as? Int == 0)
        }
        let plan = try #require(try target.store.notes().first { $0.title == "Plan" })
        #expect(plan.body.contains("**Ελληνικά**") && plan.tags == ["Q1"])
        #expect(try target.store.folderPath(id: #require(plan.folderId)) == "Work")
    }

    @Test("one note downloads under its title: as Markdown its .md alone, or a zip with its attachments; as a PDF")
    func oneNoteUnderItsTitle() async throws {
        let app = try WebTestApp()
        let plain = try app.store.createNote(NoteDraft(title: "Plan: Q1/Q2", body: "**Ελληνικά**"))
        let pictured = try app.store.createNote(NoteDraft(title: "Trip"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).txt")
        try Data("a photo".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try app.store.attachFile(at: file, toNote: pictured.id, fileName: "photo.txt")
        try await app.test { client in
            let markdown = try await client.send(.get, "/api/v1/export?format=markdown&note=\(plain.id)")
            #expect(markdown.status == .ok)
            #expect(markdown.headers[.contentType] == "text/markdown; charset=utf-8")
            #expect(markdown.headers[.contentDisposition]?.hasSuffix("''Plan%3A%20Q1%20Q2%2Emd") == true, "\(markdown.headers[.contentDisposition] ?? "")")
            #expect(String(buffer: markdown.body).contains("**Ελληνικά**"))
            let zipped = try await client.send(.get, "/api/v1/export?format=markdown&note=\(pictured.id)")
            #expect(zipped.headers[.contentType] == "application/zip")
            #expect(zipped.headers[.contentDisposition]?.hasSuffix("''Trip%2Ezip") == true)
            #expect(try Self.zipNames(Data(buffer: zipped.body)).contains("Trip.md"))
            let pdf = try await client.send(.get, "/api/v1/export?format=pdf&note=\(plain.id)")
            #expect(pdf.headers[.contentDisposition]?.hasSuffix("%2Epdf") == true)
            #expect(Data(buffer: pdf.body).starts(with: Data("%PDF-".utf8)))
        }
    }

    @Test func badRequestsAreClearAndWriteNothing() async throws {
        let app = try WebTestApp()
        let before = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("notetaker-export-") }
        try await app.test { client in
            #expect(try await client.send(.get, "/api/v1/export").status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/export?format=docx").status == .badRequest)
            #expect(try await client.send(.get, "/api/v1/export?format=json&folder=nope").status == .badRequest)
            let missing = try await client.send(.get, "/api/v1/export?format=json&folder=\(UUID())")
            #expect(missing.status == .notFound)
            #expect(try await client.send(.get, "/api/v1/export?format=pdf&tag=unknown").status == .notFound)
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("notetaker-export-") }
        #expect(Set(after) == Set(before), "a refused export leaves no temporary files")
    }
}

@Suite struct ImportAPITests {
    static let enex = """
        <?xml version="1.0" encoding="UTF-8"?>
        <en-export><note><title>From Evernote</title><content><![CDATA[<en-note><div><b>Bold</b> move</div>\
        <div><en-todo checked="true"/>Done</div></en-note>]]></content><created>20231015T083000Z</created><tag>imported</tag></note>
        <note><title>Broken</title><content><![CDATA[<en-note><div><b></en-note>]]></content></note></en-export>
        """

    @Test("an uploaded file's name is read as the browser encodes it")
    func anUploadedNameWithSpaces() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let response = try await client.execute(
                uri: "/api/v1/import?name=Obsidian+Daily+2026-11-23.md", method: .post, headers: [:], body: ByteBuffer(string: "Walked to the bakery."))
            #expect(response.status == .ok)
        }
        #expect(try app.store.notes(NoteQuery(limit: 10)).map(\.title) == ["Obsidian Daily 2026-11-23"])
    }

    @Test("a newer Simplenote export updates the note that changed there, and the report names it")
    func aNewerExportUpdates() async throws {
        @Sendable func notes(_ text: String) -> ByteBuffer {
            ByteBuffer(string: #"{"activeNotes": [{"id": "0c1f3d6b4a8e4f21a9d7c2b5e6f80911", "content": "Plan\r\n\r\n\#(text)", "#
                + #""creationDate": "2021-05-04T09:15:30.000Z", "lastModified": "2023-11-20T18:02:11.482Z"}], "trashedNotes": []}"#)
        }
        let app = try WebTestApp()
        try await app.test { client in
            let first = try await client.execute(uri: "/api/v1/import?name=notes.json", method: .post, headers: [:], body: notes("draft"))
            #expect(first.object["imported"] as? Int == 1 && first.object["updated"] as? [String] == [])
            let newer = try await client.execute(uri: "/api/v1/import?name=notes.json", method: .post, headers: [:], body: notes("final"))
            #expect(newer.status == .ok && newer.object["imported"] as? Int == 0)
            #expect(newer.object["updated"] as? [String] == ["note 1 'Plan'"], "\(newer.object)")
        }
        #expect(try app.store.notes().map(\.body) == ["final"])
    }

    @Test func anEvernoteFileIsImportedAndReported() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let response = try await client.execute(
                uri: "/api/v1/import?name=Travel%20notes.enex", method: .post, headers: [:], body: ByteBuffer(string: Self.enex))
            #expect(response.status == .ok)
            let report = response.object
            #expect(report["kind"] as? String == "evernote")
            #expect(report["found"] as? Int == 2 && report["imported"] as? Int == 1)
            let skipped = try #require(report["skipped"] as? [[String: Any]])
            #expect(skipped.first?["item"] as? String == "note 2 'Broken'")
            #expect(report.keys.contains("stoppedEarly"))
            let again = try await client.execute(
                uri: "/api/v1/import?name=Travel%20notes.enex", method: .post, headers: [:], body: ByteBuffer(string: Self.enex))
            #expect(again.object["alreadyPresent"] as? Int == 1 && again.object["imported"] as? Int == 0)
        }
        let notes = try app.store.notes()
        #expect(notes.map(\.title) == ["From Evernote"])
        #expect(notes.first?.body == "**Bold** move\n\n- [x] Done")
        #expect(try app.store.folderPath(id: #require(notes.first?.folderId)) == "Travel notes")
    }

    @Test("an import given a progress id tells how far it got; once it has ended, that is told once")
    func progress() async throws {
        let app = try WebTestApp()
        let id = UUID().uuidString
        try await app.test { client in
            let before = try await client.execute(uri: "/api/v1/import/progress?id=\(id)", method: .get)
            #expect(before.status == .notFound)
            let response = try await client.execute(
                uri: "/api/v1/import?name=Travel%20notes.enex&progress=\(id)", method: .post, headers: [:], body: ByteBuffer(string: Self.enex))
            #expect(response.status == .ok)
            let after = try await client.execute(uri: "/api/v1/import/progress?id=\(id)", method: .get)
            #expect(after.status == .ok)
            #expect(after.object["finished"] as? Bool == true && after.object["notes"] as? Int == 2, "\(after.object)")
            #expect(after.object["indexing"] as? Bool == true && after.object["done"] as? Int == after.object["total"] as? Int)
            let again = try await client.execute(uri: "/api/v1/import/progress?id=\(id)", method: .get)
            #expect(again.status == .notFound)
            let bad = try await client.execute(uri: "/api/v1/import/progress?id=nope", method: .get)
            #expect(bad.status == .badRequest)
        }
    }

    @Test func badUploadsAreRefusedAndImportNothing() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let noName = try await client.execute(uri: "/api/v1/import", method: .post, headers: [:], body: ByteBuffer(string: Self.enex))
            #expect(noName.status == .badRequest)
            let wrongKind = try await client.execute(
                uri: "/api/v1/import?name=backup.tar", method: .post, headers: [:], body: ByteBuffer(string: "ustar"))
            #expect(wrongKind.status == .badRequest)
            #expect((wrongKind.object["message"] as? String)?.contains("notetaker import") == true)
            let notAnExport = try await client.execute(
                uri: "/api/v1/import?name=backup.zip", method: .post, headers: [:], body: ByteBuffer(string: "PK"))
            #expect(notAnExport.status == .badRequest)
            #expect((notAnExport.object["message"] as? String)?.contains("Cannot tell what to import") == true, "\(notAnExport.object)")
            // A zip that cannot be read is the upload's fault, not the server's.
            let damaged = try await client.execute(
                uri: "/api/v1/import?name=takeout.zip", method: .post, headers: [:], body: ByteBuffer(bytes: [0x50, 0x4B, 0x03, 0x04, 9, 9, 9]))
            #expect(damaged.status == .badRequest && damaged.object["error"] as? String == "invalid_input")
            #expect((damaged.object["message"] as? String)?.contains("it is not a zip file") == true, "\(damaged.object)")
            let damagedJoplin = try await client.execute(
                uri: "/api/v1/import?name=Joplin.jex", method: .post, headers: [:], body: ByteBuffer(string: String(repeating: "not a tar ", count: 60)))
            #expect(damagedJoplin.status == .badRequest && damagedJoplin.object["error"] as? String == "invalid_input")
            #expect((damagedJoplin.object["message"] as? String)?.contains("it is not a tar archive") == true, "\(damagedJoplin.object)")
            let traversal = try await client.execute(
                uri: "/api/v1/import?name=..%2F..%2Fescape.md", method: .post, headers: [:], body: ByteBuffer(string: "# Hi"))
            #expect(traversal.status == .ok, "the name is only a label: the upload stays in its temporary folder")
        }
        #expect(try app.store.notes().map(\.title) == ["escape"])
        let temporary = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        #expect(!temporary.contains("escape.md"))
    }
}
