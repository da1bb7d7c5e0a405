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
            guard try RecordWriter.linkTags(db, names: names, noteId: noteId.key, at: sources.now) else {
                return try Self.fetchNote(db, id: noteId.key)
            }
            return try RecordWriter.finishNoteChange(db, id: noteId.key, touchedAt: sources.now)
        }
    }

    /// Removes tags from a note; the tags themselves stay.
    ///
    /// - Throws: ``NoteTakerError/tagNotFound(_:)`` for a name no tag has.
    public func removeTags(_ names: [String], fromNote noteId: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            _ = try Self.fetchEditableNote(db, id: noteId.key)
            let tags = try names.map { name throws in try Self.fetchTag(db, named: name) }
            guard try RecordWriter.unlinkTags(db, named: tags.map(\.name), noteId: noteId.key) > 0 else {
                return try Self.fetchNote(db, id: noteId.key)
            }
            return try RecordWriter.finishNoteChange(db, id: noteId.key, touchedAt: sources.now)
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
                try RecordWriter.recase(db, tag: tag, to: name)
                return try Self.fetchTag(db, named: name)
            }
            // The id derives from the name, so a new name is a new tag that takes the notes.
            let target = try RecordWriter.ensureTag(db, name: name, at: sources.now)
            try RecordWriter.moveLinks(db, from: tag, to: target)
            return target
        }
    }

    /// Moves every note of tag `source` to tag `target`, then deletes `source`.
    public func mergeTag(_ source: String, into target: String) throws(NoteTakerError) -> Tag {
        try write { db in
            let from = try Self.fetchTag(db, named: source)
            let into = try Self.fetchTag(db, named: target)
            guard from.id != into.id else {
                throw NoteTakerError.invalidInput(Wording("sameTag", ["source": source, "target": target]))
            }
            try RecordWriter.moveLinks(db, from: from, to: into)
            return into
        }
    }

    /// Deletes a tag; its notes stay, without it.
    public func deleteTag(_ name: String) throws(NoteTakerError) {
        try write { db in
            try RecordWriter.deleteTag(db, try Self.fetchTag(db, named: name))
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
        guard !folded.isEmpty else { throw NoteTakerError.invalidInput(Wording("tagNameEmpty")) }
        guard folded.count <= maximumTagNameLength else {
            throw NoteTakerError.invalidInput(Wording("tagNameTooLong", ["maximum": maximumTagNameLength]))
        }
        return folded
    }
}
