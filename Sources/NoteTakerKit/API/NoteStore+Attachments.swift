import Foundation
import GRDB

/// Attachments: files copied into the store, deduplicated by content, tied to a note.
extension NoteStore {
    package var attachmentFiles: AttachmentFiles { AttachmentFiles(directory: attachmentsDirectory) }

    /// Copies the file at `url` into the store and attaches it to a note.
    ///
    /// - Parameter fileName: the name to show; the file's own name when `nil`.
    /// - Throws: ``NoteTakerError/attachmentTooLarge(fileName:size:)`` over 250 MB, or
    ///   ``NoteTakerError/fileUnreadable(path:reason:)``; nothing changes then.
    public func attachFile(at url: URL, toNote noteId: UUID, fileName: String? = nil) throws(NoteTakerError) -> Attachment {
        let name = Attachment.safeFileName(fileName ?? url.lastPathComponent)
        _ = try read { db in try Self.fetchEditableNote(db, id: noteId.key) }
        let stored = try attachmentFiles.store(from: url, fileName: name)
        let attachment = Attachment(
            id: sources.newID(), noteId: noteId, kind: .detect(header: stored.header, fileName: name), fileName: name,
            fileSize: stored.size, contentHash: stored.contentHash, createdAt: sources.now)
        do {
            try write { db in
                _ = try Self.fetchEditableNote(db, id: noteId.key)
                try RecordWriter.insertAttachment(db, attachment)
                try RecordWriter.touchNote(db, noteId: noteId.key, at: sources.now)
            }
        } catch {
            try removeUnreferencedFiles([stored.contentHash])
            throw error
        }
        // Another process may have purged the last reference to these bytes between the copy
        // and the commit; store them again so the new attachment is never left without its file.
        if !FileManager.default.fileExists(atPath: attachmentFiles.url(forHash: stored.contentHash).path) {
            _ = try attachmentFiles.store(from: url, fileName: name)
        }
        if attachment.kind == .image { makeThumbnail(hash: stored.contentHash) }
        return attachment
    }

    /// The attachments of a note, oldest first.
    public func attachments(noteId: UUID) throws(NoteTakerError) -> [Attachment] {
        try read { db in
            _ = try Self.fetchNote(db, id: noteId.key)
            return try Self.fetchAttachments(db, noteIds: [noteId.key])[noteId] ?? []
        }
    }

    /// The attachment whose id starts with `prefix`.
    public func attachment(matching prefix: String) throws(NoteTakerError) -> Attachment {
        try read { db in
            let ids = try Self.idsWithPrefix(db, table: "attachment", labelColumn: "fileName", prefix: prefix)
            guard ids.count <= 1 else {
                throw NoteTakerError.ambiguousIdentifier(prefix, candidates: ids.map { "\($0.id.key)  \($0.label)" })
            }
            guard let id = ids.first?.id,
                  let row = try Row.fetchOne(
                    db, sql: "SELECT \(Columns.attachment) FROM attachment WHERE id = ?", arguments: [id.key])
            else { throw NoteTakerError.attachmentNotFound(prefix) }
            return Attachment(row: row)
        }
    }

    /// Removes an attachment from its note, and its file when nothing else uses the bytes.
    public func detach(attachmentId: UUID) throws(NoteTakerError) {
        let hash: String = try write { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT noteId, contentHash FROM attachment WHERE id = ?", arguments: [attachmentId.key])
            else { throw NoteTakerError.attachmentNotFound(attachmentId.key) }
            let noteId: String = row["noteId"]
            _ = try Self.fetchEditableNote(db, id: noteId)
            try RecordWriter.deleteAttachment(db, id: attachmentId.key)
            try RecordWriter.touchNote(db, noteId: noteId, at: sources.now)
            return row["contentHash"]
        }
        try removeUnreferencedFiles([hash])
    }

    /// Where the attachment's bytes are stored (read them; never change them in place).
    public func fileURL(for attachment: Attachment) -> URL {
        attachmentFiles.url(forHash: attachment.contentHash)
    }

    /// Copies an attachment's file out to `destination`: into it, under the attachment's
    /// name, when it is a folder. Refuses to overwrite an existing file. Returns the new file.
    @discardableResult
    public func extractAttachment(_ attachment: Attachment, to destination: URL) throws(NoteTakerError) -> URL {
        var isDirectory: ObjCBool = false
        var target = destination
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .fileWriteFailed(path: destination.path, reason: "a file is already there; choose another name")
            }
            target = destination.appendingPathComponent(Attachment.safeFileName(attachment.fileName))
            guard !FileManager.default.fileExists(atPath: target.path) else {
                throw .fileWriteFailed(path: target.path, reason: "a file is already there; choose another name")
            }
        }
        let source = fileURL(for: attachment)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw .fileUnreadable(path: source.path, reason: "the attachment's file is missing from the store")
        }
        do {
            try FileManager.default.copyItem(at: source, to: target)
        } catch {
            throw .fileWriteFailed(path: target.path, reason: error.localizedDescription)
        }
        return target
    }

    /// Deletes the stored files among `hashes` that no attachment refers to any more.
    func removeUnreferencedFiles(_ hashes: Set<String>) throws(NoteTakerError) {
        guard !hashes.isEmpty else { return }
        let unreferenced = try read { db in
            try hashes.filter { hash in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM attachment WHERE contentHash = ?", arguments: [hash]) != true
            }
        }
        for hash in unreferenced { try attachmentFiles.remove(hash: hash) }
    }

    static func fetchAttachments(_ db: Database, noteIds: [String]) throws -> [UUID: [Attachment]] {
        let rows: [Row]
        if noteIds.count == 1 {
            rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Columns.attachment) FROM attachment WHERE noteId = ? ORDER BY createdAt, id"),
                arguments: [noteIds[0]])
        } else {
            rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT \(Columns.attachment) FROM attachment
                    WHERE noteId IN (SELECT value FROM json_each(?)) ORDER BY createdAt, id
                    """),
                arguments: [jsonArray(noteIds)])
        }
        return Dictionary(grouping: rows.map(Attachment.init(row:)), by: \.noteId)
    }
}
