import Foundation
import GRDB

/// Tags: unique by name compared case-insensitively; added to and removed from notes,
/// renamed, merged, deleted.
extension NoteStore {
    /// The longest tag name accepted, in characters.
    public static let maximumTagNameLength = 100

    /// Adds tags to a note, creating the tags that do not exist yet.
    public func addTags(_ names: [String], toNote noteId: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            _ = try Self.fetchEditableNote(db, id: noteId.key)
            guard try Self.linkTags(db, names: names, noteId: noteId.key, at: sources.now) else {
                return try Self.fetchNote(db, id: noteId.key)
            }
            return try Self.finishNoteChange(db, id: noteId.key, touchedAt: sources.now)
        }
    }

    /// Removes tags from a note; the tags themselves stay.
    ///
    /// - Throws: ``NoteTakerError/tagNotFound(_:)`` for a name no tag has.
    public func removeTags(_ names: [String], fromNote noteId: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            _ = try Self.fetchEditableNote(db, id: noteId.key)
            var removed = 0
            for name in names {
                let tag = try Self.fetchTag(db, named: name)
                try db.execute(sql: "DELETE FROM noteTag WHERE noteId = ? AND tagId = ?", arguments: [noteId.key, tag.id.key])
                removed += db.changesCount
            }
            guard removed > 0 else { return try Self.fetchNote(db, id: noteId.key) }
            return try Self.finishNoteChange(db, id: noteId.key, touchedAt: sources.now)
        }
    }

    /// Every tag with the number of notes (outside the trash) carrying it, by name.
    public func tags() throws(NoteTakerError) -> [TagSummary] {
        try read { db in try Self.fetchTagSummaries(db) }
    }

    /// Renames a tag. A change of case only keeps the tag; a new name that another tag
    /// already has merges the two; the name it has already changes nothing.
    ///
    /// A change of case goes up as a derived change: a tag is nothing but its name, so its
    /// deletion on another device at the same time wins, as it wins over tagging a note with
    /// it (see Sync.md).
    public func renameTag(_ oldName: String, to newName: String) throws(NoteTakerError) -> Tag {
        try write { db in
            let tag = try Self.fetchTag(db, named: oldName)
            let name = try Self.validatedTagName(newName)
            if name == tag.name { return tag }
            if Tag.normalizedName(name) == Tag.normalizedName(tag.name) {
                try db.execute(sql: "UPDATE tag SET name = ? WHERE id = ?", arguments: [name, tag.id.key])
                try Outbox.record(db, .tag, tag.id.key, derived: true)
                // The notes keep the same tag id: only their search fields change.
                try SearchFields.refresh(db, noteIds: String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [tag.id.key]))
                return try Self.fetchTag(db, named: name)
            }
            // The id derives from the name, so a new name is a new tag that takes the notes.
            let target = try Self.ensureTag(db, name: name, at: sources.now)
            try Self.moveLinks(db, from: tag, to: target)
            return target
        }
    }

    /// Moves every note of tag `source` to tag `target`, then deletes `source`.
    public func mergeTag(_ source: String, into target: String) throws(NoteTakerError) -> Tag {
        try write { db in
            let from = try Self.fetchTag(db, named: source)
            let into = try Self.fetchTag(db, named: target)
            guard from.id != into.id else {
                throw NoteTakerError.invalidInput("'\(source)' and '\(target)' are the same tag.")
            }
            try Self.moveLinks(db, from: from, to: into)
            return into
        }
    }

    /// Deletes a tag; its notes stay, without it.
    public func deleteTag(_ name: String) throws(NoteTakerError) {
        try write { db in
            let tag = try Self.fetchTag(db, named: name)
            let noteIds = try String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [tag.id.key])
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [tag.id.key])
            try Outbox.record(db, .tag, tag.id.key, .delete)
            try Self.refreshNotes(db, ids: noteIds)
        }
    }
}

extension NoteStore {
    static func fetchTag(_ db: Database, named name: String) throws -> Tag {
        guard let tag = try findTag(db, named: name) else { throw NoteTakerError.tagNotFound(name) }
        return tag
    }

    static func findTag(_ db: Database, named name: String) throws -> Tag? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(Columns.tag) FROM tag WHERE normalizedName = ?"),
            arguments: [Tag.normalizedName(name)]
        ).map(Tag.init(row:))
    }

    /// Counts every link, then takes away the links of trashed notes: the trash is small and
    /// indexed, while checking each linked note would read 100,000 rows at 100,000 notes.
    static func fetchTagSummaries(_ db: Database) throws -> [TagSummary] {
        try Row.fetchAll(db, sql: """
            WITH linked AS (SELECT tagId, COUNT(*) AS count FROM noteTag GROUP BY tagId),
                 trashed AS (
                    SELECT noteTag.tagId AS tagId, COUNT(*) AS count
                    FROM note CROSS JOIN noteTag ON noteTag.noteId = note.id
                    WHERE note.trashedAt IS NOT NULL GROUP BY noteTag.tagId)
            SELECT \(Columns.tag), IFNULL(linked.count, 0) - IFNULL(trashed.count, 0) AS noteCount
            FROM tag LEFT JOIN linked ON linked.tagId = tag.id LEFT JOIN trashed ON trashed.tagId = tag.id
            ORDER BY tag.normalizedName
            """).map { TagSummary(tag: Tag(row: $0), noteCount: $0["noteCount"]) }
    }

    static func validatedTagName(_ name: String) throws -> String {
        let folded = name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !folded.isEmpty else { throw NoteTakerError.invalidInput("A tag name cannot be empty.") }
        guard folded.count <= maximumTagNameLength else {
            throw NoteTakerError.invalidInput("A tag name can be at most \(maximumTagNameLength) characters long.")
        }
        return folded
    }

    /// The tag with this name, created (`at`) when missing.
    static func ensureTag(_ db: Database, name: String, at date: Date) throws -> Tag {
        let name = try validatedTagName(name)
        if let existing = try findTag(db, named: name) { return existing }
        let tag = Tag(id: Tag.id(forName: name), name: name, createdAt: date)
        try insertTag(db, tag)
        return tag
    }

    /// Inserts a tag row and its outbox entry (the name is checked by the caller).
    ///
    /// The tag's creation goes up derived: a tag is nothing but its name, and its id follows
    /// from the name, so a device that had not seen a tag makes the same one by tagging a
    /// note. Made so, it must not count as an edit that beats the tag's deletion elsewhere.
    /// Made again after this device saw the tag's deletion, it goes up as the version after
    /// it (``TagTombstones``), and stays (see Sync.md).
    static func insertTag(_ db: Database, _ tag: Tag) throws {
        try db.execute(
            sql: "INSERT INTO tag (id, name, normalizedName, createdAt) VALUES (?, ?, ?, ?)",
            arguments: [tag.id.key, tag.name, Tag.normalizedName(tag.name), tag.createdAt.storageValue])
        try TagTombstones.adopt(db, id: tag.id.key)
        try Outbox.append(db, .tag, tag.id.key, derived: true)
    }

    /// Links the named tags to a note (creating missing tags `at`); returns whether any link
    /// is new. The caller refreshes the note's search fields.
    static func linkTags(_ db: Database, names: [String], noteId: String, at date: Date) throws -> Bool {
        var added = false
        for name in names {
            let tag = try ensureTag(db, name: name, at: date)
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO noteTag (noteId, tagId) VALUES (?, ?)")
                .execute(arguments: [noteId, tag.id.key])
            added = added || db.changesCount > 0
        }
        return added
    }

    /// Gives every note of `source` the tag `target` instead, then deletes `source`.
    static func moveLinks(_ db: Database, from source: Tag, to target: Tag) throws {
        let noteIds = try String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [source.id.key])
        try db.execute(
            sql: "INSERT OR IGNORE INTO noteTag (noteId, tagId) SELECT noteId, ? FROM noteTag WHERE tagId = ?",
            arguments: [target.id.key, source.id.key])
        try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [source.id.key])
        try Outbox.record(db, .tag, source.id.key, .delete)
        try refreshNotes(db, ids: noteIds)
    }

    /// After a change to their tags made from the tag side: reindexes the notes and queues
    /// them for sync (their tag sets changed), without moving their `modifiedAt`.
    static func refreshNotes(_ db: Database, ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try SearchFields.refresh(db, noteIds: ids)
        for id in ids { try Outbox.record(db, .note, id) }
    }
}
