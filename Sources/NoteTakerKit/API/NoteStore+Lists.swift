import Foundation
import GRDB

/// The lists of notes: everything, pinned, recent, by folder, by tag — one page at a time.
extension NoteStore {
    /// The largest page a list returns.
    public static let maximumPageSize = 1_000

    /// One page of notes: pinned first, then the most recently modified.
    public func notes(_ query: NoteQuery = NoteQuery()) throws(NoteTakerError) -> [Note] {
        try read { db in try Self.fetchNotes(db, query, now: sources.now) }
    }

    /// One page of the trash, most recently trashed first.
    public func trashedNotes(limit: Int = 50, offset: Int = 0) throws(NoteTakerError) -> [Note] {
        try read { db in
            let page = try Self.validatedPage(limit: limit, offset: offset)
            return try Self.fetchNotes(
                db,
                sql: "SELECT \(Columns.note) FROM note WHERE trashedAt IS NOT NULL ORDER BY trashedAt DESC, rowid DESC LIMIT ? OFFSET ?",
                arguments: [page.limit, page.offset])
        }
    }

    /// One page of the list `query` asks for; "recent" counts back from `now`.
    static func fetchNotes(_ db: Database, _ query: NoteQuery, now: Date) throws -> [Note] {
        let page = try validatedPage(limit: query.limit, offset: query.offset)
        var joins = ""
        var conditions = ["note.trashedAt IS NULL"]
        var arguments: StatementArguments = []
        if let tag = query.tag {
            joins = "JOIN noteTag ON noteTag.noteId = note.id"
            conditions.append("noteTag.tagId = ?")
            arguments += [try fetchTag(db, named: tag).id.key]
        }
        if let folderId = query.folderId {
            _ = try fetchFolder(db, id: folderId.key)
            if query.includeSubfolders {
                conditions.append("note.folderId IN (\(folderSubtreeSQL))")
            } else {
                conditions.append("note.folderId = ?")
            }
            arguments += [folderId.key]
        }
        if query.pinnedOnly {
            conditions.append("note.isPinned")
        }
        if query.recentOnly {
            conditions.append("note.modifiedAt >= ?")
            arguments += [now.addingTimeInterval(-NoteQuery.recentInterval).storageValue]
        }
        arguments += [page.limit, page.offset]
        return try fetchNotes(
            db,
            sql: """
                SELECT \(Columns.note) FROM note \(joins)
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY note.isPinned DESC, \(query.order.sql)
                LIMIT ? OFFSET ?
                """,
            arguments: arguments)
    }

    /// Runs a query selecting `Columns.note` and fills in each note's attachments.
    static func fetchNotes(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Note] {
        var notes = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(Note.init(row:))
        try fillAttachments(db, &notes)
        return notes
    }

    /// Loads the attachments of all `notes` in one query.
    static func fillAttachments(_ db: Database, _ notes: inout [Note]) throws {
        guard !notes.isEmpty else { return }
        let attachments = try fetchAttachments(db, noteIds: notes.map(\.id.key))
        guard !attachments.isEmpty else { return }
        for index in notes.indices {
            notes[index].attachments = attachments[notes[index].id] ?? []
        }
    }

    static func validatedPage(limit: Int, offset: Int) throws -> (limit: Int, offset: Int) {
        guard (1...maximumPageSize).contains(limit) else {
            throw NoteTakerError.invalidInput(Wording("pageSizeOutOfRange", ["maximum": maximumPageSize, "given": limit]))
        }
        guard offset >= 0 else {
            throw NoteTakerError.invalidInput(Wording("offsetNegative", ["given": offset]))
        }
        return (limit, offset)
    }
}

extension NoteQuery.Order {
    /// The `ORDER BY` terms after the pinned notes.
    var sql: String {
        switch self {
        case .modified: "note.modifiedAt DESC"
        case .created: "note.createdAt DESC"
        case .title: "note.title COLLATE NOCASE ASC"
        }
    }
}
