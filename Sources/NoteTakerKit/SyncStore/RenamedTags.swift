import GRDB

/// The tags whose ids changed when this device adopted its account's keyed ids, at a conversion
/// to end-to-end encryption (``DerivedIdentity/Adoption``), and what became of them on the server.
///
/// **Following** another device's conversion: the converting device sent every tag it held
/// under its new id and deleted the old ids, so once this device has fetched everything since
/// (the conversion comes after the last sync it made under the old ids), the server's version
/// of each tag it renamed has arrived, and crossed it off here. A tag not crossed off was
/// deleted on the server before the conversion (renamed, merged or deleted by another device):
/// it is deleted here too, as that deletion would have been under its old id, unless it was
/// edited here since (an edit outranks a deletion). A change the software made on its own
/// (derived) yields.
///
/// **Converting**, or taking up a conversion another device began and left unfinished: another
/// device may or may not have sent a tag under its new id, and the tag may have been deleted
/// since this device last synced. So a tag the server held under its old id goes up under its
/// new id only once this device has fetched everything: not when the new id arrived meanwhile
/// (the other device sent it; the old id's deletion still goes up), nor when the old id's
/// deletion arrived in plain text (deleted elsewhere before the conversion: it is deleted here
/// too, unless edited here since).
///
/// **Deleted here** (deleted, renamed or merged away) with the deletion not gone up yet: the
/// deletion goes up under the old id, which misses the tag the server holds under its new id.
/// The name of each tag deleted here is kept while its deletion waits, and at the adoption its
/// new id is noted: when the server's version of it arrives, the tag is deleted again here and
/// the deletion goes up, against that version, as the person's deletion of it. When it has not
/// arrived once this device has fetched everything, the deletion of the new id goes up all the
/// same: a device taking the conversion up may send the tag later, as a change of its own that
/// yields to it.
enum RenamedTags {
    /// Whether the server still holds, under its old id, a tag whose new id has not arrived
    /// here (and that is not deleted here or seen deleted): the device that held it has yet to
    /// send it there. A conversion's last step waits for it: taken now, it would delete the old
    /// id with nothing in its place, and the devices following the conversion would delete the
    /// tag from their notes (converting seed 3,001,062: a device taking the conversion up, that
    /// never held the tag, finished the conversion before the converting device sent it).
    static func waitsForHeldTags(_ db: Database) throws -> Bool {
        let names = try SyncQuarantine.plaintextTagNames(db)
        guard !names.isEmpty else { return false }
        let identity = try DerivedIdentity.current(db)
        guard identity.keyed != nil else { return false }
        for name in names {
            let id = identity.tagID(name).key
            let settled = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM tag WHERE id = ?1) OR \(TagTombstones.deletedSQL("?1"))
                """, arguments: [id]) ?? false
            if !settled { return true }
        }
        return false
    }

    /// What became of a renamed tag, as noted at the adoption.
    enum Kind: Int {
        case following = 0, deletedHere = 1, converting = 2

        /// Whether this device held the tag, under its old id, from before any deletion of its
        /// new id: a deletion the tag's record names when it arrives made again over it
        /// (``TagRecord/replaces``) is one this device never saw.
        var heldFromBefore: Bool { self != .deletedHere }
    }

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

    /// The old id of a tag taken up, and whether its deletion arrived (v30).
    static func addOldIDs(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE sync_renamed_tag RENAME COLUMN deletedHere TO kind;
            ALTER TABLE sync_renamed_tag ADD COLUMN oldId TEXT;
            ALTER TABLE sync_renamed_tag ADD COLUMN oldDeleted INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX sync_renamed_tag_old ON sync_renamed_tag (oldId) WHERE oldId IS NOT NULL;
            """)
    }

    /// Keeps the name of tag `id`, deleted here, while its deletion waits to go up.
    static func deleted(_ db: Database, id: String, name: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_deleted_tag_name (id, name) VALUES (?, ?)", arguments: [id, name])
    }

    /// At an adoption of `identity`: notes the new id of each tag deleted here whose deletion
    /// waits, unless a tag of that name was made here again since. Returns them by old id.
    static func noteDeletions(_ db: Database, under identity: DerivedIdentity) throws -> [String: String] {
        let waiting = try Row.fetchAll(db, sql: """
            SELECT d.id, d.name FROM sync_deleted_tag_name d
            JOIN outbox o ON o.recordType = 'tag' AND o.recordId = d.id AND o.operation = 'delete'
            """)
        var noted: [String: String] = [:]
        for row in waiting {
            let (old, new): (String, String) = (row["id"], identity.tagID(row["name"]).key)
            let madeAgain = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tag WHERE id = ?)", arguments: [new]) ?? false
            guard new != old, !madeAgain else { continue }
            try note(db, new, .deletedHere)
            noted[old] = new
        }
        return noted
    }

    /// Notes that tag `id`, named so now, was held by the server under `oldId`.
    static func note(_ db: Database, _ id: String, _ kind: Kind, oldId: String? = nil) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_renamed_tag (id, kind, oldId) VALUES (?, ?, ?)", arguments: [id, kind.rawValue, oldId])
    }

    /// Notes the old id of each tag taken up as not listed yet, as a listing of everything
    /// after a purge begins (``NoteStore/adoptPurgedTombstones()``): its deletion may be
    /// among those purged.
    static func noteUnlisted(_ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO sync_unlisted (recordType, recordId) SELECT 'tag', oldId FROM sync_renamed_tag WHERE oldId IS NOT NULL")
    }

    /// As that listing ends: a tag taken up whose old id the server did not list was deleted
    /// there (its deletion purged since), as if that deletion had arrived.
    static func crossOffUnlisted(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE sync_renamed_tag SET oldDeleted = 1
            WHERE oldId IN (SELECT recordId FROM sync_unlisted WHERE recordType = 'tag')
            """)
    }

    /// Forgets every such tag (a store starting afresh with an account).
    static func forgetAll(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_renamed_tag")
        try db.execute(sql: "DELETE FROM sync_deleted_tag_name")
    }

    /// A version of tag `id` arrived from the server (`deleted`: its deletion; `sealed`: one
    /// a device sealed). Returns what became of the tag, if it was renamed here: `.deletedHere`,
    /// it was deleted here under its old id (its caller deletes it again).
    ///
    /// Only a deletion in plain text deletes a tag taken up: made before the conversion, by a
    /// person. A sealed deletion of an old id is a rename (a device converting, or taking the
    /// conversion up, sends the tag under its new id in a batch of its own, which may arrive
    /// later); a person's deletion sealed names the new id too (``settle(_:)``). But in a
    /// listing after a purge, any deletion of an old id counts, as an old id the listing does
    /// not hold does (``crossOffUnlisted(_:)``): the listing holds the rename's save under the
    /// new id, which crosses the tag off, unless that was deleted since and its tombstone
    /// purged, as a person's deletion of the new id may have been (converting seed 3,008,687).
    static func arrived(_ db: Database, id: String, deleted: Bool, sealed: Bool = false) throws -> Kind? {
        if deleted, try !sealed || SyncState.get(db, .listingAfterPurge) != nil {
            try db.cachedStatement(sql: "UPDATE sync_renamed_tag SET oldDeleted = 1 WHERE oldId = ?").execute(arguments: [id])
        }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "DELETE FROM sync_renamed_tag WHERE id = ? RETURNING kind, oldId"),
                                         arguments: [id]) else { return nil }
        if row["kind"] == Kind.converting.rawValue, let old: String = row["oldId"] {
            // Sent under its new id by the device that began the conversion: the old id goes.
            try Outbox.append(db, .tag, old, .delete)
        }
        return Kind(rawValue: row["kind"])
    }

    /// Once this device has fetched everything: deletes here each tag renamed following a
    /// conversion that the server did not send, and each taken up whose old id was deleted,
    /// with no edit of it waiting; sends the other tags taken up under their new ids (and the
    /// old ids' deletions), and the deletions of tags deleted here whose new id has not
    /// arrived; then forgets them all, and the names of tags whose deletion went up.
    /// Returns how many tags it deleted here.
    static func settle(_ db: Database) throws -> Int {
        // A tag this device synced under its new id since arrived, though no fetch brought it:
        // a push's answer held the server's version (the same as the one sent), and a fetch
        // then skips it as this device's own.
        for id in try String.fetchAll(db, sql: """
            SELECT r.id FROM sync_renamed_tag r JOIN tag t ON t.id = r.id
            WHERE t.changeTag IS NOT NULL AND r.kind <> \(Kind.deletedHere.rawValue)
            """) {
            _ = try arrived(db, id: id, deleted: false)
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.id, r.kind, r.oldId, r.oldDeleted, \(Outbox.waitsSQL(type: "'tag'", id: "r.id", editsOnly: true)) AS edited
            FROM sync_renamed_tag r JOIN tag t ON t.id = r.id
            """)
        var deleted = 0
        for row in rows {
            let (id, kind, edited, oldDeleted): (String, Kind?, Bool, Bool) = (row["id"], Kind(rawValue: row["kind"]), row["edited"], row["oldDeleted"])
            guard kind != .deletedHere else { continue }
            if !edited, kind == .following || oldDeleted {
                try Outbox.remove(db, .tag, id)
                _ = try RecordWriter.deleteFromServer(db, .tag, id)
                deleted += 1
            } else if kind == .converting, !oldDeleted {
                try Outbox.record(db, .tag, id, derived: true)
                if let old: String = row["oldId"] { try Outbox.append(db, .tag, old, .delete) }
            }
        }
        // Deleted here, and not on the server under its new id: a device taking the conversion
        // up may still send it there (its own tags go up once it has fetched everything). The
        // deletion goes up now, so that such a save meets it and yields, as the software's own.
        for id in try String.fetchAll(db, sql: """
            SELECT r.id FROM sync_renamed_tag r
            WHERE r.kind = \(Kind.deletedHere.rawValue) AND r.id NOT IN (SELECT id FROM tag)
              AND NOT \(Outbox.waitsSQL(type: "'tag'", id: "r.id"))
            """) {
            try Outbox.append(db, .tag, id, .delete)
        }
        try db.execute(sql: "DELETE FROM sync_renamed_tag")
        try db.execute(sql: """
            DELETE FROM sync_deleted_tag_name
            WHERE id NOT IN (SELECT recordId FROM outbox WHERE recordType = 'tag' AND operation = 'delete')
            """)
        return deleted
    }
}
