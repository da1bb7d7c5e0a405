import Foundation
import GRDB

extension NoteStore {
    /// A note of an import whose id is already in the store. One that follows its source and
    /// changed there since it was last imported is updated: what the source changed goes
    /// through the one edit path (``change(_:_:_:movedOn:sources:)``), merged with what
    /// changed here since (a body changed on both sides and not mergeable keeps the
    /// source's text, this device's going to a conflict copy), the text it replaces kept in
    /// History, and new attachments added. Anything else is already present.
    static func importAgain(_ db: Database, _ item: NoteImport, stored: [AttachmentFiles.Stored], sources: StoreSources) throws -> NoteImport.Outcome {
        guard item.followsSource, let id = item.draft.id else { return .alreadyPresent }
        let source = try ImportBases.Base(item.draft)
        let current = try fetchNote(db, id: id.key)
        let here = ImportBases.Base(current)
        guard let (digest, kept) = try ImportBases.fetch(db, noteId: id.key) else {
            // Imported before bases were kept, or made here as the source says it: from now
            // on, a change there updates it.
            if here.says(source) { try ImportBases.save(db, noteId: id.key, source, noteIsSource: true) }
            return .alreadyPresent
        }
        guard source.digest != digest else { return .alreadyPresent }
        // Kept whole once the note changed here; until then, the note is the base.
        let base = kept ?? here
        if current.isTrashed { return .failed(.invalidInput(Wording("importUpdateInTrash"))) }
        var changes = NoteChanges(base: NoteBase(revision: current.revision, title: base.title, body: base.body, tags: base.tags))
        if source.title != base.title { changes.title = source.title }
        if source.body != base.body { changes.body = source.body }
        if !source.sameTags(as: base) { changes.tags = source.tags }
        if source.isPinned != base.isPinned { changes.isPinned = source.isPinned }
        if source.folderId != base.folderId { changes.folderId = .some(item.draft.folderId) }
        let changedHere = here.title != base.title || here.body != base.body || !here.sameTags(as: base)
        try db.inSavepoint {
            let present = try String.fetchSet(db, sql: "SELECT id FROM attachment WHERE noteId = ?", arguments: [id.key])
            try insertAttachments(db, of: item, stored: stored, skipping: present, sources: sources)
            let after = try change(db, current, changes, movedOn: changedHere, sources: sources)
            try ImportBases.save(db, noteId: id.key, source, noteIsSource: ImportBases.Base(after).says(source))
            return .commit
        }
        return .updated
    }

    /// Adds the attachments of `item` (its files copied into the store as `stored`) but those
    /// whose ids are in `present` (its note has them already).
    static func insertAttachments(
        _ db: Database, of item: NoteImport, stored: [AttachmentFiles.Stored], skipping present: Set<String> = [], sources: StoreSources
    ) throws {
        let noteId = item.draft.id ?? UUID()
        for (file, copy) in zip(item.files, stored) where !present.contains(file.id.key) {
            let name = Attachment.safeFileName(file.fileName)
            try RecordWriter.insertAttachment(db, Attachment(
                id: file.id, noteId: noteId, kind: .detect(header: copy.header, fileName: name),
                fileName: name, fileSize: copy.size, contentHash: copy.contentHash,
                createdAt: file.createdAt ?? item.draft.createdAt ?? sources.now))
        }
    }
}
