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
            return try RecordWriter.trash(db, where: "id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(ids)], at: sources.now)
        }
    }

    /// Moves every note outside the trash to the trash; returns how many moved.
    @discardableResult
    public func trashAllNotes() throws(NoteTakerError) -> Int {
        try write { db in try RecordWriter.trash(db, where: "1", at: sources.now) }
    }

    /// Takes a note out of the trash, back into its folder if that folder still exists.
    public func restoreNote(id: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            let note = try Self.fetchNote(db, id: id.key)
            guard note.isTrashed else { throw NoteTakerError.noteNotInTrash(id.key) }
            return try RecordWriter.restore(db, noteId: id.key)
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
            return try RecordWriter.purge(db, where: "id IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(ids)])
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
            _ = try RecordWriter.purge(db, where: "id = ?", arguments: [id.key])
            return true
        }
    }

    /// Purges the notes that have been in the trash since before `date` (every trashed note
    /// when `nil`); returns how many.
    @discardableResult
    public func emptyTrash(trashedBefore date: Date? = nil) throws(NoteTakerError) -> Int {
        let (count, hashes) = try write { db in try RecordWriter.purgeTrash(db, trashedBefore: date ?? .distantFuture) }
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
    /// A JSON array of ids, to pass a list as one statement argument (`json_each`).
    static func jsonArray(_ ids: [UUID]) -> String { jsonArray(ids.map(\.key)) }

    static func jsonArray(_ ids: [String]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
