import Foundation
import Hummingbird
import NoteTakerHTTP
import NoteTakerKit

/// `/api/v1/notes/{id}/attachments` and `/api/v1/attachments/{id}`: adding, serving and removing files.
///
/// Uploads stream to a temporary file (never held in memory) and are refused past 250 MB.
/// Only images are served inline, as their own type; every other file — HTML and SVG
/// included — is a download, so an attached page can never run inside the app.
struct AttachmentRoutes {
    let stores: WebStores

    /// Image types shown inline, by file extension.
    static let inlineImageTypes = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "avif": "image/avif", "bmp": "image/bmp",
    ]

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/v1/notes/:id/attachments") { request, context in
            let store = try stores.store(for: request)
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
        router.get("/api/v1/attachments/:id/thumbnail") { request, context in
            let (attachment, store) = try find(try context.identifier(), for: request)
            guard attachment.kind == .image else {
                throw WebAPIError(.notFound, "not_found", "Attachment \(attachment.id.key) is not a picture; it has no thumbnail.")
            }
            guard let thumbnail = store.thumbnail(for: attachment) else {
                guard Self.inlineImageTypes[(attachment.fileName as NSString).pathExtension.lowercased()] != nil else {
                    throw WebAPIError(.notFound, "not_found", "No thumbnail can be made of \(attachment.fileName).")
                }
                return try Self.file(store.fileURL(for: attachment), of: attachment, download: false)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: thumbnail.path)[.size] as? NSNumber)?.intValue ?? 0
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "private, max-age=31536000, immutable"],
                body: .file(at: thumbnail, size: size))
        }
        router.get("/api/v1/attachments/:id/content") { request, context in
            let (attachment, store) = try find(try context.identifier(), for: request)
            return try Self.file(store.fileURL(for: attachment), of: attachment, download: try request.flag("download"))
        }

        router.delete("/api/v1/attachments/:id") { request, context in
            let store = try stores.store(for: request)
            let attachment = try find(try context.identifier(), in: store)
            try storeCall { () throws(NoteTakerError) in try store.detach(attachmentId: attachment.id) }
            return Response(status: .noContent)
        }
    }

    /// An attachment's file: pictures inline, as their own type; anything else a download.
    private static func file(_ url: URL, of attachment: Attachment, download: Bool) throws -> Response {
        let imageType = inlineImageTypes[(attachment.fileName as NSString).pathExtension.lowercased()]
        let disposition = (imageType != nil && !download) ? "inline" : "attachment"
        let encodedName = attachment.fileName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"
        let headers: HTTPFields = [
            .contentType: download ? "application/octet-stream" : (imageType ?? "application/octet-stream"),
            .contentDisposition: "\(disposition); filename*=UTF-8''\(encodedName)",
            .cacheControl: "private, max-age=31536000, immutable",
        ]
        return Response(status: .ok, headers: headers, body: .file(at: url, size: Int(attachment.fileSize)))
    }

    private func find(_ id: UUID, in store: NoteStore) throws(WebAPIError) -> Attachment {
        try storeCall { () throws(NoteTakerError) in try store.attachment(matching: id.key) }
    }

    /// The attachment a GET asks for, and its store: the one `?share=` chooses; without it,
    /// the account's, else a share's (the previews address files by id alone).
    private func find(_ id: UUID, for request: Request) throws(WebAPIError) -> (Attachment, NoteStore) {
        let store = try stores.store(for: request)
        do {
            return (try find(id, in: store), store)
        } catch {
            guard request.uri.form("share") == nil else { throw error }
            for shared in stores.sharedStores() {
                if let attachment = try? find(id, in: shared) { return (attachment, shared) }
            }
            throw error
        }
    }
}
