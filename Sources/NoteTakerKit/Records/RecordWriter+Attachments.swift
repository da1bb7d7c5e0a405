import GRDB

/// Attachments' rows, as this device adds and removes them (their files are
/// ``AttachmentFiles``'s).
extension RecordWriter {
    /// Inserts an attachment row and its outbox entry (the note is checked by the caller).
    static func insertAttachment(_ db: Database, _ attachment: Attachment) throws {
        try db.cachedStatement(sql: """
            INSERT INTO attachment (id, noteId, kind, fileName, fileSize, contentHash, createdAt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                attachment.id.key, attachment.noteId.key, attachment.kind.rawValue, attachment.fileName,
                attachment.fileSize, attachment.contentHash, attachment.createdAt.storageValue,
            ])
        try Outbox.append(db, .attachment, attachment.id.key)
    }

    /// Deletes an attachment's row and queues its deletion; the caller touches its note.
    static func deleteAttachment(_ db: Database, id: String) throws {
        try db.execute(sql: "DELETE FROM attachment WHERE id = ?", arguments: [id])
        try Outbox.record(db, .attachment, id, .delete)
    }
}
