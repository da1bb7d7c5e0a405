import Foundation
import GRDB

/// The only code that writes the rows of notes, folders, tags and attachments, inside the
/// caller's write transaction, and with each row what goes with it: the tag links, the
/// note's history, its search fields, the outbox entry, the rules of folders and tags.
///
/// Callers check what a person asked for and read what they need (``NoteStore``'s public
/// methods, imports, sync); the writes are here, one function per kind of change, so that a
/// rule about a row (and anything that must see every write, such as encryption) lives in one
/// place. Changes from this device go into the outbox; the server's records, written by
/// `RecordWriter+Synced.swift`, do not. The sync columns of a row (its change tag, base and
/// status) are the sync engine's bookkeeping, written by ``SyncApply``.
enum RecordWriter {
    /// The SQL assignments that mark a note as just modified: a new `modifiedAt` (the one
    /// statement argument) and the next search sequence, so the index sees it as newest.
    static let touch = "modifiedAt = ?, searchSeq = (SELECT MAX(searchSeq) + 1 FROM note)"

    /// What a run of inserts in one transaction remembers: folder chains and tags already
    /// looked up.
    struct InsertCache {
        var folderChains: [String: [String]] = [:]
        var tags: [String: Tag] = [:]
    }
}
