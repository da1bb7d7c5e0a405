import GRDB
import NoteTakerSyncProtocol

/// The base of a record's three-way merge: its fields as last synced.
///
/// Folders, tags and attachments keep their base as JSON in `syncBase`. A note synced as it
/// is stored (it arrived, or went up and was not edited meanwhile) keeps no second copy of
/// itself: its `syncBase` is ``asStored``, "the note as it is now". The first change to it
/// here afterwards (its fields, its tags, a reference not resolved yet) first copies the
/// note as it was into `sync_note_base`. Triggers make that copy, so that no write path,
/// present or future, can change a note and lose its base. Writing `syncBase` again (the
/// note synced again) forgets the copy.
///
/// The invariant: while a note's `syncBase` is ``asStored`` and it has no copy, the note as
/// stored is its base. A copy taken while that holds is the base; the first copy is kept.
///
/// A first sync of 100,000 notes thus writes no second copy of each one, on the device
/// that sends them and on the one that receives them.
enum SyncBase {
    /// The `syncBase` of a note whose base is the note as stored (or its copy, once changed).
    static let asStored = ""

    /// A note's fields as a sync record, as stored: columns in the order of
    /// ``SyncRecords/noteFields(_:deviceName:)``, the tags and the folder including
    /// references not resolved yet, the tag ids as a JSON array.
    private static let recordView = """
        CREATE VIEW sync_note_record AS
        SELECT id AS noteId, title, body, createdAt, modifiedAt, isPinned,
            IFNULL(folderId, (SELECT targetId FROM sync_reference
                              WHERE recordType = 'note' AND recordId = note.id AND property = '\(UnresolvedReferences.Property.folder.rawValue)'
                              ORDER BY targetId LIMIT 1)) AS folderId,
            trashedAt, editedOn,
            (SELECT json_group_array(tagId) FROM (
                SELECT tagId FROM noteTag WHERE noteId = note.id
                UNION SELECT targetId FROM sync_reference
                      WHERE recordType = 'note' AND recordId = note.id AND property = '\(UnresolvedReferences.Property.tags.rawValue)'
                ORDER BY 1)) AS tagIds
        FROM note
        """

    /// The columns of a note's record, in `sync_note_record` and `sync_note_base`.
    static let noteColumns = "title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, editedOn, tagIds"

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            \(recordView);

            -- The base of a note whose syncBase is '': the note as it was before its first
            -- change here since it was synced.
            CREATE TABLE sync_note_base (
                noteId TEXT PRIMARY KEY NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                createdAt REAL NOT NULL,
                modifiedAt REAL NOT NULL,
                isPinned INTEGER NOT NULL,
                folderId TEXT,
                trashedAt REAL,
                editedOn TEXT,
                tagIds TEXT NOT NULL
            );

            CREATE TRIGGER sync_note_base_edited
            BEFORE UPDATE OF title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, editedOn ON note
            WHEN OLD.syncBase = '' AND NEW.syncBase = '' BEGIN \(capture("OLD.id")) END;
            CREATE TRIGGER sync_note_base_tag_added BEFORE INSERT ON noteTag
            WHEN (SELECT syncBase FROM note WHERE id = NEW.noteId) = '' BEGIN \(capture("NEW.noteId")) END;
            CREATE TRIGGER sync_note_base_tag_removed BEFORE DELETE ON noteTag
            WHEN (SELECT syncBase FROM note WHERE id = OLD.noteId) = '' BEGIN \(capture("OLD.noteId")) END;
            CREATE TRIGGER sync_note_base_reference_added BEFORE INSERT ON sync_reference
            WHEN NEW.recordType = 'note' AND (SELECT syncBase FROM note WHERE id = NEW.recordId) = '' BEGIN \(capture("NEW.recordId")) END;
            CREATE TRIGGER sync_note_base_reference_removed BEFORE DELETE ON sync_reference
            WHEN OLD.recordType = 'note' AND (SELECT syncBase FROM note WHERE id = OLD.recordId) = '' BEGIN \(capture("OLD.recordId")) END;

            CREATE TRIGGER sync_note_base_replaced AFTER UPDATE OF syncBase ON note BEGIN
                DELETE FROM sync_note_base WHERE noteId = NEW.id;
            END;
            """)
    }

    /// Copies the note `id` as stored, unless a copy exists (a plain insert: the conflict
    /// clause of the statement that fired the trigger, `OR REPLACE` for one, cannot apply).
    private static func capture(_ id: String) -> String {
        """
        INSERT INTO sync_note_base (noteId, \(noteColumns))
        SELECT noteId, \(noteColumns) FROM sync_note_record
        WHERE noteId = \(id) AND NOT EXISTS (SELECT 1 FROM sync_note_base WHERE noteId = \(id));
        """
    }

    /// Takes tag `tagId`, whose deletion arrived from the server, out of the bases of `notes`
    /// as it came off the notes themselves (call it after): the deletion took the tag off
    /// every note, so each one's synced version reads as without it. Tagging a note again with
    /// the tag made again is then a change here, and a version sent elsewhere with the tag
    /// made again a change there; kept in the base, the tag read as held from before on both
    /// sides, and a merge with a version without it took it off.
    static func dropTag(_ db: Database, _ tagId: String, fromNotes notes: [String]) throws {
        guard !notes.isEmpty else { return }
        let list = NoteStore.jsonArray(notes)
        // A base kept as stored was copied as the tag came off.
        try db.execute(sql: """
            UPDATE sync_note_base SET tagIds = (SELECT json_group_array(value) FROM json_each(sync_note_base.tagIds) WHERE value <> ?1)
            WHERE noteId IN (SELECT value FROM json_each(?2))
            """, arguments: [tagId, list])
        let written = try Row.fetchAll(db, sql: "SELECT id, syncBase FROM note WHERE syncBase <> ? AND id IN (SELECT value FROM json_each(?))",
                                       arguments: [asStored, list])
        let key = NoteRecord.Field.tagIds.rawValue
        for row in written {
            guard var fields = try? RecordFields(wireJSON: (row["syncBase"] as String).utf8),
                  let tags = fields[key]?.strings, tags.contains(tagId)
            else { continue }
            fields[key] = .array(tags.filter { $0 != tagId }.map(FieldValue.string))
            try db.execute(sql: "UPDATE note SET syncBase = ? WHERE id = ?", arguments: [fields.wireJSON, row["id"]])
        }
    }

    /// The base of a record, or `nil` when this device has none (never synced, or
    /// unreadable).
    static func fields(_ db: Database, _ type: RecordType, _ key: String) throws -> RecordFields? {
        guard let text = try String.fetchOne(db, sql: "SELECT syncBase FROM \(type.table) WHERE id = ?", arguments: [key]) else {
            return nil
        }
        guard type == .note, text == asStored else { return try? RecordFields(wireJSON: text.utf8) }
        if let row = try Row.fetchOne(db, sql: "SELECT \(noteColumns) FROM sync_note_base WHERE noteId = ?", arguments: [key]) {
            return try SyncRecords.noteFields(row, deviceName: SyncDevice.name(db))
        }
        return try SyncRecords.fields(db, .note, key)
    }
}
