import GRDB
import NoteTakerSyncProtocol

/// References in synced records to folders and tags this device has not received yet.
///
/// Another device can add a tag it just created to a note, or move a note into a new
/// folder, and this device can see the note before the tag or folder — when it merges its
/// own edit with the server's copy during a push, before it has pulled. Such a reference is
/// kept here, never dropped (so is a folder's parent that would close a cycle: see
/// ``FolderCycles``):
///
/// - it is part of the record this device sends up (``SyncRecords/fields(_:_:_:)`` adds it),
///   so no device pushes a reduced record back as the truth;
/// - it is resolved when the target arrives (the tag is linked, the note or folder moved);
/// - it is dropped when the target is deleted (the holder then goes up without it, as for
///   any deleted tag or folder), or when the property is changed here: moving a note
///   or folder replaces its pending folder (triggers in ``create(_:)``), and purging the
///   holder removes its references.
enum UnresolvedReferences {
    /// A property that refers to another record.
    enum Property: String {
        /// A note's folder.
        case folder
        /// A note's tags.
        case tags
        /// A folder's parent folder.
        case parent

        /// The property's name in the holder's record (and in the store's `sync_reference`).
        var rawValue: String {
            switch self {
            case .folder: NoteRecord.Field.folderId.rawValue
            case .tags: NoteRecord.Field.tagIds.rawValue
            case .parent: FolderRecord.Field.parentId.rawValue
            }
        }

        /// The type of the record that holds the property.
        var holder: RecordType { self == .parent ? .folder : .note }
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_reference (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                property TEXT NOT NULL,
                targetId TEXT NOT NULL,
                PRIMARY KEY (recordType, recordId, property, targetId)
            ) WITHOUT ROWID;
            CREATE INDEX sync_reference_target ON sync_reference(targetId);

            -- Attachments that arrived before their note: applied when it arrives, dropped
            -- when its deletion does.
            CREATE TABLE sync_waiting (
                recordId TEXT PRIMARY KEY NOT NULL,
                noteId TEXT NOT NULL,
                changeTag TEXT NOT NULL,
                fields TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX sync_waiting_note ON sync_waiting(noteId);

            CREATE TRIGGER note_folder_reference AFTER UPDATE OF folderId ON note BEGIN
                DELETE FROM sync_reference WHERE recordType = 'note' AND recordId = new.id AND property = 'folderId';
            END;
            CREATE TRIGGER folder_parent_reference AFTER UPDATE OF parentId ON folder BEGIN
                DELETE FROM sync_reference WHERE recordType = 'folder' AND recordId = new.id AND property = 'parentId';
            END;
            CREATE TRIGGER note_references_deleted AFTER DELETE ON note BEGIN
                DELETE FROM sync_reference WHERE recordType = 'note' AND recordId = old.id;
            END;
            CREATE TRIGGER folder_references_deleted AFTER DELETE ON folder BEGIN
                DELETE FROM sync_reference WHERE recordType = 'folder' AND recordId = old.id;
            END;
            """)
    }

    /// Keeps references of `holder` that could not be resolved (after the holder's row was written).
    static func keep(_ db: Database, _ property: Property, of holder: String, targets: some Sequence<String>) throws {
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO sync_reference (recordType, recordId, property, targetId) VALUES (?, ?, ?, ?)
            """)
        for target in targets {
            try insert.execute(arguments: [property.holder.rawValue, holder, property.rawValue, target])
        }
    }

    /// The unresolved targets of one property of a record, in id order.
    static func targets(_ db: Database, _ property: Property, of holder: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            SELECT targetId FROM sync_reference WHERE recordType = ? AND recordId = ? AND property = ? ORDER BY targetId
            """), arguments: [property.holder.rawValue, holder, property.rawValue])
    }

    /// Resolves the references to a folder or tag that has just been written here. Returns
    /// the notes whose search fields changed.
    static func resolve(_ db: Database, arrived type: RecordType, _ id: String) throws -> [String] {
        switch type {
        case .tag:
            let notes = try holders(db, .tags, of: id)
            guard !notes.isEmpty else { return [] }
            try db.execute(sql: """
                INSERT OR IGNORE INTO noteTag (noteId, tagId)
                SELECT recordId, targetId FROM sync_reference WHERE property = 'tagIds' AND targetId = ?
                """, arguments: [id])
            try db.execute(sql: "DELETE FROM sync_reference WHERE property = 'tagIds' AND targetId = ?", arguments: [id])
            return notes
        case .folder:
            let notes = try holders(db, .folder, of: id)
            let folders = try holders(db, .parent, of: id)
            guard !notes.isEmpty || !folders.isEmpty else { return [] }
            // The update triggers remove the references they resolve.
            try db.execute(sql: """
                UPDATE note SET folderId = ? WHERE id IN
                    (SELECT recordId FROM sync_reference WHERE property = 'folderId' AND targetId = ?)
                """, arguments: [id, id])
            try db.execute(sql: """
                UPDATE folder SET parentId = ? WHERE id IN
                    (SELECT recordId FROM sync_reference WHERE property = 'parentId' AND targetId = ?)
                """, arguments: [id, id])
            return try notes + String.fetchAll(db, sql: """
                WITH RECURSIVE below(id) AS (SELECT value FROM json_each(?) UNION SELECT folder.id FROM folder JOIN below ON folder.parentId = below.id)
                SELECT note.id FROM note JOIN below ON note.folderId = below.id
                """, arguments: [NoteStore.jsonArray(folders)])
        case .note, .attachment:
            return []
        }
    }

    /// Drops the references to a record whose deletion arrived; returns the records that
    /// held one, which change and go up without it. A deleted tag leaves the bases of the
    /// notes that named it too, as it leaves the notes that hold it (``SyncBase/dropTag(_:_:fromNotes:)``).
    static func forget(_ db: Database, deleted id: String) throws -> [(RecordType, String)] {
        let rows = try Row.fetchAll(db, sql: "SELECT DISTINCT recordType, recordId FROM sync_reference WHERE targetId = ?", arguments: [id])
        let tagged = try holders(db, .tags, of: id)
        try db.execute(sql: "DELETE FROM sync_reference WHERE targetId = ?", arguments: [id])
        try SyncBase.dropTag(db, id, fromNotes: tagged)
        return rows.compactMap { row in RecordType(rawValue: row[0]).map { ($0, row[1]) } }
    }

    /// Whether a note here names a tag under a keyed id (a version 8 UUID, docs/encryption.md
    /// §4) that has not arrived: a device converting the account sends its tags under their new
    /// ids once it has fetched everything, after the notes that name them. A tag deleted here,
    /// or seen deleted on the server, is not waited for: a note another device tagged with it
    /// before it learned of the deletion names it (converting seed 3,000,251).
    static func waitsForKeyedTag(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM sync_reference r WHERE property = 'tagIds' AND substr(targetId, 15, 1) = '8'
                AND NOT \(TagTombstones.deletedSQL("r.targetId")))
            """) ?? false
    }

    private static func holders(_ db: Database, _ property: Property, of target: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT recordId FROM sync_reference WHERE property = ? AND targetId = ?"),
                            arguments: [property.rawValue, target])
    }
}
