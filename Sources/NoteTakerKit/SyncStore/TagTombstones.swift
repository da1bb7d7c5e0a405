import GRDB
import NoteTakerSyncProtocol

/// The deletions of tags this device has seen on the server, so that a tag made again here
/// goes up as the next version after its deletion.
///
/// A tag's id follows from its name, so a deleted tag is made again by tagging a note with
/// the same name. Made here after this device saw the deletion (applied from the server, or
/// sent from here), the tag goes up against the tombstone's change tag, and the server takes
/// it as the tag's next version. Made here without having seen it, the tag goes up with no
/// base and meets the deletion as a creation made at the same time: the deletion wins, as
/// it wins over tagging a note with the tag at the same time (the creation is derived: see
/// `RecordWriter.insertTag` and Sync.md). A store that requeues everything for another server
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

    /// SQL true when the tag whose id is `id` (an SQL expression) is deleted as far as this
    /// device knows: seen deleted on the server, or its deletion waiting to go up here.
    static func deletedSQL(_ id: String) -> String {
        """
        (EXISTS (SELECT 1 FROM sync_tag_tombstone WHERE id = \(id)) \
        OR EXISTS (SELECT 1 FROM outbox WHERE recordType = 'tag' AND recordId = \(id) AND operation = 'delete'))
        """
    }

    /// Notes that the server holds tag `id` deleted, at `changeTag`.
    static func remember(_ db: Database, id: String, changeTag: String) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_tag_tombstone (id, changeTag) VALUES (?, ?)")
            .execute(arguments: [id, changeTag])
    }

    /// Which of the tags `ids` this device saw deleted on the server after `version`: a
    /// record of that version naming one names it from before the deletion, which took it
    /// off every note.
    static func deleted(_ db: Database, among ids: Set<String>, after version: Int64) throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: """
            SELECT id FROM sync_tag_tombstone WHERE id IN (SELECT value FROM json_each(?)) AND CAST(changeTag AS INTEGER) > ?
            """), arguments: [NoteStore.jsonArray(ids.sorted()), version]))
    }

    /// The server holds tag `id` again: its deletion is no longer the latest version.
    static func forget(_ db: Database, id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_tag_tombstone WHERE id = ?").execute(arguments: [id])
    }

    static func createLateDeletions(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE note ADD COLUMN sentHere INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE sync_tag_deleted_late (
                id TEXT PRIMARY KEY NOT NULL,
                deletion INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)
    }

    /// Notes that tag `id` here is older than its deletion at `deletion`, which this device
    /// never saw (the tag was made again since, hiding it): ``untagLateDeletions(_:)`` carries
    /// it out once this device has caught up with the server.
    static func learnedLate(_ db: Database, id: String, deletion: Int64) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_tag_deleted_late (id, deletion) VALUES (?, ?)
            ON CONFLICT(id) DO UPDATE SET deletion = MAX(deletion, excluded.deletion)
            """).execute(arguments: [id, deletion])
    }

    /// Carries out the deletions learned late: each takes its tag off the notes here, as it
    /// did everywhere else, but for notes tagged again after it. Called when this device has
    /// pulled everything (and before it pushes), so that the notes' versions from after the
    /// deletion are here to tell which: taken off before, a note's merge with a version
    /// tagged again would read the tag as removed here.
    static func untagLateDeletions(_ db: Database) throws {
        let late = try Row.fetchAll(db, sql: "SELECT id, deletion FROM sync_tag_deleted_late")
        guard !late.isEmpty else { return }
        for row in late { try RecordWriter.untagEverywhere(db, row["id"], butTaggedAfter: row["deletion"]) }
        try db.execute(sql: "DELETE FROM sync_tag_deleted_late")
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
