import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Local rows as sync records (the server's records are written back by
/// `RecordWriter+Synced.swift`).
enum SyncRecords {
    /// The fields of a local row, or `nil` when it does not exist. `deviceName` is this
    /// device's (``SyncDevice/name(_:)``), when the caller has it.
    static func fields(_ db: Database, _ type: RecordType, _ id: String, deviceName: String? = nil) throws -> RecordFields? {
        try stored(db, type, id, deviceName: deviceName)?.fields
    }

    /// The fields of a local row and the change tag of the server's version it was last
    /// synced with (`nil`: never synced), or `nil` when the row does not exist. `derivedSave`:
    /// the fields go up in a derived save (a tag renamed at a conversion then names the
    /// version of its old id it carries, ``ConvertedTags``).
    static func stored(
        _ db: Database, _ type: RecordType, _ id: String, deviceName: String? = nil, derivedSave: Bool = false
    ) throws -> (fields: RecordFields, changeTag: String?)? {
        switch type {
        case .note:
            // References to tags and folders not received yet are part of the record.
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(SyncBase.noteColumns), (SELECT changeTag FROM note WHERE id = noteId) FROM sync_note_record WHERE noteId = ?
                """), arguments: [id]) else { return nil }
            return (try noteFields(row, deviceName: deviceName ?? SyncDevice.name(db)), row[9])
        case .folder:
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT name, icon, sortOrder, createdAt, modifiedAt, parentId, changeTag FROM folder WHERE id = ?
                """), arguments: [id]) else { return nil }
            let record = FolderRecord(
                name: row[0], icon: row[1], sortOrder: row[2], createdAt: row[3], modifiedAt: row[4],
                parentId: try row[5] as String? ?? UnresolvedReferences.targets(db, .parent, of: id).first)
            return (record.fields, row[6])
        case .tag:
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT name, createdAt, changeTag, (SELECT changeTag FROM sync_tag_tombstone WHERE id = tag.id),
                       (SELECT oldChangeTag FROM sync_converted_tag WHERE id = tag.id)
                FROM tag WHERE id = ?
                """), arguments: [id]) else { return nil }
            // A tag made again over a deletion this device saw names it (see TagTombstones).
            let tombstone: String? = row[3]
            let replaces = tombstone != nil && tombstone == row[2] ? tombstone : nil
            let record = TagRecord(name: row[0], createdAt: row[1], replaces: replaces, convertedFrom: derivedSave ? row[4] : nil)
            return (record.fields, row[2])
        case .attachment:
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT noteId, kind, fileName, fileSize, contentHash, createdAt, changeTag FROM attachment WHERE id = ?
                """), arguments: [id]) else { return nil }
            let record = AttachmentRecord(noteId: row[0], kind: row[1], fileName: row[2], fileSize: row[3], contentHash: row[4], createdAt: row[5])
            return (record.fields, row[6])
        }
    }

    /// The notes among `keys` as stored, by id, each with the change tag of the server's
    /// version it was last synced with: one statement for a whole push batch. A note that
    /// does not exist is left out.
    static func storedNotes(
        _ db: Database, _ keys: [String], deviceName: String
    ) throws -> [String: (record: NoteRecord, changeTag: String?)] {
        guard !keys.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT \(SyncBase.noteColumns), (SELECT changeTag FROM note WHERE id = noteId), noteId FROM sync_note_record
            WHERE noteId IN (SELECT value FROM json_each(?))
            """), arguments: [NoteStore.jsonArray(keys)])
        var notes: [String: (record: NoteRecord, changeTag: String?)] = [:]
        notes.reserveCapacity(keys.count)
        while let row = try rows.next() {
            notes[row[10]] = (try noteRecord(row, deviceName: deviceName), row[9])
        }
        return notes
    }

    /// A note's fields from a row of its columns (``SyncBase/noteColumns``: its tag ids as a
    /// JSON array), as stored or as copied for its base. `deviceName` is this device's.
    static func noteFields(_ row: Row, deviceName: String) throws -> RecordFields {
        try noteRecord(row, deviceName: deviceName).fields
    }

    /// A note's record from a row of its columns (see ``noteFields(_:deviceName:)``).
    private static func noteRecord(_ row: Row, deviceName: String) throws -> NoteRecord {
        let tagIds = try WireReader.read(Array((row[8] as String).utf8)) { reader throws(WireJSONError) in
            var ids: [String] = []
            try reader.array { reader throws(WireJSONError) in ids.append(try reader.string()) }
            return ids
        }
        return NoteRecord(
            title: row[0], body: row[1], createdAt: row[2], modifiedAt: row[3], isPinned: row[4], folderId: row[5],
            trashedAt: row[6], tagIds: tagIds, editedOn: NoteHistory.Device.name(stored: row[7], thisDevice: deviceName)
        )
    }
}
