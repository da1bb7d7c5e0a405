import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Local rows as sync records, and sync records written back as local rows.
///
/// Writing here never touches the outbox: these are the server's changes arriving, not the
/// user's. Values from the server are checked like user input; a malformed record is
/// refused with an error for that record alone.
enum SyncRecords {
    /// The fields of a local row, or `nil` when it does not exist. `deviceName` is this
    /// device's (``SyncDevice/name(_:)``), when the caller has it.
    static func fields(_ db: Database, _ type: RecordType, _ id: String, deviceName: String? = nil) throws -> RecordFields? {
        try stored(db, type, id, deviceName: deviceName)?.fields
    }

    /// The fields of a local row and the change tag of the server's version it was last
    /// synced with (`nil`: never synced), or `nil` when the row does not exist.
    static func stored(
        _ db: Database, _ type: RecordType, _ id: String, deviceName: String? = nil
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
                SELECT name, createdAt, changeTag, (SELECT changeTag FROM sync_tag_tombstone WHERE id = tag.id) FROM tag WHERE id = ?
                """), arguments: [id]) else { return nil }
            // A tag made again over a deletion this device saw names it (see TagTombstones).
            let tombstone: String? = row[3]
            let replaces = tombstone != nil && tombstone == row[2] ? tombstone : nil
            return (TagRecord(name: row[0], createdAt: row[1], replaces: replaces).fields, row[2])
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

    /// Writes a record from the server into its local row (inserting or updating).
    /// References to folders and tags this device does not hold yet are kept as
    /// ``UnresolvedReferences``, never dropped; a folder or tag that arrives resolves the
    /// references waiting for it.
    ///
    /// With `arriving`, the record is a note this device does not hold: it is inserted
    /// already in sync at that version, and left for the caller to add to the search index.
    /// A text it replaces goes into the note's history, replaced `at`.
    static func write(
        _ db: Database, _ type: RecordType, _ id: String, _ fields: RecordFields,
        cache: inout RecordWriteCache, arriving: SyncedVersion? = nil, at date: Date
    ) throws {
        do {
            switch type {
            case .note: try writeNote(db, id, try NoteRecord(fields: fields), cache: &cache, arriving: arriving, at: date)
            case .folder:
                try writeFolder(db, id, try FolderRecord(fields: fields, maximumIconBytes: NoteStore.maximumIconBytes))
                try SearchFields.refresh(db, noteIds: UnresolvedReferences.resolve(db, arrived: .folder, id))
            case .tag: try writeTag(db, id, try TagRecord(fields: fields))
            case .attachment: try writeAttachment(db, id, try AttachmentRecord(fields: fields))
            }
        } catch let error as RecordFieldError {
            throw SyncRecordError.invalidField(error.field, record: "\(type.rawValue) \(id)")
        }
    }

    private static func writeTag(_ db: Database, _ id: String, _ record: TagRecord) throws {
        if let replaced = record.replaces.flatMap({ Int64($0) }),
           let held = try String.fetchOne(db.cachedStatement(sql: "SELECT changeTag FROM tag WHERE id = ?"), arguments: [id]).flatMap({ Int64($0) }),
           held < replaced {
            // The tag here is from before a deletion this device never saw (the tag was made
            // again since, hiding it): that deletion takes the tag off every note here, but
            // for notes tagged again after it, once this device caught up with the server.
            try TagTombstones.learnedLate(db, id: id, deletion: replaced)
        }
        let name = try NoteStore.validatedTagName(record.name)
        var normalized = Tag.normalizedName(name)
        if try String.fetchOne(db, sql: "SELECT id FROM tag WHERE normalizedName = ? AND id <> ?", arguments: [normalized, id]) != nil {
            // Another tag of that name exists here (a rename met a new tag): keep both.
            normalized += " \u{E000}" + id
        }
        try db.execute(sql: """
            INSERT INTO tag (id, name, normalizedName, createdAt) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, normalizedName = excluded.normalizedName, createdAt = excluded.createdAt
            """, arguments: [id, name, normalized, record.createdAt])
        try TagTombstones.forget(db, id: id)
        _ = try UnresolvedReferences.resolve(db, arrived: .tag, id)
        try SearchFields.refresh(db, noteIds: String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [id]))
    }

    private static func writeAttachment(_ db: Database, _ id: String, _ record: AttachmentRecord) throws {
        guard AttachmentFiles.isValidHash(record.contentHash) else {
            throw SyncRecordError.invalidField(AttachmentRecord.Field.contentHash.rawValue, record: "attachment \(id)")
        }
        guard try NoteStore.noteExists(db, record.noteId) else {
            throw SyncRecordError.missingParent("note \(record.noteId)")
        }
        let kind = Attachment.Kind(rawValue: record.kind) ?? .file
        try db.execute(sql: """
            INSERT INTO attachment (id, noteId, kind, fileName, fileSize, contentHash, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET noteId = excluded.noteId, kind = excluded.kind, fileName = excluded.fileName,
                fileSize = excluded.fileSize, contentHash = excluded.contentHash
            """, arguments: [id, record.noteId, kind.rawValue, Attachment.safeFileName(record.fileName), record.fileSize,
                             record.contentHash, record.createdAt])
    }

    private static func writeNote(
        _ db: Database, _ id: String, _ record: NoteRecord, cache: inout RecordWriteCache, arriving: SyncedVersion?, at date: Date
    ) throws {
        let title = try NoteStore.validatedTitle(record.title)
        let body = try NoteStore.validatedBody(record.body)
        // Only a name to show: a device that sends a wrong one is not named, its note applies.
        let editedOn = NoteHistory.Device.stored(name: SyncDevice.validName(record.editedOn), thisDevice: try cache.deviceName(db))
        let wantedFolder = record.folderId
        let folderChain = try wantedFolder.flatMap { try cache.folderChain(db, $0) }
        let folderId = folderChain == nil ? nil : wantedFolder
        let wanted = record.tagIds
        let tags = wanted.isEmpty ? [] : try cache.tags(db, ids: wanted)
        // The search fields are computed first, so the note is indexed once.
        let fields = SearchFields(isPinned: record.isPinned, isTrashed: record.trashedAt != nil, tags: tags, folderChain: folderChain ?? [])
        var arguments: StatementArguments = [
            title, body, record.createdAt, record.modifiedAt, record.isPinned,
            folderId, record.trashedAt, fields.tagNames, fields.facets, editedOn, id,
        ]
        let tagKeys = NoteStore.jsonArray(tags.map(\.id.key))
        let unresolvedTags = tags.count < wanted.count
        let unresolvedFolder = folderId == nil && wantedFolder != nil
        // An arriving note is in sync as stored (``SyncBase``) once its tags and references are
        // written: until then its base is left unset, so that writing them copies nothing.
        let completedLater = !tags.isEmpty || unresolvedTags || unresolvedFolder
        if let arriving {
            arguments += [arriving.tag, completedLater ? nil : SyncBase.asStored, arriving.at.storageValue]
            try db.cachedStatement(sql: """
                INSERT INTO note (title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, tagNames, facets, editedOn, id,
                    changeTag, syncBase, lastSyncedAt, syncStatus, searchSeq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'synced', (SELECT IFNULL(MAX(searchSeq), 0) + 1 FROM note))
                """).execute(arguments: arguments)
        } else if let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT title, body, modifiedAt FROM note WHERE id = ?"), arguments: [id]) {
            if existing["title"] != title || existing["body"] != body {
                try NoteHistory.keep(db, noteId: id, title: existing["title"], body: existing["body"], newBody: body,
                                     modifiedAt: existing.date("modifiedAt") ?? date, replacedBy: .sync, now: date)
            }
            try db.cachedStatement(sql: "DELETE FROM noteTag WHERE noteId = ? AND tagId NOT IN (SELECT value FROM json_each(?))")
                .execute(arguments: [id, tagKeys])
            try db.cachedStatement(sql: """
                UPDATE note SET title = ?, body = ?, createdAt = ?, modifiedAt = ?, isPinned = ?, folderId = ?, trashedAt = ?,
                    tagNames = ?, facets = ?, editedOn = ?, searchSeq = (SELECT MAX(searchSeq) + 1 FROM note) WHERE id = ?
                """).execute(arguments: arguments)
        } else {
            let before = try SearchIndexSchema.lastSearchSeq(db)
            try db.cachedStatement(sql: """
                INSERT INTO note (title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, tagNames, facets, editedOn, id, searchSeq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT IFNULL(MAX(searchSeq), 0) + 1 FROM note))
                """).execute(arguments: arguments)
            try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
        }
        if !tags.isEmpty {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO noteTag (noteId, tagId) SELECT ?, value FROM json_each(?)")
                .execute(arguments: [id, tagKeys])
        }
        // What this device does not hold yet is kept: the record stays whole (after the
        // update, whose trigger clears an earlier pending folder). A note that just arrived
        // has no earlier references to clear.
        if arriving == nil {
            try db.cachedStatement(sql: "DELETE FROM sync_reference WHERE recordType = 'note' AND recordId = ? AND property = 'tagIds'")
                .execute(arguments: [id])
        }
        if unresolvedTags {
            try UnresolvedReferences.keep(db, .tags, of: id, targets: Set(wanted).subtracting(tags.map(\.id.key)))
        }
        if unresolvedFolder, let wantedFolder { try UnresolvedReferences.keep(db, .folder, of: id, targets: [wantedFolder]) }
        if arriving != nil, completedLater {
            try db.cachedStatement(sql: "UPDATE note SET syncBase = ? WHERE id = ?").execute(arguments: [SyncBase.asStored, id])
        }
    }

    private static func writeFolder(_ db: Database, _ id: String, _ record: FolderRecord) throws {
        let name = try NoteStore.validatedFolderName(record.name)
        let wantedParent = record.parentId
        var parentId = wantedParent
        if let parent = parentId, try Bool.fetchOne(db, sql: "SELECT 1 FROM folder WHERE id = ?", arguments: [parent]) != true {
            parentId = nil
        }
        try db.execute(sql: """
            INSERT INTO folder (id, name, icon, sortOrder, createdAt, modifiedAt, parentId) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, icon = excluded.icon, sortOrder = excluded.sortOrder,
                modifiedAt = excluded.modifiedAt, parentId = excluded.parentId
            """, arguments: [id, name, record.icon, record.sortOrder, record.createdAt, record.modifiedAt, parentId])
        if parentId == nil, let wantedParent { try UnresolvedReferences.keep(db, .parent, of: id, targets: [wantedParent]) }
    }

    /// Takes tag `id` off every note here, as its deletion does: a change each note makes
    /// only because of it (derived). With `deletion` (a deletion's change tag this device
    /// learned of late), notes the server holds tagged since it stay tagged
    /// (``TagTombstones/taggedAfter(_:note:tag:deletion:)``).
    static func untagEverywhere(_ db: Database, _ id: String, butTaggedAfter deletion: Int64? = nil) throws {
        var notes = try String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [id])
        if let deletion { notes = try notes.filter { try !TagTombstones.taggedAfter(db, note: $0, tag: id, deletion: deletion) } }
        let untag = try db.cachedStatement(sql: "DELETE FROM noteTag WHERE tagId = ? AND noteId = ?")
        for note in notes { try untag.execute(arguments: [id, note]) }
        try SearchFields.refresh(db, noteIds: notes)
        for note in notes { try Outbox.record(db, .note, note, derived: true) }
    }

    /// Deletes a local row because the server holds a tombstone for it. Returns the
    /// content hashes whose files may now be unreferenced.
    static func delete(_ db: Database, _ type: RecordType, _ id: String) throws -> Set<String> {
        switch type {
        case .note:
            let hashes = try String.fetchAll(db, sql: "SELECT contentHash FROM attachment WHERE noteId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
            return Set(hashes)
        case .folder:
            try NoteStore.removeFolder(db, id: id)
        case .tag:
            try untagEverywhere(db, id)
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [id])
        case .attachment:
            let hash = try String.fetchOne(db, sql: "SELECT contentHash FROM attachment WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM attachment WHERE id = ?", arguments: [id])
            return Set([hash].compactMap { $0 })
        }
        return []
    }
}

/// The version a note arrives at from the server, written with its row: its change tag and
/// when it was synced. Its base is the note as stored (``SyncBase``).
struct SyncedVersion {
    var tag: String
    var at: Date
}

/// Why a record from the server could not be written locally.
enum SyncRecordError: Error, CustomStringConvertible {
    case invalidField(String, record: String)
    case missingParent(String)

    var description: String {
        switch self {
        case .invalidField(let field, let record): "The server's \(record) has a missing or malformed '\(field)'."
        case .missingParent(let parent): "The server's record belongs to \(parent), which this device does not hold."
        }
    }
}
