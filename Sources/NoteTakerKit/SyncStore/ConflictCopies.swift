import Foundation
import GRDB
import NoteTakerSyncProtocol

/// A note whose body changed on two devices in ways that could not be merged.
public struct SyncConflict: Sendable, Hashable, Codable {
    /// The note, which holds the merge policy's winning body.
    public var noteId: UUID
    /// The note's title.
    public var title: String
    /// This device's version of the body.
    public var localBody: String
    /// The server's version of the body.
    public var serverBody: String
    /// The note holding the losing body, unless it has since been deleted.
    public var copyId: UUID?
    /// When the conflict was found.
    public var createdAt: Date

    /// Encodes every field, `null` for absent values, ids in lowercase.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(noteId.key, forKey: .noteId)
        try container.encode(title, forKey: .title)
        try container.encode(localBody, forKey: .localBody)
        try container.encode(serverBody, forKey: .serverBody)
        try container.encode(copyId?.key, forKey: .copyId)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// Which version a resolved conflict keeps.
public enum ConflictResolution: String, Sendable, CaseIterable {
    /// This device's body; the conflict copy is deleted.
    case local
    /// The server's body; the conflict copy is deleted.
    case server
    /// Both: the note and its conflict copy stay as they are.
    case both
}

/// Keeping the losing side of an unmergeable body as a note of its own.
enum ConflictCopies {
    /// Creates the conflict copy and remembers both versions; marks the note `conflict`.
    static func keep(
        _ db: Database, noteId: String, losingBody: String, localWon: Bool,
        local: RecordFields, server: RecordFields, at date: Date, sources: StoreSources
    ) throws {
        let title = local[NoteRecord.Field.title.rawValue]?.string ?? server[NoteRecord.Field.title.rawValue]?.string ?? ""
        let tagIds = (localWon ? local : server)[NoteRecord.Field.tagIds.rawValue]?.strings ?? []
        let tagNames = try String.fetchAll(db, sql: "SELECT name FROM tag WHERE id IN (SELECT value FROM json_each(?))",
                                           arguments: [NoteStore.jsonArray(tagIds)])
        let folderId = try String.fetchOne(db, sql: "SELECT folderId FROM note WHERE id = ?", arguments: [noteId]).flatMap(UUID.init(key:))
        let stamp = date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
        let draft = NoteDraft(
            title: String("\(title.isEmpty ? "Untitled" : title) (conflict copy \(stamp))".prefix(NoteStore.maximumTitleLength)),
            body: losingBody, isPinned: false, folderId: folderId, tags: tagNames, createdAt: date, modifiedAt: date)
        let before = try SearchIndexSchema.lastSearchSeq(db)
        var cache = RecordWriter.InsertCache()
        let copyId = try RecordWriter.insertNote(db, draft, cache: &cache, sources: sources)
        try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
        let localBody = localWon ? (local[NoteRecord.Field.body.rawValue]?.string ?? "") : losingBody
        let serverBody = localWon ? losingBody : (server[NoteRecord.Field.body.rawValue]?.string ?? "")
        try db.execute(sql: """
            INSERT OR REPLACE INTO sync_conflict (noteId, copyId, localBody, serverBody, createdAt) VALUES (?, ?, ?, ?, ?)
            """, arguments: [noteId, copyId, localBody, serverBody, date.storageValue])
        try db.execute(sql: "UPDATE note SET syncStatus = 'conflict' WHERE id = ?", arguments: [noteId])
    }
}

extension NoteStore {
    /// The notes in conflict, oldest first.
    public func conflicts() throws(NoteTakerError) -> [SyncConflict] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.noteId, n.title, c.localBody, c.serverBody, c.copyId, c.createdAt
                FROM sync_conflict c JOIN note n ON n.id = c.noteId ORDER BY c.createdAt
                """).compactMap { row in
                guard let id = row.uuid("noteId") else { return nil }
                return SyncConflict(
                    noteId: id, title: row["title"], localBody: row["localBody"], serverBody: row["serverBody"],
                    copyId: row.uuid("copyId"), createdAt: row.date("createdAt") ?? Date())
            }
        }
    }

    /// Resolves a conflict: keeps this device's body, the server's, or both notes.
    ///
    /// Nothing is thrown away silently: both bodies end in the note's history, and a conflict
    /// copy that was edited after the conflict is kept as a note of its own (the answer says
    /// so) instead of being deleted.
    @discardableResult
    public func resolveConflict(noteId: UUID, keep choice: ConflictResolution) throws(NoteTakerError) -> ConflictResolutionOutcome {
        let (released, outcome): (Set<String>, ConflictResolutionOutcome) = try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT copyId, localBody, serverBody FROM sync_conflict WHERE noteId = ?", arguments: [noteId.key]) else {
                throw NoteTakerError.noConflict(noteId.key)
            }
            var released: Set<String> = []
            var outcome = ConflictResolutionOutcome.resolved
            if choice != .both {
                let chosen: String = choice == .local ? row["localBody"] : row["serverBody"]
                let other: String = choice == .local ? row["serverBody"] : row["localBody"]
                let current = try Self.fetchNote(db, id: noteId.key)
                // Both sides go into the history, as if the note had held the other one.
                let now = sources.now
                var text = current.body
                for next in [other, chosen] where next != text {
                    try NoteHistory.keep(db, noteId: noteId.key, title: current.title, body: text, newBody: next,
                                         modifiedAt: current.modifiedAt, replacedBy: .resolution, now: now)
                    text = next
                }
                try RecordWriter.resolveBody(db, noteId: noteId.key, body: chosen, at: now)
                if let copyId: String = row["copyId"],
                   let copyBody = try String.fetchOne(db, sql: "SELECT body FROM note WHERE id = ?", arguments: [copyId]) {
                    // The copy was made with one of the two texts; anything else is an edit.
                    if copyBody == chosen || copyBody == other {
                        released = try RecordWriter.purge(db, where: "id = ?", arguments: [copyId]).1
                    } else {
                        outcome = .editedCopyKept(copyId: UUID(key: copyId) ?? noteId)
                    }
                }
            }
            try db.execute(sql: "DELETE FROM sync_conflict WHERE noteId = ?", arguments: [noteId.key])
            try Outbox.record(db, .note, noteId.key)
            return (released, outcome)
        }
        try removeUnreferencedFiles(released)
        return outcome
    }
}

/// What resolving a conflict did besides keeping the chosen body.
public enum ConflictResolutionOutcome: Sendable, Hashable {
    /// Resolved; the conflict copy (if any) is gone, its text in the note's history.
    case resolved
    /// The conflict copy had been edited since the conflict, so it was kept as a note.
    case editedCopyKept(copyId: UUID)
}
