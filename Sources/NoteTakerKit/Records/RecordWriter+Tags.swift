import Foundation
import GRDB

/// Tags' rows and their links to notes, as this device changes them.
extension RecordWriter {
    /// The tag with this name, created (`at`) when missing.
    static func ensureTag(_ db: Database, name: String, at date: Date) throws -> Tag {
        let name = try NoteStore.validatedTagName(name)
        if let existing = try NoteStore.findTag(db, named: name) { return existing }
        let tag = Tag(id: try DerivedIdentity.current(db).tagID(name), name: name, createdAt: date)
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
        try deleteRow(db, source)
        try requeue(db, noteIds: noteIds)
    }

    /// Takes tags off a note, by name; returns how many links went. The caller finishes
    /// the note's change (``finishNoteChange(_:id:touchedAt:)``).
    @discardableResult
    static func unlinkTags(_ db: Database, named names: [String], noteId: String) throws -> Int {
        var removed = 0
        for name in names {
            try db.execute(sql: "DELETE FROM noteTag WHERE noteId = ? AND tagId IN (SELECT id FROM tag WHERE normalizedName = ?)",
                           arguments: [noteId, Tag.normalizedName(name)])
            removed += db.changesCount
        }
        return removed
    }

    /// Changes the case of a tag's name only: the notes keep the same tag id, and only their
    /// search fields change.
    ///
    /// It goes up as a derived change: a tag is nothing but its name, so its deletion on
    /// another device at the same time wins, as it wins over tagging a note with it (see Sync.md).
    ///
    /// A tag with no base (made here, not synced yet) keeps what it was made as for its base:
    /// merged with a copy of the same tag made elsewhere meanwhile, the new case then reads as
    /// a change made here, and wins (converting seed 3,000,849).
    static func recase(_ db: Database, tag: Tag, to name: String) throws {
        if let made = try SyncRecords.fields(db, .tag, tag.id.key) {
            try db.execute(sql: "UPDATE tag SET syncBase = ? WHERE id = ? AND syncBase IS NULL", arguments: [made.wireJSON, tag.id.key])
        }
        try db.execute(sql: "UPDATE tag SET name = ? WHERE id = ?", arguments: [name, tag.id.key])
        try Outbox.record(db, .tag, tag.id.key, derived: true)
        try SearchFields.refresh(db, noteIds: String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [tag.id.key]))
    }

    /// Deletes a tag; its notes stay, without it.
    static func deleteTag(_ db: Database, _ tag: Tag) throws {
        let noteIds = try String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [tag.id.key])
        try deleteRow(db, tag)
        try requeue(db, noteIds: noteIds)
    }

    /// Deletes a tag's row, queues its deletion, and keeps its name while the deletion waits
    /// (``RenamedTags``: the tag may have another id on the server by the time it goes up).
    private static func deleteRow(_ db: Database, _ tag: Tag) throws {
        try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [tag.id.key])
        try Outbox.record(db, .tag, tag.id.key, .delete)
        try RenamedTags.deleted(db, id: tag.id.key, name: tag.name)
    }

    /// After a change to their tags made from the tag side: reindexes the notes and queues
    /// them for sync (their tag sets changed), without moving their `modifiedAt`.
    static func requeue(_ db: Database, noteIds ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try SearchFields.refresh(db, noteIds: ids)
        for id in ids { try Outbox.record(db, .note, id) }
    }
}
