import Foundation
import GRDB

/// Creating, reading and changing notes.
extension NoteStore {
    /// The longest title accepted, in characters.
    public static let maximumTitleLength = 1_000
    /// The largest body accepted, in bytes of UTF-8: 10 MB.
    public static let maximumBodySize = 10_000_000

    /// Creates a note from `draft`, with its tags (created when missing), and returns it.
    public func createNote(_ draft: NoteDraft) throws(NoteTakerError) -> Note {
        try write { db in
            let before = try SearchIndexSchema.lastSearchSeq(db)
            var cache = InsertCache()
            let id = try Self.insertNote(db, draft, cache: &cache, sources: sources)
            try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
            try Metrics.increment(db, .notesCreated)
            return try Self.fetchNote(db, id: id)
        }
    }

    /// The note with this id, trashed or not.
    public func note(id: UUID) throws(NoteTakerError) -> Note {
        try read { db in try Self.fetchNote(db, id: id.key) }
    }

    /// Changes a note's title and/or body; `nil` leaves that field as it is.
    public func updateNote(id: UUID, title: String? = nil, body: String? = nil) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: id.key)
            return try Self.changeText(db, of: current, title: title, body: body, at: sources.now) ?? current
        }
    }

    /// Writes a new title and/or body at `date`, keeping the text it replaces in the note's
    /// history; returns the changed note, or `nil` when both are as they were.
    static func changeText(
        _ db: Database, of current: Note, title: String?, body: String?, replacedBy: NoteVersion.Replacement = .edit, at date: Date
    ) throws -> Note? {
        let newTitle = try title.map(validatedTitle) ?? current.title
        var newBody = try body.map(validatedBody) ?? current.body
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
        try db.cachedStatement(sql: "UPDATE note SET title = ?, body = ?, editedOn = NULL, \(touch) WHERE id = ?")
            .execute(arguments: [newTitle, newBody, updated.modifiedAt.storageValue, current.id.key])
        try Outbox.record(db, .note, current.id.key)
        if newTitle != current.title { try followRename(db, of: updated, from: current.title, at: date) }
        return updated
    }

    /// Pins or unpins a note.
    public func setPinned(_ isPinned: Bool, noteId: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: noteId.key)
            guard current.isPinned != isPinned else { return current }
            try db.execute(sql: "UPDATE note SET isPinned = ? WHERE id = ?", arguments: [isPinned, noteId.key])
            return try Self.finishNoteChange(db, id: noteId.key, touchedAt: sources.now)
        }
    }

    /// Files a note in a folder, or takes it out of any folder when `folderId` is `nil`.
    public func moveNote(id: UUID, toFolder folderId: UUID?) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: id.key)
            if let folderId { _ = try Self.fetchFolder(db, id: folderId.key) }
            guard current.folderId != folderId else { return current }
            try db.execute(sql: "UPDATE note SET folderId = ? WHERE id = ?", arguments: [folderId?.key, id.key])
            return try Self.finishNoteChange(db, id: id.key, touchedAt: sources.now)
        }
    }

    /// Finds the note whose id starts with `prefix` (case-insensitive, at least one character).
    ///
    /// - Throws: ``NoteTakerError/noteNotFound(_:)``, or
    ///   ``NoteTakerError/ambiguousIdentifier(_:candidates:)`` listing the matches.
    public func resolveNoteId(_ prefix: String) throws(NoteTakerError) -> UUID {
        try read { db in
            let ids = try Self.idsWithPrefix(db, table: "note", labelColumn: "title", prefix: prefix)
            guard let first = ids.first else { throw NoteTakerError.noteNotFound(prefix) }
            guard ids.count == 1 else {
                throw NoteTakerError.ambiguousIdentifier(prefix, candidates: ids.map { "\($0.id.key)  \($0.label)" })
            }
            return first.id
        }
    }
}

extension NoteStore {
    /// The SQL assignments that mark a note as just modified: a new `modifiedAt` (the one
    /// statement argument) and the next search sequence, so the index sees it as newest.
    static let touch = "modifiedAt = ?, searchSeq = (SELECT MAX(searchSeq) + 1 FROM note)"

    /// What a run of inserts in one transaction remembers: folder chains and tags already
    /// looked up.
    struct InsertCache {
        var folderChains: [String: [String]] = [:]
        var tags: [String: Tag] = [:]
    }

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
        let title = try validatedTitle(draft.title)
        let body = try validatedBody(draft.body)
        let tagNames = try draft.tags.map(validatedTagName)
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
        if !checked, try noteExists(db, id) {
            throw NoteTakerError.invalidInput("A note with id \(id) already exists.")
        }

        var tags: [Tag] = []
        for name in tagNames {
            let normalized = Tag.normalizedName(name)
            let tag = try cache.tags[normalized] ?? ensureTag(db, name: name, at: sources.now)
            cache.tags[normalized] = tag
            if !tags.contains(where: { $0.id == tag.id }) { tags.append(tag) }
        }
        let fields = SearchFields(isPinned: draft.isPinned, isTrashed: draft.trashedAt != nil, tags: tags, folderChain: chain)
        try db.cachedStatement(sql: """
            INSERT INTO note (id, title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, searchSeq, tagNames, facets)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT IFNULL(MAX(searchSeq), 0) + 1 FROM note), ?, ?)
            """).execute(arguments: [
                id, title, body, createdAt.storageValue, (draft.modifiedAt ?? createdAt).storageValue,
                draft.isPinned, folderId, draft.trashedAt?.storageValue, fields.tagNames, fields.facets,
            ])
        let link = try db.cachedStatement(sql: "INSERT INTO noteTag (noteId, tagId) VALUES (?, ?)")
        for tag in tags { try link.execute(arguments: [id, tag.id.key]) }
        try Outbox.append(db, .note, id)
        return id
    }

    /// Whether a note (in the trash or not) has this id.
    static func noteExists(_ db: Database, _ id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM note WHERE id = ?"), arguments: [id]) == true
    }

    /// After a change to a note's pin, folder, tags or trash state: refreshes its search
    /// fields (marking it modified at `touchedAt` when given), records it in the outbox, and
    /// returns it as it now is.
    static func finishNoteChange(_ db: Database, id: String, touchedAt: Date? = nil) throws -> Note {
        try SearchFields.refresh(db, noteIds: [id], touchedAt: touchedAt)
        try Outbox.record(db, .note, id)
        return try fetchNote(db, id: id)
    }

    static func fetchNote(_ db: Database, id: String) throws -> Note {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Columns.note) FROM note WHERE id = ?"), arguments: [id]) else {
            throw NoteTakerError.noteNotFound(id)
        }
        var note = Note(row: row)
        note.attachments = try fetchAttachments(db, noteIds: [id])[note.id] ?? []
        return note
    }

    /// The note, refusing one in the trash (it must be restored before it can change).
    static func fetchEditableNote(_ db: Database, id: String) throws -> Note {
        let note = try fetchNote(db, id: id)
        if note.isTrashed { throw NoteTakerError.noteInTrash(id) }
        return note
    }

    static func validatedTitle(_ title: String) throws -> String {
        let singleLine = title.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard singleLine.count <= maximumTitleLength else {
            throw NoteTakerError.invalidInput("A title can be at most \(maximumTitleLength) characters long.")
        }
        return singleLine
    }

    static func validatedBody(_ body: String) throws -> String {
        guard body.utf8.count <= maximumBodySize else {
            throw NoteTakerError.invalidInput("A note body can be at most 10 MB; split it into several notes.")
        }
        return body
    }

    /// Ids (and a label to tell them apart) in `table` that start with `prefix`, at most 10.
    static func idsWithPrefix(_ db: Database, table: String, labelColumn: String, prefix: String) throws -> [(id: UUID, label: String)] {
        let key = prefix.lowercased()
        guard !key.isEmpty, key.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        return try Row.fetchAll(
            db,
            sql: "SELECT id, \(labelColumn) AS label FROM \(table) WHERE id >= ? AND id < ? ORDER BY id LIMIT 10",
            arguments: [key, key + "~"]
        ).compactMap { row in row.uuid("id").map { ($0, row["label"]) } }
    }
}
