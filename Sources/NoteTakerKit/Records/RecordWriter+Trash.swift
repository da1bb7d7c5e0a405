import Foundation
import GRDB

/// Notes into the trash, out of it, and deleted for good.
extension RecordWriter {
    /// Moves the notes outside the trash matching `condition` to the trash at `date`;
    /// returns how many moved.
    static func trash(_ db: Database, where condition: String, arguments: StatementArguments = [], at date: Date) throws -> Int {
        let selection = "SELECT id FROM note WHERE trashedAt IS NULL AND (\(condition))"
        let ids = try String.fetchAll(db, sql: selection, arguments: arguments)
        guard !ids.isEmpty else { return 0 }
        let idList = NoteStore.jsonArray(ids)
        try db.execute(
            sql: "UPDATE note SET trashedAt = ? WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [date.storageValue, idList])
        try SearchFields.refresh(db, noteIds: ids)
        for id in ids { try Outbox.record(db, .note, id) }
        return ids.count
    }

    /// Deletes the notes trashed before `date` (see ``purge(_:where:arguments:)``).
    static func purgeTrash(_ db: Database, trashedBefore date: Date) throws -> (Int, Set<String>) {
        try purge(db, where: "trashedAt IS NOT NULL AND trashedAt < ?", arguments: [date.storageValue])
    }

    /// Deletes the notes matching `condition` and their attachments' rows; returns how many
    /// notes went and the content hashes whose files may now be unreferenced.
    static func purge(_ db: Database, where condition: String, arguments: StatementArguments) throws -> (Int, Set<String>) {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM note WHERE \(condition)", arguments: arguments)
        guard !ids.isEmpty else { return (0, []) }
        let idList = NoteStore.jsonArray(ids)
        let attachments = try Row.fetchAll(
            db,
            sql: "SELECT id, contentHash FROM attachment WHERE noteId IN (SELECT value FROM json_each(?))",
            arguments: [idList])
        try db.execute(sql: "DELETE FROM note WHERE id IN (SELECT value FROM json_each(?))", arguments: [idList])
        // The notes' deletions go first, so no device sees an attachment's deletion before
        // its note's: a device whose edit wins over the purge still holds the attachments.
        for id in ids { try Outbox.record(db, .note, id, .delete) }
        for row in attachments { try Outbox.record(db, .attachment, row["id"], .delete) }
        return (ids.count, Set(attachments.map { $0["contentHash"] as String }))
    }

    /// Takes a note out of the trash, and returns it as it now is.
    static func restore(_ db: Database, noteId: String) throws -> Note {
        try db.execute(sql: "UPDATE note SET trashedAt = NULL WHERE id = ?", arguments: [noteId])
        return try finishNoteChange(db, id: noteId)
    }
}
