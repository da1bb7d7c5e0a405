import Foundation
import GRDB

/// Duplicating a note: a new note with the same text, tags, folder and attachments.
extension NoteStore {
    /// Makes a copy of a note outside the trash, titled as the original with "(copy)" after
    /// it (`copyTitle`), in the same folder, with the same tags and body, unpinned. Each
    /// attachment is attached to the copy too (its file is shared, stored once), and the
    /// copy's body shows the copy's attachments, not the original's: deleting either note
    /// leaves the other whole. Returns the copy.
    ///
    /// - Throws: ``NoteTakerError/noteNotFound(_:)``, or ``NoteTakerError/noteInTrash(_:)``
    ///   for a note in the trash (restore it first); nothing changes then.
    public func duplicateNote(id: UUID, copyTitle: (String) -> String = { "\($0) (copy)" }) throws(NoteTakerError) -> Note {
        try write { db in
            let original = try Self.fetchEditableNote(db, id: id.key)
            let copyId = sources.newNoteID()
            var body = original.body
            let attachments = original.attachments.map { attachment in
                var copy = attachment
                copy.id = sources.newID()
                copy.noteId = copyId
                copy.createdAt = sources.now
                // Bodies name attachments by id (`attachment:ID`): the copy names its own.
                body = body.replacingOccurrences(of: "attachment:\(attachment.id.key)", with: "attachment:\(copy.id.key)")
                return copy
            }
            let title = String(copyTitle(original.title).prefix(Self.maximumTitleLength))
            let before = try SearchIndexSchema.lastSearchSeq(db)
            var cache = RecordWriter.InsertCache()
            _ = try RecordWriter.insertNote(db, NoteDraft(
                title: title, body: body, isPinned: false, folderId: original.folderId, tags: original.tags, id: copyId),
                cache: &cache, checked: true, sources: sources)
            for attachment in attachments { try RecordWriter.insertAttachment(db, attachment) }
            try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
            try Metrics.increment(db, .notesCreated)
            return try Self.fetchNote(db, id: copyId.key)
        }
    }
}
