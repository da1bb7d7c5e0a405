import GRDB
import NoteTakerSyncProtocol

/// The version of its old id each tag renamed at a conversion to end-to-end encryption
/// carries (docs/encryption.md §2.4), so that the latest version the server held in plain text
/// wins under the new id.
///
/// A device converting the account, or taking up a conversion another device left unfinished,
/// sends each tag it held under its old id again under its keyed id, as a derived save. Two
/// devices may both send it, from versions of the old id of different ages: one that last
/// synced before another changed the name's case carries the older case, and whichever went
/// up first would stay (the later one, derived too, finds nothing changed here and takes it).
/// So each such save names the change tag of the old id's version it carries
/// (``TagRecord/convertedFrom``), and a device whose tag carries a later version than the one
/// that arrived keeps its own and sends it against it (``keepsLater(_:_:than:)``).
///
/// A tag here carries its old version until it syncs under its new id (``forget(_:_:)``, from
/// ``SyncApply/markSynced(_:_:_:tag:base:baseText:stored:sentHere:)``), or goes.
enum ConvertedTags {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_converted_tag (
                id TEXT PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE ON UPDATE CASCADE,
                oldChangeTag TEXT NOT NULL
            ) WITHOUT ROWID
            """)
    }

    /// At an adoption: tag `id` (its new id) was synced under its old id at `oldChangeTag`.
    static func note(_ db: Database, _ id: String, carrying oldChangeTag: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_converted_tag (id, oldChangeTag) VALUES (?, ?)", arguments: [id, oldChangeTag])
    }

    /// The change tag of the old version tag `id` carries, for a save of it that goes up
    /// derived (a person's edit of it is an edit, merged as any).
    static func carried(_ db: Database, _ id: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT oldChangeTag FROM sync_converted_tag WHERE id = ?"), arguments: [id])
    }

    /// Whether tag `id` here carries a later version of its old id than `arriving`, a version
    /// of it another device's conversion sent: it then stays as it is, based on `arriving`,
    /// and goes up against it (a derived save: an edit made meanwhile elsewhere still wins).
    static func keepsLater(_ db: Database, _ id: String, than arriving: SyncRecord) throws -> Bool {
        guard !arriving.deleted, let theirs = arriving.fields[TagRecord.Field.convertedFrom.rawValue]?.string.flatMap({ Int64($0) }),
              let ours = try carried(db, id).flatMap({ Int64($0) }), ours > theirs
        else { return false }
        try db.execute(sql: "UPDATE tag SET changeTag = ?, syncBase = ?, syncStatus = 'pending' WHERE id = ?",
                       arguments: [arriving.changeTag, arriving.fields.wireJSON, id])
        try Outbox.record(db, .tag, id, derived: true)
        return true
    }

    /// Tag `id` synced under its new id: what it carried is settled.
    static func forget(_ db: Database, _ id: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_converted_tag WHERE id = ?").execute(arguments: [id])
    }

    /// Forgets every tag's (a store starting afresh with an account, or a conversion done).
    static func forgetAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_converted_tag")
    }
}
