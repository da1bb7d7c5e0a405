import Foundation
import GRDB

/// A note's row as inserted, by this device or from the server: the one statement that
/// inserts notes (``insert(_:)``).
struct NoteRow {
    /// The note's id, as stored (lowercase, `UUID.key`).
    var id: String
    var title: String
    var body: String
    /// Dates as stored: seconds since 1970.
    var createdAt: Double
    var modifiedAt: Double
    var isPinned: Bool
    /// Its folder, when this device holds it.
    var folderId: String?
    var trashedAt: Double?
    /// The search fields of its tags, pin, trash state and folder.
    var fields: SearchFields
    /// The device that last edited it, when another (``NoteHistory/Device``).
    var editedOn: String?
    /// In a shared zone, the account that wrote it, when another (`nil`: this account).
    var editedBy: String? = nil
    /// The server's version it arrives at, in sync (`nil`: made here, or not in sync yet).
    var synced: SyncedVersion?
    /// Its sync base when it arrives in sync (``SyncBase``).
    var syncBase: String?

    /// Inserts the row, as the newest in the search sequence; the caller adds it to the
    /// search index, one note or a whole batch at once.
    func insert(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO note (id, title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, tagNames, facets, editedOn, editedBy,
                changeTag, tagsVersion, syncBase, lastSyncedAt, syncStatus, searchSeq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT IFNULL(MAX(searchSeq), 0) + 1 FROM note))
            """).execute(arguments: [
                id, title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, fields.tagNames, fields.facets, editedOn, editedBy,
                synced?.tag, synced.flatMap { Int64($0.tag) }, syncBase, synced?.at.storageValue, synced == nil ? SyncStatus.pending.rawValue : SyncStatus.synced.rawValue,
            ])
    }
}

/// The version a note arrives at from the server, written with its row: its change tag and
/// when it was synced. Its base is the note as stored (``SyncBase``).
struct SyncedVersion {
    var tag: String
    var at: Date
}
