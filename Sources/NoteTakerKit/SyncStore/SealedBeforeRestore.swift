import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The records this device had seen sealed when it found its server restored from an older
/// copy (docs/encryption.md §2.4): kept through the heal, which forgets the revisions seen
/// (``SyncRevisions``), until a conversion's pass has the server delete its plaintext.
///
/// A record seen sealed was sealed by a conversion (or made since), and every version of it
/// in plain text came before that, so this device's copy follows from any the restored server
/// holds: sent again and refused with one in plain text, it replaces it. A record this device
/// never saw sealed may be held in plain text in a version it never saw (another device's edit
/// made before the conversion, perhaps after this device's last sync): it waits for that
/// device's conversion to seal it, and merges with it then (converting seed 3,017,192: a heal
/// taken up after the conversion replaced such an edit, and the edit was lost everywhere).
///
/// Only revisions above 1 are kept, and that is enough: a conversion seals a record against
/// the version it held (at revision 2 at least), and a record sealed at 1 was made sealed,
/// with no version in plain text anywhere.
enum SealedBeforeRestore {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_sealed_before_restore (
                recordType TEXT NOT NULL,
                recordId TEXT NOT NULL,
                PRIMARY KEY (recordType, recordId)
            ) WITHOUT ROWID
            """)
    }

    /// Notes every record this device has seen sealed, before the heal forgets the revisions.
    /// What an earlier restore's heal noted stays: this device saw those sealed too.
    static func keep(_ db: Database) throws {
        try db.execute(sql: """
            INSERT OR IGNORE INTO sync_sealed_before_restore (recordType, recordId)
            SELECT recordType, recordId FROM sync_revision
            """)
    }

    /// The ids of those of `changes` whose record this device had seen sealed when it found
    /// the server restored.
    static func among(_ db: Database, _ changes: [RecordChange]) throws -> Set<UUID> {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_sealed_before_restore)") == true else { return [] }
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM sync_sealed_before_restore WHERE recordType = ? AND recordId = ?")
        return try Set(changes.filter { try Bool.fetchOne(statement, arguments: [$0.recordType, $0.recordId.key]) != nil }.map(\.recordId))
    }

    /// Forgets them all: the server holds nothing in plain text any more.
    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_sealed_before_restore")
    }
}
