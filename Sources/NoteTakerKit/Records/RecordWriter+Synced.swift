import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The server's records written into local rows, and its deletions carried out.
///
/// Writing here never touches the outbox, but for the changes this device makes only as a
/// consequence (derived: a note losing a deleted tag): these are the server's changes
/// arriving, not the user's. Values from the server are checked like user input; a
/// malformed record is refused with an error for that record alone.
extension RecordWriter {
    /// Writes a record from the server into its local row (inserting or updating).
    /// References to folders and tags this device does not hold yet are kept as
    /// ``UnresolvedReferences``, never dropped; a folder or tag that arrives resolves the
    /// references waiting for it.
    ///
    /// With `arriving`, the record is a note this device does not hold: it is inserted
    /// already in sync at that version, and left for the caller to add to the search index.
    /// `version`: the server's change tag of `fields`, when they are its version whole (not
    /// a merge): a tag it names that this device saw deleted since is not kept waiting but
    /// dropped, and the note goes up without it (derived), as every note that held it did.
    /// A text it replaces goes into the note's history, replaced `at`. `tagHeldFromBefore`:
    /// the tag here is from before any deletion of its id, though it has no change tag under it
    /// (see ``RenamedTags/Kind/heldFromBefore``).
    static func writeFromServer(
        _ db: Database, _ type: RecordType, _ id: String, _ fields: RecordFields,
        cache: inout RecordWriteCache, arriving: SyncedVersion? = nil, version: String? = nil, tagHeldFromBefore: Bool = false, at date: Date
    ) throws {
        do {
            switch type {
            case .note:
                try writeNote(db, id, try NoteRecord(fields: fields), cache: &cache, arriving: arriving,
                              version: (arriving?.tag ?? version).flatMap { Int64($0) }, at: date)
            case .folder:
                try writeFolder(db, id, try FolderRecord(fields: fields, maximumIconBytes: NoteStore.maximumIconBytes))
                try SearchFields.refresh(db, noteIds: UnresolvedReferences.resolve(db, arrived: .folder, id))
            case .tag: try writeTag(db, id, try TagRecord(fields: fields), heldFromBefore: tagHeldFromBefore)
            case .attachment: try writeAttachment(db, id, try AttachmentRecord(fields: fields))
            }
        } catch let error as RecordFieldError {
            throw SyncRecordError.invalidField(error.field, record: "\(type.rawValue) \(id)")
        }
    }

    private static func writeTag(_ db: Database, _ id: String, _ record: TagRecord, heldFromBefore: Bool) throws {
        if let replaced = record.replaces.flatMap({ Int64($0) }),
           let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT changeTag FROM tag WHERE id = ?"), arguments: [id]),
           let held = (row[0] as String?).flatMap({ Int64($0) }) ?? (heldFromBefore ? Int64.min : nil),
           held < replaced {
            // The tag here is from before a deletion this device never saw (the tag was made
            // again since, hiding it): that deletion takes the tag off every note here, but
            // for notes tagged again after it, once this device caught up with the server. A
            // tag renamed here at a conversion is from before any deletion of its new id.
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
        _ db: Database, _ id: String, _ record: NoteRecord, cache: inout RecordWriteCache, arriving: SyncedVersion?, version: Int64?,
        at date: Date
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
        let tagKeys = NoteStore.jsonArray(tags.map(\.id.key))
        var missingTags = tags.count < wanted.count ? Set(wanted).subtracting(tags.map(\.id.key)) : []
        let deletedTags = missingTags.isEmpty ? [] : try version.map { try TagTombstones.deleted(db, among: missingTags, after: $0) } ?? []
        missingTags.subtract(deletedTags)
        let unresolvedTags = !missingTags.isEmpty
        let unresolvedFolder = folderId == nil && wantedFolder != nil
        // An arriving note is in sync as stored (``SyncBase``) once its tags and references are
        // written: until then its base is left unset, so that writing them copies nothing.
        let completedLater = !tags.isEmpty || unresolvedTags || unresolvedFolder
        let row = NoteRow(
            id: id, title: title, body: body, createdAt: record.createdAt, modifiedAt: record.modifiedAt, isPinned: record.isPinned,
            folderId: folderId, trashedAt: record.trashedAt, fields: fields, editedOn: editedOn, editedBy: record.editedBy, synced: arriving,
            syncBase: arriving != nil && !completedLater ? SyncBase.asStored : nil)
        if arriving != nil {
            try row.insert(db)
        } else if let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT title, body, modifiedAt FROM note WHERE id = ?"), arguments: [id]) {
            if existing["title"] != title || existing["body"] != body {
                try NoteHistory.keep(db, noteId: id, title: existing["title"], body: existing["body"], newBody: body,
                                     modifiedAt: existing.date("modifiedAt") ?? date, replacedBy: .sync, now: date)
            }
            try db.cachedStatement(sql: "DELETE FROM noteTag WHERE noteId = ? AND tagId NOT IN (SELECT value FROM json_each(?))")
                .execute(arguments: [id, tagKeys])
            try db.cachedStatement(sql: """
                UPDATE note SET title = ?, body = ?, createdAt = ?, modifiedAt = ?, isPinned = ?, folderId = ?, trashedAt = ?,
                    tagNames = ?, facets = ?, editedOn = ?, editedBy = ?, searchSeq = (SELECT MAX(searchSeq) + 1 FROM note) WHERE id = ?
                """).execute(arguments: [
                    title, body, record.createdAt, record.modifiedAt, record.isPinned, folderId, record.trashedAt,
                    fields.tagNames, fields.facets, editedOn, record.editedBy, id,
                ])
        } else {
            let before = try SearchIndexSchema.lastSearchSeq(db)
            try row.insert(db)
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
            try UnresolvedReferences.keep(db, .tags, of: id, targets: missingTags)
        }
        if !deletedTags.isEmpty { try Outbox.record(db, .note, id, derived: true) }
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

    /// Takes tag `id`, deleted on the server, off every note here, as its deletion does: a
    /// change each note makes only because of it (derived), and from each note's base too
    /// (``SyncBase/dropTag(_:_:fromNotes:)``). With `deletion` (the deletion's change tag),
    /// notes the server holds tagged since it stay tagged
    /// (``NoteTagsVersion/taggedAfter(_:note:tag:deletion:)``).
    static func untagEverywhere(_ db: Database, _ id: String, butTaggedAfter deletion: Int64? = nil) throws {
        var notes = try String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [id])
        if let deletion { notes = try notes.filter { try !NoteTagsVersion.taggedAfter(db, note: $0, tag: id, deletion: deletion) } }
        let untag = try db.cachedStatement(sql: "DELETE FROM noteTag WHERE tagId = ? AND noteId = ?")
        for note in notes { try untag.execute(arguments: [id, note]) }
        try SyncBase.dropTag(db, id, fromNotes: notes)
        try SearchFields.refresh(db, noteIds: notes)
        for note in notes { try Outbox.record(db, .note, note, derived: true) }
    }

    /// Deletes a local row because the server holds a tombstone for it (at change tag
    /// `deletion`, when known). Returns the content hashes whose files may now be unreferenced.
    ///
    /// A note's attachments go with it, and those the server holds are deleted there too: the
    /// device that deleted the note sent deletions of the attachments it held, not of one
    /// attached elsewhere meanwhile, which would stay on the server for good, in plain text
    /// when the account is converted to encryption (converting seed 3,018,209: the conversion
    /// never ended). Where the other device's deletion comes in the same fetch, this one is
    /// dropped before it goes up.
    ///
    /// A tag's deletion takes it off every note here but those the server holds tagged since
    /// (``NoteTagsVersion/taggedAfter(_:note:tag:deletion:)``: merged in here before the
    /// deletion came down): the tag was made again, and its record follows; until it comes,
    /// they keep it as a reference not resolved yet.
    static func deleteFromServer(_ db: Database, _ type: RecordType, _ id: String, deletion: Int64? = nil) throws -> Set<String> {
        switch type {
        case .note:
            let attachments = try Row.fetchAll(db, sql: "SELECT id, contentHash, changeTag IS NOT NULL AS synced FROM attachment WHERE noteId = ?",
                                               arguments: [id])
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
            for attachment in attachments where attachment["synced"] as Bool {
                try Outbox.record(db, .attachment, attachment["id"], .delete)
            }
            return Set(attachments.map { $0["contentHash"] as String })
        case .folder:
            try RecordWriter.removeFolder(db, id: id)
        case .tag:
            try untagEverywhere(db, id, butTaggedAfter: deletion)
            let taggedAfter = try String.fetchAll(db, sql: "SELECT noteId FROM noteTag WHERE tagId = ?", arguments: [id])
            for note in taggedAfter { try UnresolvedReferences.keep(db, .tags, of: note, targets: [id]) }
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [id])
            try SearchFields.refresh(db, noteIds: taggedAfter)
        case .attachment:
            let hash = try String.fetchOne(db, sql: "SELECT contentHash FROM attachment WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM attachment WHERE id = ?", arguments: [id])
            return Set([hash].compactMap { $0 })
        }
        return []
    }
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
