import Foundation
import NoteTakerKit
import Testing

@Suite("Attachments sync")
struct AttachmentSyncTests {
    @Test("a file uploads once per hash and downloads when its note arrives")
    func files() async throws {
        try await withDevices(2) { devices, _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).png")
            let content = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 42, count: 5000))
            try content.write(to: file)
            let first = try devices[0].store.createNote(NoteDraft(title: "With photo"))
            let second = try devices[0].store.createNote(NoteDraft(title: "Same photo"))
            _ = try devices[0].store.attachFile(at: file, toNote: first.id)
            _ = try devices[0].store.attachFile(at: file, toNote: second.id)
            let report = try await devices[0].sync()
            #expect(report.uploadedFiles == 1)

            let received = try await devices[1].sync()
            #expect(received.downloadedFiles == 1)
            let attachment = try #require(try devices[1].store.note(id: first.id).attachments.first)
            #expect(attachment.fileName == file.lastPathComponent)
            #expect(attachment.kind == .image)
            #expect(try Data(contentsOf: devices[1].store.fileURL(for: attachment)) == content)

            try devices[1].store.detach(attachmentId: attachment.id)
            try await devices[1].sync()
            try await devices[0].sync()
            #expect(try devices[0].store.note(id: first.id).attachments.isEmpty)
            #expect(try devices[0].store.note(id: second.id).attachments.count == 1)
        }
    }
}
