import GRDB

/// The tags whose ids changed when this device adopted its account's keyed ids, at a conversion
/// to end-to-end encryption (``DerivedIdentity/Adoption``), and what became of them on the server.
///
/// **Tags held here**, following a conversion made on another device: the converting device
/// sent every tag it held under its new id and deleted the old ids, so once this device has
/// fetched everything since (the conversion comes after the last sync it made under the old
/// ids), the server's version of each such tag has arrived, and crossed it off here. A tag
/// not crossed off was deleted on the server before the conversion (renamed, merged or deleted
/// by another device): it is deleted here too, as that deletion would have been under its old
/// id, unless it was edited here since (an edit outranks a deletion). A change the software
/// made on its own (derived) yields.
///
/// **Tags deleted here** whose deletion had not gone up yet (deleted, renamed or merged away):
/// their deletion goes up under the old id, which the converting device deleted already, so
/// it would miss the tag the server now holds under its new id. The name of each tag deleted
/// here is kept while its deletion waits, and at the adoption its new id is noted: when the
/// server's version of it arrives, the tag is deleted again here and the deletion goes up,
/// against that version, as the person's deletion of it.
enum RenamedTags {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_renamed_tag (
                id TEXT PRIMARY KEY NOT NULL,
                deletedHere INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE sync_deleted_tag_name (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL
            ) WITHOUT ROWID;
            """)
    }

    /// Keeps the name of tag `id`, deleted here, while its deletion waits to go up.
    static func deleted(_ db: Database, id: String, name: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_deleted_tag_name (id, name) VALUES (?, ?)", arguments: [id, name])
    }

    /// At an adoption of `identity`: notes the new id of each tag deleted here whose deletion
    /// waits, unless a tag of that name was made here again since.
    static func noteDeletions(_ db: Database, under identity: DerivedIdentity) throws {
        let waiting = try Row.fetchAll(db, sql: """
            SELECT d.id, d.name FROM sync_deleted_tag_name d
            JOIN outbox o ON o.recordType = 'tag' AND o.recordId = d.id AND o.operation = 'delete'
            """)
        for row in waiting {
            let new = identity.tagID(row["name"]).key
            let madeAgain = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tag WHERE id = ?)", arguments: [new]) ?? false
            guard new != row["id"], !madeAgain else { continue }
            try db.execute(sql: "INSERT OR REPLACE INTO sync_renamed_tag (id, deletedHere) VALUES (?, 1)", arguments: [new])
        }
    }

    /// Notes that tag `id`, named so now, was held by the server under its old id.
    static func renamed(_ db: Database, to id: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_renamed_tag (id, deletedHere) VALUES (?, 0)", arguments: [id])
    }

    /// Forgets every such tag (a store starting afresh with an account).
    static func forgetAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_renamed_tag")
        try db.execute(sql: "DELETE FROM sync_deleted_tag_name")
    }

    /// A version of tag `id` arrived from the server: the server holds it under its new id.
    /// Returns whether it was deleted here under its old id (its caller deletes it again).
    static func arrived(_ db: Database, id: String) throws -> Bool {
        let deletedHere = try Bool.fetchOne(db.cachedStatement(sql: "DELETE FROM sync_renamed_tag WHERE id = ? RETURNING deletedHere"),
                                            arguments: [id])
        return deletedHere == true
    }

    /// Once this device has fetched everything: deletes here each renamed tag the server did
    /// not send, with no edit of it waiting, and forgets them all, and the names of tags whose
    /// deletion went up. Returns how many tags it deleted.
    static func deleteUnheld(_ db: Database) throws -> Int {
        let unheld = try String.fetchAll(db, sql: """
            SELECT r.id FROM sync_renamed_tag r JOIN tag t ON t.id = r.id
            WHERE NOT r.deletedHere AND NOT \(Outbox.waitsSQL(type: "'tag'", id: "r.id", editsOnly: true))
            """)
        for id in unheld {
            try Outbox.remove(db, .tag, id)
            _ = try RecordWriter.deleteFromServer(db, .tag, id)
        }
        try db.execute(sql: "DELETE FROM sync_renamed_tag")
        try db.execute(sql: """
            DELETE FROM sync_deleted_tag_name
            WHERE id NOT IN (SELECT recordId FROM outbox WHERE recordType = 'tag' AND operation = 'delete')
            """)
        return unheld.count
    }
}
