import Foundation
import GRDB

/// What a source last said of each note imported from it (its title, body, tags, pin and
/// folder), kept for notes whose id names them in the source (``NoteImport/followsSource``):
/// the base a newer export of that source is merged from.
///
/// A later import of the note compares the source's version with this base: the same →
/// nothing to do; changed there → the changes go through the one edit path, merged with
/// whatever changed here since (``NoteStore/change(_:_:_:movedOn:sources:)``). Kept on this
/// device only, never synced (another device's import has its own), and gone with its note.
enum ImportBases {
    /// A note as its source said it.
    struct Base: Equatable {
        var title: String
        var body: String
        /// The tags' names, as the store writes them (one line each).
        var tags: [String]
        var isPinned: Bool
        var folderId: String?

        /// The version `draft` says, its title as the store writes it.
        init(_ draft: NoteDraft) throws {
            title = try NoteStore.validatedTitle(draft.title)
            body = draft.body
            tags = try draft.tags.map(NoteStore.validatedTagName)
            isPinned = draft.isPinned
            folderId = draft.folderId?.key
        }

        /// The note as it is here.
        init(_ note: Note) {
            title = note.title
            body = note.body
            tags = note.tags
            isPinned = note.isPinned
            folderId = note.folderId?.key
        }

        init(row: Row) {
            title = row["title"]
            body = row["body"]
            tags = (row["tags"] as String).split(separator: "\n").map(String.init)
            isPinned = row["isPinned"]
            folderId = row["folderId"]
        }

        /// Whether `other` says the same: tags compared as a set of names as the store
        /// tells them apart.
        func says(_ other: Base) -> Bool {
            title == other.title && body == other.body && isPinned == other.isPinned && folderId == other.folderId && sameTags(as: other)
        }

        /// Whether `other` has the same tags, as the store tells names apart.
        func sameTags(as other: Base) -> Bool {
            Set(tags.map(Tag.normalizedName)) == Set(other.tags.map(Tag.normalizedName))
        }
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE import_base (
                noteId TEXT PRIMARY KEY NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                tags TEXT NOT NULL, -- one name a line
                isPinned INTEGER NOT NULL,
                folderId TEXT
            )
            """)
    }

    /// The base of note `noteId`, when it was imported from a source that names it.
    static func fetch(_ db: Database, noteId: String) throws -> Base? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT title, body, tags, isPinned, folderId FROM import_base WHERE noteId = ?"),
                         arguments: [noteId]).map(Base.init(row:))
    }

    /// Keeps `base` as what the source last said of note `noteId`.
    static func save(_ db: Database, noteId: String, _ base: Base) throws {
        let tags = base.tags.joined(separator: "\n")
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO import_base (noteId, title, body, tags, isPinned, folderId) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [noteId, base.title, base.body, tags, base.isPinned, base.folderId])
    }
}
