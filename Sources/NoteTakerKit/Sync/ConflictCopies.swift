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
        try container.encode(noteId.uuidString.lowercased(), forKey: .noteId)
        try container.encode(title, forKey: .title)
        try container.encode(localBody, forKey: .localBody)
        try container.encode(serverBody, forKey: .serverBody)
        try container.encode(copyId?.uuidString.lowercased(), forKey: .copyId)
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
        local: RecordFields, server: RecordFields, at date: Date
    ) throws {
        let title = local["title"]?.string ?? server["title"]?.string ?? ""
        let tagIds = (localWon ? local : server)["tagIds"]?.strings ?? []
        let tagNames = try String.fetchAll(db, sql: "SELECT name FROM tag WHERE id IN (SELECT value FROM json_each(?))",
                                           arguments: [NoteStore.jsonArray(tagIds)])
        let folderId = try String.fetchOne(db, sql: "SELECT folderId FROM note WHERE id = ?", arguments: [noteId]).flatMap(UUID.init(key:))
        let stamp = date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
        let draft = NoteDraft(
            title: String("\(title.isEmpty ? "Untitled" : title) (conflict copy \(stamp))".prefix(NoteStore.maximumTitleLength)),
            body: losingBody, isPinned: false, folderId: folderId, tags: tagNames, createdAt: date, modifiedAt: date)
        let before = try SearchIndexSchema.lastSearchSeq(db)
        var cache = NoteStore.InsertCache()
        let copyId = try NoteStore.insertNote(db, draft, cache: &cache)
        try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
        let localBody = localWon ? (local["body"]?.string ?? "") : losingBody
        let serverBody = localWon ? losingBody : (server["body"]?.string ?? "")
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
    public func resolveConflict(noteId: UUID, keep choice: ConflictResolution) throws(NoteTakerError) {
        let released: Set<String> = try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT copyId, localBody, serverBody FROM sync_conflict WHERE noteId = ?", arguments: [noteId.key]) else {
                throw NoteTakerError.invalidInput("Note \(noteId.key) has no sync conflict to resolve.")
            }
            var released: Set<String> = []
            if choice != .both {
                let body: String = choice == .local ? row["localBody"] : row["serverBody"]
                let current = try Self.fetchNote(db, id: noteId.key)
                try NoteHistory.keep(db, noteId: noteId.key, title: current.title, body: current.body, newBody: body,
                                     modifiedAt: current.modifiedAt, replacedBy: .resolution)
                try db.execute(sql: "UPDATE note SET body = ?, \(Self.touch) WHERE id = ?", arguments: [body, Date().storageValue, noteId.key])
                if let copyId: String = row["copyId"] {
                    released = try Self.purge(db, where: "id = ?", arguments: [copyId]).1
                }
            }
            try db.execute(sql: "DELETE FROM sync_conflict WHERE noteId = ?", arguments: [noteId.key])
            try Outbox.record(db, .note, noteId.key)
            return released
        }
        try removeUnreferencedFiles(released)
    }
}
