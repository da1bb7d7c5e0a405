import GRDB

/// The deletions of tags this device has seen on the server, so that a tag made again here
/// goes up as the next version after its deletion.
///
/// A tag's id follows from its name, so a deleted tag is made again by tagging a note with
/// the same name. Made here after this device saw the deletion (applied from the server, or
/// sent from here), the tag goes up against the tombstone's change tag, and the server takes
/// it as the tag's next version. Made here without having seen it, the tag goes up with no
/// base and meets the deletion as a creation made at the same time: the deletion wins, as
/// it wins over tagging a note with the tag at the same time (the creation is derived: see
/// `NoteStore.insertTag` and Sync.md). A store that requeues everything for another server
/// forgets them.
enum TagTombstones {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_tag_tombstone (
                id TEXT PRIMARY KEY NOT NULL,
                changeTag TEXT NOT NULL
            ) WITHOUT ROWID
            """)
    }

    /// Notes that the server holds tag `id` deleted, at `changeTag`.
    static func remember(_ db: Database, id: String, changeTag: String) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_tag_tombstone (id, changeTag) VALUES (?, ?)")
            .execute(arguments: [id, changeTag])
    }

    /// The server holds tag `id` again: its deletion is no longer the latest version.
    static func forget(_ db: Database, id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_tag_tombstone WHERE id = ?").execute(arguments: [id])
    }

    /// Gives tag `id`, just made here, the change tag of its deletion, when this device saw
    /// one. Until the tag is synced past it, its record names that deletion
    /// (``TagRecord/replaces``): a device that had the tag from before, and never saw the
    /// deletion (the tag made again hides it), takes it off its notes first.
    static func adopt(_ db: Database, id: String) throws {
        guard let changeTag = try String.fetchOne(
            db.cachedStatement(sql: "SELECT changeTag FROM sync_tag_tombstone WHERE id = ?"), arguments: [id])
        else { return }
        try db.cachedStatement(sql: "UPDATE tag SET changeTag = ? WHERE id = ?").execute(arguments: [changeTag, id])
    }
}
