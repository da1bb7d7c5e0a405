import Crypto
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
///
/// Like a synced note's base (``SyncBase``), it costs no second copy of the note while the
/// note is as the source said it: the row then holds only the source's digest, and the note
/// as stored is the base. Triggers copy the note into the row before its first change here
/// (its text, pin or folder, a tag linked or unlinked: renaming a tag moves its links; only a
/// change of case, which a base does not tell apart, keeps them), so that no write path can
/// change such a note and lose its base.
enum ImportBases {
    /// A note as its source said it.
    struct Base: Equatable {
        var title: String
        var body: String
        /// The tags' names, as the store writes them (one line each).
        var tags: [String]
        var isPinned: Bool
        var folderId: String?

        init(title: String, body: String, tags: [String], isPinned: Bool, folderId: String?) {
            self.title = title
            self.body = body
            self.tags = tags
            self.isPinned = isPinned
            self.folderId = folderId
        }

        /// A base row's columns, when it holds the version (`title` not NULL).
        init?(row: Row) {
            guard let title: String = row["title"] else { return nil }
            self.init(title: title, body: row["body"] ?? "", tags: ((row["tags"] as String?) ?? "").split(separator: "\n").map(String.init),
                      isPinned: row["isPinned"] ?? false, folderId: row["folderId"])
        }

        /// The version `draft` says, its title and tags as the store writes them.
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

        /// Whether `other` says the same: tags compared as a set of names as the store
        /// tells them apart.
        func says(_ other: Base) -> Bool {
            title == other.title && body == other.body && isPinned == other.isPinned && folderId == other.folderId && sameTags(as: other)
        }

        /// Whether `other` has the same tags, as the store tells names apart.
        func sameTags(as other: Base) -> Bool {
            Set(tags.map(Tag.normalizedName)) == Set(other.tags.map(Tag.normalizedName))
        }

        /// SHA-256 of the version, each field preceded by its length: what the row keeps of it.
        /// The tags as the source writes them, in order (not normalized, which costs more than
        /// the rest: a source that changes a tag's case changes its notes, to no effect here).
        var digest: Data {
            var hasher = SHA256()
            let tagNames = Set(tags).sorted().joined(separator: "\n")
            for var field in [title, body, tagNames, isPinned ? "pinned" : "", folderId ?? ""] {
                withUnsafeBytes(of: UInt64(field.utf8.count).bigEndian) { hasher.update(bufferPointer: $0) }
                field.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            }
            return Data(hasher.finalize())
        }
    }

    /// The note's columns and tags as a base row holds them, for the triggers (`id`: the note's id).
    private static func noteAsBase(_ id: String) -> String {
        """
        SELECT title, body,
               IFNULL((SELECT group_concat(tag.name, char(10)) FROM noteTag JOIN tag ON tag.id = noteTag.tagId WHERE noteTag.noteId = note.id), ''),
               isPinned, folderId
        FROM note WHERE note.id = \(id)
        """
    }

    /// Copies the note `id` into its row when the row holds only a digest.
    private static func capture(_ id: String) -> String {
        "UPDATE import_base SET (title, body, tags, isPinned, folderId) = (\(noteAsBase(id))) WHERE noteId = \(id) AND title IS NULL;"
    }

    /// Whether note `id` has a row holding only a digest.
    private static func waiting(_ id: String) -> String {
        "EXISTS (SELECT 1 FROM import_base WHERE noteId = \(id) AND title IS NULL)"
    }

    /// The table as version 25 made it: every base whole (``keepDigests(_:)`` replaces it).
    static func createWhole(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE import_base (
                noteId TEXT PRIMARY KEY NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                title TEXT NOT NULL, body TEXT NOT NULL, tags TEXT NOT NULL, isPinned INTEGER NOT NULL, folderId TEXT
            )
            """)
    }

    /// Replaces version 25's table with digests and the triggers, each base it kept kept whole.
    static func keepDigests(_ db: Database) throws {
        let kept = try Row.fetchAll(db, sql: "SELECT noteId, title, body, tags, isPinned, folderId FROM import_base")
        try db.execute(sql: "DROP TABLE import_base")
        try create(db)
        for row in kept {
            guard let base = Base(row: row) else { continue }
            try save(db, noteId: row["noteId"], base, noteIsSource: false)
        }
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            -- title … folderId are NULL while the note as stored is the source's version.
            CREATE TABLE import_base (
                noteId TEXT PRIMARY KEY NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                digest BLOB NOT NULL,
                title TEXT,
                body TEXT,
                tags TEXT, -- one name a line
                isPinned INTEGER,
                folderId TEXT
            );

            CREATE TRIGGER import_base_edited BEFORE UPDATE OF title, body, isPinned, folderId ON note
            WHEN \(waiting("OLD.id")) BEGIN \(capture("OLD.id")) END;
            CREATE TRIGGER import_base_tag_added BEFORE INSERT ON noteTag
            WHEN \(waiting("NEW.noteId")) BEGIN \(capture("NEW.noteId")) END;
            CREATE TRIGGER import_base_tag_removed BEFORE DELETE ON noteTag
            WHEN \(waiting("OLD.noteId")) BEGIN \(capture("OLD.noteId")) END;
            """)
    }

    /// What the source last said of note `noteId`: its digest, and the version itself when
    /// the note has changed since (`nil`: the note as stored is that version); `nil` when the
    /// note was not imported from a source that names it.
    static func fetch(_ db: Database, noteId: String) throws -> (digest: Data, base: Base?)? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT digest, title, body, tags, isPinned, folderId FROM import_base WHERE noteId = ?"), arguments: [noteId])
        else { return nil }
        return (row["digest"], Base(row: row))
    }

    /// Keeps `source` as what the source last said of note `noteId`: its digest alone when
    /// the note is that version now (`noteIsSource`), else the version itself.
    static func save(_ db: Database, noteId: String, _ source: Base, noteIsSource: Bool) throws {
        let kept: Base? = noteIsSource ? nil : source
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO import_base (noteId, digest, title, body, tags, isPinned, folderId) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                noteId, source.digest, kept?.title, kept?.body, kept.map { $0.tags.joined(separator: "\n") }, kept?.isPinned, kept?.folderId,
            ])
    }
}
