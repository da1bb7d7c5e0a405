import Foundation
import GRDB

/// Deleting notes, as Apple Notes' "Recently Deleted": a deleted note waits in the trash,
/// where it can be restored or purged; the trash empties itself of notes older than 30 days.
extension NoteStore {
    /// How long a note stays in the trash before it is purged for good: 30 days.
    public static let trashRetention: TimeInterval = 30 * 24 * 60 * 60

    /// Moves notes to the trash; returns how many moved (notes already there are skipped).
    @discardableResult
    public func trashNotes(ids: [UUID]) throws(NoteTakerError) -> Int {
        try write { db in
            for id in ids { _ = try Self.fetchNote(db, id: id.key) }
            return try Self.trash(db, where: "id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(ids)], at: sources.now)
        }
    }

    /// Moves every note outside the trash to the trash; returns how many moved.
    @discardableResult
    public func trashAllNotes() throws(NoteTakerError) -> Int {
        try write { db in try Self.trash(db, where: "1", at: sources.now) }
    }

    /// Takes a note out of the trash, back into its folder if that folder still exists.
    public func restoreNote(id: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            let note = try Self.fetchNote(db, id: id.key)
            guard note.isTrashed else { throw NoteTakerError.noteNotInTrash(id.key) }
            try db.execute(sql: "UPDATE note SET trashedAt = NULL WHERE id = ?", arguments: [id.key])
            return try Self.finishNoteChange(db, id: id.key)
        }
    }

    /// Deletes notes in the trash for good, with their attachments; returns how many.
    ///
    /// - Throws: ``NoteTakerError/noteNotInTrash(_:)`` when one of them is not in the trash
    ///   (nothing is deleted then).
    @discardableResult
    public func purgeNotes(ids: [UUID]) throws(NoteTakerError) -> Int {
        let (count, hashes) = try write { db in
            for id in ids where try Self.fetchNote(db, id: id.key).trashedAt == nil {
                throw NoteTakerError.noteNotInTrash(id.key)
            }
            return try Self.purge(db, where: "id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(ids)])
        }
        try removeUnreferencedFiles(hashes)
        return count
    }

    /// Deletes a note for good when it holds nothing — no title, body, tags or attachments,
    /// and no history — as a "New note" opened and left is; returns whether it did. A note
    /// with anything in it is left as it is.
    @discardableResult
    public func discardIfEmpty(id: UUID) throws(NoteTakerError) -> Bool {
        try write { db in
            let note = try Self.fetchNote(db, id: id.key)
            let blank = { (text: String) in text.allSatisfy(\.isWhitespace) }
            guard blank(note.title), blank(note.body), note.tags.isEmpty, note.attachments.isEmpty,
                  try Bool.fetchOne(db, sql: "SELECT 1 FROM note_version WHERE noteId = ?", arguments: [id.key]) != true
            else { return false }
            _ = try Self.purge(db, where: "id = ?", arguments: [id.key])
            return true
        }
    }

    /// Purges the notes that have been in the trash since before `date` (every trashed note
    /// when `nil`); returns how many.
    @discardableResult
    public func emptyTrash(trashedBefore date: Date? = nil) throws(NoteTakerError) -> Int {
        let (count, hashes) = try write { db in try Self.purgeTrash(db, trashedBefore: date ?? .distantFuture) }
        try removeUnreferencedFiles(hashes)
        return count
    }

    /// Purges the notes that have been in the trash longer than ``trashRetention``.
    @discardableResult
    public func purgeExpiredTrash(now date: Date? = nil) throws(NoteTakerError) -> Int {
        let now = date ?? sources.now
        return try emptyTrash(trashedBefore: now.addingTimeInterval(-Self.trashRetention))
    }
}

extension NoteStore {
    static func trash(_ db: Database, where condition: String, arguments: StatementArguments = [], at date: Date) throws -> Int {
        let selection = "SELECT id FROM note WHERE trashedAt IS NULL AND (\(condition))"
        let ids = try String.fetchAll(db, sql: selection, arguments: arguments)
        guard !ids.isEmpty else { return 0 }
        let idList = jsonArray(ids)
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
        let idList = jsonArray(ids)
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

    /// A JSON array of ids, to pass a list as one statement argument (`json_each`).
    static func jsonArray(_ ids: [UUID]) -> String { jsonArray(ids.map(\.key)) }

    static func jsonArray(_ ids: [String]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
