import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The notes moved into this store from another — into a shared zone's store, or back into the
/// account's (docs/sharing.md §3.5) — whose history the server of this store has not been
/// given yet. The server of the zone a note leaves drops the versions it kept of it with its
/// deletion there, and the zone it enters holds none: the moving device, which took the whole
/// history along, gives it to the server once the note is there, so that the other devices
/// of this zone read it too (the sync engine, at the end of a cycle).
enum MovedHistories {
    static func create(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE moved_history (noteId TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID")
    }

    /// Notes that note `noteId`'s history came here with a move.
    static func mark(_ db: Database, noteId: String) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO moved_history (noteId) VALUES (?)", arguments: [noteId])
    }
}

extension NoteStore {
    /// The notes moved here whose history the server is still to be given, among those it
    /// holds (sent at least once); a note deleted since has none to give, and is forgotten.
    package func movedHistoriesToSend() throws(NoteTakerError) -> [UUID] {
        // Every cycle asks: most have nothing, and a read costs no write.
        guard try read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM moved_history)") }) == true else { return [] }
        return try write { db in
            try db.execute(sql: "DELETE FROM moved_history WHERE noteId NOT IN (SELECT id FROM note)")
            return try String.fetchAll(db, sql: """
                SELECT m.noteId FROM moved_history m JOIN note n ON n.id = m.noteId WHERE n.changeTag IS NOT NULL
                """).compactMap { UUID(key: $0) }
        }
    }

    /// The versions of note `noteId` this device holds, as the server keeps a note's versions:
    /// when each was replaced, and its fields (`title`, `body`, `modifiedAt`, `editedOn`) in
    /// plain text, for the engine to seal.
    package func movedHistory(_ noteId: UUID) throws(NoteTakerError) -> [MovedVersion] {
        try history(noteId: noteId, withBodies: true).compactMap { version in
            guard let body = version.body else { return nil }
            var fields: RecordFields = [
                NoteRecord.Field.title.rawValue: .string(version.title),
                NoteRecord.Field.body.rawValue: .string(body),
                NoteRecord.Field.modifiedAt.rawValue: .number(version.modifiedAt.timeIntervalSince1970),
            ]
            if let device = version.device { fields[NoteRecord.Field.editedOn.rawValue] = .string(device) }
            return MovedVersion(replacedAt: version.replacedAt.timeIntervalSince1970, fields: fields)
        }
    }

    /// Forgets that note `noteId`'s history is to be given to the server: it was.
    package func sentMovedHistory(_ noteId: UUID) throws(NoteTakerError) {
        try write { db in try db.execute(sql: "DELETE FROM moved_history WHERE noteId = ?", arguments: [noteId.key]) }
    }
}
