import GRDB
import NoteTakerSyncProtocol

/// Where the tags of a note's synced version come from: the server's version whose tags it
/// carries as another device sent them (`note.tagsVersion`), or none known.
///
/// A tag deleted and made again hides its deletion from a device that held the tag from
/// before: the device takes the tag off its notes when it learns of the deletion late
/// (``TagTombstones``), but for notes another device tagged again after the deletion. Those
/// are the notes whose tags come from a version newer than the deletion, sent elsewhere: whoever
/// sent it had seen the deletion (they tagged the note again), or takes the tag off
/// themselves when they learn of it. A version this device sent carries the tags of the one
/// before it when it adds none (it merged that version in, say, and sent the merge before the
/// tag's record came down); a version that adds one carries no tags known to be from after any
/// deletion, since this device may not have seen it.
enum NoteTagsVersion {
    /// v31: replaces `note.sentHere` (a version sent here carried no tags from elsewhere).
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE note ADD COLUMN tagsVersion INTEGER;
            UPDATE note SET tagsVersion = CAST(changeTag AS INTEGER) WHERE NOT sentHere AND changeTag IS NOT NULL;
            ALTER TABLE note DROP COLUMN sentHere;
            """)
    }

    /// The version a note's tags come from once the server saved `sentTagIds` from here: the
    /// one its tags came from before when it sent none that its base lacked, else none.
    /// Read before the note's base moves on to what was sent.
    static func afterSending(_ db: Database, note: String, sentTagIds: [String]) throws -> Int64? {
        guard let version = try Int64.fetchOne(db.cachedStatement(sql: "SELECT tagsVersion FROM note WHERE id = ?"), arguments: [note]),
              let base = try SyncBase.fields(db, .note, note)
        else { return nil }
        let held = Set(base[NoteRecord.Field.tagIds.rawValue]?.strings ?? [])
        return sentTagIds.allSatisfy(held.contains) ? version : nil
    }

    /// ``afterSending(_:note:sentTagIds:)`` for the notes of a batch the server saved whole,
    /// by note id: only those whose tags come from a version known here are looked at (none,
    /// in a first sync).
    static func afterSending(_ db: Database, notes: [(id: String, sentTagIds: [String])]) throws -> [String: Int64] {
        let known = Set(try String.fetchAll(db, sql: """
            SELECT id FROM note WHERE tagsVersion IS NOT NULL AND id IN (SELECT value FROM json_each(?))
            """, arguments: [NoteStore.jsonArray(notes.map(\.id))]))
        guard !known.isEmpty else { return [:] }
        var versions: [String: Int64] = [:]
        for note in notes where known.contains(note.id) {
            versions[note.id] = try afterSending(db, note: note.id, sentTagIds: note.sentTagIds)
        }
        return versions
    }

    /// Whether `note` holds `tag` from a version newer than `deletion` that another device sent.
    static func taggedAfter(_ db: Database, note: String, tag: String, deletion: Int64) throws -> Bool {
        guard let version = try Int64.fetchOne(db.cachedStatement(sql: "SELECT tagsVersion FROM note WHERE id = ?"), arguments: [note]),
              version > deletion, let base = try SyncBase.fields(db, .note, note)
        else { return false }
        return base[NoteRecord.Field.tagIds.rawValue]?.strings.contains(tag) == true
    }
}
