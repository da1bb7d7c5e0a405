import Foundation
import GRDB
import NoteTakerSyncProtocol

/// A sync server that purged deletions this device had not fetched yet.
///
/// The server keeps a deleted record's tombstone until every device logged in has fetched it,
/// and for a while after. A device that was away longer (its session ended, and it logs in
/// again with its old position) cannot learn those deletions one by one any more: the server
/// answers ``SyncError/tombstonesPurged``, and the device lists everything instead. So does a
/// device fetching from nothing while it holds records from before, sent before it ever
/// fetched or synced under a token since forgotten (``ChangesQuery/holding``).
///
/// 1. Every record here the server knew (it has a change tag) is noted as not listed yet,
///    and the pull starts from scratch (``adoptPurgedTombstones()``).
/// 2. Each page fetched crosses off the records it holds (``markListed(_:)``).
/// 3. Once everything is fetched, what is still not listed, and has no change of this
///    device's waiting, was deleted elsewhere: it is staged as a deletion from the server
///    (``stageUnlistedDeletions()``), which a pull applies as any other, counted first
///    against the mass-deletion limit (and the old id of a tag this device renamed taking a
///    conversion to encryption up counts as deleted: ``RenamedTags``). A record changed here
///    goes up again instead: an edit outranks a deletion, as everywhere in sync. A change the
///    software made on its own (derived: a tag or folder deleted took it off) does not, and
///    yields to the deletion.
///
/// The notes live in `sync_unlisted`, so a pull cut short continues where it stopped.
enum PurgedTombstones {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_unlisted (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID
            """)
    }

    /// The oldest change tag of a record this device holds as synced; `nil` when it holds none.
    static func oldestHeldVersion(_ db: Database) throws -> Int64? {
        try RecordType.allCases.compactMap { type in
            try Int64.fetchOne(db, sql: "SELECT MIN(CAST(changeTag AS INTEGER)) FROM \(type.table) WHERE changeTag IS NOT NULL")
        }.min()
    }
}

extension NoteStore {
    /// Starts listing everything again: notes every record the server knew as not listed
    /// yet, and forgets the change token. The authored token stays: the listing names no
    /// device, so it leaves out nothing, but a server restored from a backup is still known
    /// by it (``HistoryMark``), and this device's answered changes go up again then.
    package func adoptPurgedTombstones() throws(NoteTakerError) {
        try write { db in
            try db.execute(sql: "DELETE FROM sync_unlisted")
            for type in RecordType.allCases {
                try db.execute(sql: "INSERT INTO sync_unlisted (recordType, recordId) SELECT ?, id FROM \(type.table) WHERE changeTag IS NOT NULL",
                               arguments: [type.rawValue])
            }
            try RenamedTags.noteUnlisted(db)
            try Self.forgetChangeToken(db, keepingAuthoredToken: true)
            try SyncState.set(db, .listingAfterPurge, String(sources.now.storageValue))
        }
    }

    /// Whether this device is listing everything after a purge.
    package func listsAfterPurge() throws(NoteTakerError) -> Bool {
        try read { db in try SyncState.get(db, .listingAfterPurge) != nil }
    }

    /// Crosses off the records a fetched page holds.
    package func markListed(_ page: ChangesResponse) throws(NoteTakerError) {
        guard !page.records.isEmpty else { return }
        try write { db in
            let listed = try db.cachedStatement(sql: "DELETE FROM sync_unlisted WHERE recordType = ? AND recordId = ?")
            for record in page.records {
                try listed.execute(arguments: [record.recordType, record.recordId.key])
            }
        }
    }

    /// Ends the listing: stages a deletion from the server for each record still not
    /// listed that has no change of this device's own waiting here (a derived one yields);
    /// returns how many.
    package func stageUnlistedDeletions() throws(NoteTakerError) -> Int {
        try write { db in
            var staged = 0
            for type in RecordType.allCases {
                try db.execute(sql: """
                    INSERT INTO sync_inbox (priority, recordType, recordId, changeTag, deleted, fields)
                    SELECT ?1, ?2, t.id, t.changeTag, 1, '{}' FROM sync_unlisted u JOIN \(type.table) t ON t.id = u.recordId
                    WHERE u.recordType = ?2 AND t.changeTag IS NOT NULL
                      AND NOT \(Outbox.waitsSQL(type: "?2", id: "t.id", editsOnly: true))
                    """, arguments: [type.applyOrder, type.rawValue])
                staged += db.changesCount
            }
            try RenamedTags.crossOffUnlisted(db)
            try db.execute(sql: "DELETE FROM sync_unlisted")
            try SyncState.set(db, .listingAfterPurge, nil)
            return staged
        }
    }
}
