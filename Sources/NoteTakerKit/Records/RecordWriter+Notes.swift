import Foundation
import GRDB

/// Notes made and changed on this device.
extension RecordWriter {
    /// Inserts a note, its tag links and its outbox entry; returns its id. The caller then
    /// adds it to the search index (``SearchIndexSchema/indexNotes(_:searchSeqAbove:)``),
    /// one note or a whole batch at once.
    ///
    /// Every check that can refuse the draft runs before the first write, so a refused draft
    /// leaves nothing behind, even inside a larger transaction.
    /// `checked`: the caller has just found that no note has the draft's id. A draft without
    /// an id or a creation time takes them from `sources`.
    static func insertNote(
        _ db: Database, _ draft: NoteDraft, cache: inout InsertCache, checked: Bool = false, sources: StoreSources
    ) throws -> String {
        let id = (draft.id ?? sources.newNoteID()).key
        let title = try NoteStore.validatedTitle(draft.title)
        let body = try NoteStore.validatedBody(draft.body)
        let tagNames = try draft.tags.map(NoteStore.validatedTagName)
        let createdAt = draft.createdAt ?? sources.now
        let folderId = draft.folderId?.key
        var chain: [String] = []
        if let folderId {
            if let known = cache.folderChains[folderId] {
                chain = known
            } else {
                guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM folder WHERE id = ?"), arguments: [folderId]) == true
                else { throw NoteTakerError.folderNotFound(folderId) }
                chain = try SearchFields.folderChain(db, folderId)
                cache.folderChains[folderId] = chain
            }
        }
        if !checked, try NoteStore.noteExists(db, id) {
            throw NoteTakerError.invalidInput(Wording("noteIdTaken", ["id": id]))
        }

        var tags: [Tag] = []
        for name in tagNames {
            let normalized = Tag.normalizedName(name)
            let tag = try cache.tags[normalized] ?? ensureTag(db, name: name, at: sources.now)
            cache.tags[normalized] = tag
            if !tags.contains(where: { $0.id == tag.id }) { tags.append(tag) }
        }
        try NoteRow(
            id: id, title: title, body: body, createdAt: createdAt.storageValue, modifiedAt: (draft.modifiedAt ?? createdAt).storageValue,
            isPinned: draft.isPinned, folderId: folderId, trashedAt: draft.trashedAt?.storageValue,
            fields: SearchFields(isPinned: draft.isPinned, isTrashed: draft.trashedAt != nil, tags: tags, folderChain: chain)
        ).insert(db)
        let link = try db.cachedStatement(sql: "INSERT INTO noteTag (noteId, tagId) VALUES (?, ?)")
        for tag in tags { try link.execute(arguments: [id, tag.id.key]) }
        try Outbox.append(db, .note, id)
        return id
    }

    /// Writes a new title and/or body at `date`, keeping the text it replaces in the note's
    /// history; returns the changed note, or `nil` when both are as they were. A new title
    /// is followed by the links to the note that read the old one.
    static func changeText(
        _ db: Database, of current: Note, title: String?, body: String?, replacedBy: NoteVersion.Replacement = .edit, at date: Date
    ) throws -> Note? {
        let newTitle = try title.map(NoteStore.validatedTitle) ?? current.title
        var newBody = try body.map(NoteStore.validatedBody) ?? current.body
        if newTitle != current.title {
            // A link to the note itself follows the new title as links elsewhere do (followRename).
            newBody = NoteLinks.renaming(
                in: newBody, target: current.id.key, from: Note.displayTitle(of: current.title), to: Note.displayTitle(of: newTitle)
            ) ?? newBody
        }
        guard newTitle != current.title || newBody != current.body else { return nil }
        try NoteHistory.keep(db, noteId: current.id.key, title: current.title, body: current.body, newBody: newBody,
                             modifiedAt: current.modifiedAt, replacedBy: replacedBy, now: date)
        var updated = current
        (updated.title, updated.body, updated.modifiedAt, updated.sync.status) = (newTitle, newBody, date, .pending)
        updated.revision += 1
        try db.cachedStatement(sql: "UPDATE note SET title = ?, body = ?, editedOn = NULL, editedBy = NULL, \(touch) WHERE id = ?")
            .execute(arguments: [newTitle, newBody, updated.modifiedAt.storageValue, current.id.key])
        try Outbox.record(db, .note, current.id.key)
        if newTitle != current.title { try followRename(db, of: updated, from: current.title, at: date) }
        return updated
    }

    /// After `note` was renamed here from `oldTitle`: the links to it that read the old title
    /// read the new one, each linking note changed as an edit (kept in its history, synced).
    /// The note's own links to itself were renamed with its text (``changeText(_:of:title:body:replacedBy:at:)``).
    static func followRename(_ db: Database, of note: Note, from oldTitle: String, at date: Date) throws {
        let old = Note.displayTitle(of: oldTitle)
        let new = note.displayTitle
        guard old != new else { return }
        let sources = try String.fetchAll(db.cachedStatement(sql: """
            SELECT note.id FROM note_link JOIN note ON note.id = note_link.sourceId
            WHERE note_link.targetId = ? AND note.trashedAt IS NULL AND note.id <> ?
            """), arguments: [note.id.key, note.id.key])
        for source in sources {
            let current = try NoteStore.fetchNote(db, id: source)
            guard let body = NoteLinks.renaming(in: current.body, target: note.id.key, from: old, to: new) else { continue }
            _ = try changeText(db, of: current, title: nil, body: body, at: date)
        }
    }

    /// Replaces a note's body with the text a person chose to resolve a conflict; the caller
    /// keeps both sides in its history and queues it.
    static func resolveBody(_ db: Database, noteId: String, body: String, at date: Date) throws {
        try db.execute(sql: "UPDATE note SET body = ?, editedOn = NULL, editedBy = NULL, \(touch) WHERE id = ?", arguments: [body, date.storageValue, noteId])
    }

    /// Pins or unpins a note, without finishing the change (``finishNoteChange(_:id:touchedAt:)``).
    static func setPinned(_ db: Database, noteId: String, _ isPinned: Bool) throws {
        try db.execute(sql: "UPDATE note SET isPinned = ? WHERE id = ?", arguments: [isPinned, noteId])
    }

    /// Files a note in a folder (`nil`: none), without finishing the change (``finishNoteChange(_:id:touchedAt:)``).
    static func setFolder(_ db: Database, noteId: String, _ folderId: String?) throws {
        try db.execute(sql: "UPDATE note SET folderId = ? WHERE id = ?", arguments: [folderId, noteId])
    }

    /// After a change to a note's pin, folder, tags or trash state: refreshes its search
    /// fields (marking it modified at `touchedAt` when given), records it in the outbox, and
    /// returns it as it now is.
    static func finishNoteChange(_ db: Database, id: String, touchedAt: Date? = nil) throws -> Note {
        try SearchFields.refresh(db, noteIds: [id], touchedAt: touchedAt)
        try Outbox.record(db, .note, id)
        return try NoteStore.fetchNote(db, id: id)
    }

    /// Marks a note modified at `date` (an attachment came or went) and queues it.
    static func touchNote(_ db: Database, noteId: String, at date: Date) throws {
        try db.execute(sql: "UPDATE note SET \(touch) WHERE id = ?", arguments: [date.storageValue, noteId])
        try Outbox.record(db, .note, noteId)
    }
}
