import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/notes/{id}/attachments` and `/api/v1/attachments/{id}`: adding, serving and removing files.
///
/// Uploads stream to a temporary file (never held in memory) and are refused past 250 MB.
/// Only images are served inline, as their own type; every other file — HTML and SVG
/// included — is a download, so an attached page can never run inside the app.
struct AttachmentRoutes {
    let store: NoteStore

    /// Image types shown inline, by file extension.
    static let inlineImageTypes = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "avif": "image/avif", "bmp": "image/bmp",
    ]

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/v1/notes/:id/attachments") { request, context in
            let noteId = try context.identifier()
            guard let name = request.uri.form("name"), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw WebAPIError.invalid("Give the file's name as ?name=. Nothing was attached.")
            }
            let note = try storeCall { () throws(NoteTakerError) in try store.note(id: noteId) }
            if note.isTrashed { throw WebAPIError(.noteInTrash(noteId.key)) }
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-upload-\(UUID().uuidString)")
            try await request.body.save(to: temporary, limit: Attachment.maximumSize) { size in
                WebAPIError(.attachmentTooLarge(fileName: name, size: size))
            }
            defer { try? FileManager.default.removeItem(at: temporary) }
            let attachment = try storeCall { () throws(NoteTakerError) in
                try store.attachFile(at: temporary, toNote: noteId, fileName: name)
            }
            return try JSON.response(AttachmentJSON(attachment), status: .created)
        }
        router.get("/api/v1/attachments/:id/content") { request, context in
            let attachment = try find(try context.identifier())
            let url = store.fileURL(for: attachment)
            let download = try request.flag("download")
            let imageType = Self.inlineImageTypes[(attachment.fileName as NSString).pathExtension.lowercased()]
            let disposition = (imageType != nil && !download) ? "inline" : "attachment"
            let encodedName = attachment.fileName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"
            return Response(
                status: .ok,
                headers: [
                    .contentType: download ? "application/octet-stream" : (imageType ?? "application/octet-stream"),
                    .contentDisposition: "\(disposition); filename*=UTF-8''\(encodedName)",
                    .cacheControl: "private, max-age=31536000, immutable",
                ],
                body: ResponseBody(contentLength: Int(attachment.fileSize)) { writer in
                    let handle = try FileHandle(forReadingFrom: url)
                    defer { try? handle.close() }
                    while let data = try handle.read(upToCount: 1 << 16), !data.isEmpty {
                        try await writer.write(ByteBuffer(bytes: data))
                    }
                    try await writer.finish(nil)
                })
        }
        router.delete("/api/v1/attachments/:id") { _, context in
            let attachment = try find(try context.identifier())
            try storeCall { () throws(NoteTakerError) in try store.detach(attachmentId: attachment.id) }
            return Response(status: .noContent)
        }
    }

    private func find(_ id: UUID) throws(WebAPIError) -> Attachment {
        try storeCall { () throws(NoteTakerError) in try store.attachment(matching: id.key) }
    }
}
