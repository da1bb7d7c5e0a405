import Foundation
import NoteTakerSyncProtocol

/// Thumbnails of attached pictures: made when a picture is attached or arrives by sync, and
/// for any other (imported, or attached before thumbnails existed) the first time one is asked
/// for. They are derived from the file, kept beside it, never synced, and go with it.
extension NoteStore {
    /// The thumbnail file of an image attachment, made now if there is none yet; `nil` when
    /// none can be made (not a picture gdk-pixbuf reads, or gdk-pixbuf not installed): show
    /// the original then.
    public func thumbnail(for attachment: Attachment) -> URL? {
        guard attachment.kind == .image else { return nil }
        let url = attachmentFiles.thumbnailURL(forHash: attachment.contentHash)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        return makeThumbnail(hash: attachment.contentHash) ? url : nil
    }

    /// Makes the thumbnail of the file with this hash; whether there is one now.
    @discardableResult
    func makeThumbnail(hash: String) -> Bool {
        guard AttachmentFiles.isValidHash(hash), let thumbnailer = Thumbnailer.shared,
              let jpeg = thumbnailer.jpeg(of: attachmentFiles.url(forHash: hash))
        else { return false }
        let url = attachmentFiles.thumbnailURL(forHash: hash)
        do {
            try OwnerOnly.createDirectory(at: url.deletingLastPathComponent())
            // Written whole under another name first: a reader never sees half a picture.
            let partial = url.deletingLastPathComponent().appendingPathComponent(".partial-\(UUID().uuidString)")
            guard OwnerOnly.createFile(at: partial, contents: jpeg), rename(partial.path, url.path) == 0 else {
                try? FileManager.default.removeItem(at: partial)
                return false
            }
            return true
        } catch {
            return false
        }
    }

    /// Makes the thumbnails of the pictures among files that just arrived (by sync).
    package func makeThumbnails(hashes: [String]) throws(NoteTakerError) {
        guard Thumbnailer.shared != nil, !hashes.isEmpty else { return }
        let pictures = try read { db in
            try String.fetchSet(
                db, sql: "SELECT contentHash FROM attachment WHERE kind = ? AND contentHash IN (SELECT value FROM json_each(?))",
                arguments: [Attachment.Kind.image.rawValue, Self.jsonArray(hashes)])
        }
        for hash in pictures { makeThumbnail(hash: hash) }
    }
}
