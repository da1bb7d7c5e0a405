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
            var cache = RecordWriter.InsertCache()
            let id = try RecordWriter.insertNote(db, draft, cache: &cache, sources: sources)
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
            return try RecordWriter.changeText(db, of: current, title: title, body: body, at: sources.now) ?? current
        }
    }

    /// Pins or unpins a note.
    public func setPinned(_ isPinned: Bool, noteId: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: noteId.key)
            guard current.isPinned != isPinned else { return current }
            try RecordWriter.setPinned(db, noteId: noteId.key, isPinned)
            return try RecordWriter.finishNoteChange(db, id: noteId.key, touchedAt: sources.now)
        }
    }

    /// Files a note in a folder, or takes it out of any folder when `folderId` is `nil`.
    public func moveNote(id: UUID, toFolder folderId: UUID?) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: id.key)
            if let folderId { _ = try Self.fetchFolder(db, id: folderId.key) }
            guard current.folderId != folderId else { return current }
            try RecordWriter.setFolder(db, noteId: id.key, folderId?.key)
            return try RecordWriter.finishNoteChange(db, id: id.key, touchedAt: sources.now)
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
    /// Whether a note (in the trash or not) has this id.
    static func noteExists(_ db: Database, _ id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM note WHERE id = ?"), arguments: [id]) == true
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
            throw NoteTakerError.invalidInput(Wording("titleTooLong", ["maximum": maximumTitleLength]))
        }
        return singleLine
    }

    static func validatedBody(_ body: String) throws -> String {
        guard body.utf8.count <= maximumBodySize else {
            throw NoteTakerError.invalidInput(Wording("bodyTooLarge"))
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
