import Foundation
import GRDB
@testable import NoteTakerKit

/// Everything that syncs, read straight from a store, in a canonical order.
struct Snapshot: Equatable {
    struct NoteRow: Equatable {
        var id, title, body: String
        var createdAt, modifiedAt: Double
        var isPinned: Bool
        var folderId: String?
        var trashedAt: Double?
        var tags: [String]
    }

    var notes: [NoteRow]
    var folders: [String]
    var tags: [String]

    /// Checks the database and its search index, then reads the snapshot.
    static func take(_ store: NoteStore) throws -> Snapshot {
        try store.writer.write { db in
            // FTS5 checks its index against the notes: a note indexed twice or not at all fails.
            try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
            let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check")
            if integrity != "ok" { throw Simulation.Failure(seed: 0, problem: "integrity_check: \(integrity ?? "")") }
        }
        return try store.writer.read { db in
            let notes = try Row.fetchAll(db, sql: """
                SELECT id, title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt,
                    (SELECT group_concat(tagId) FROM (SELECT tagId FROM noteTag WHERE noteId = note.id ORDER BY tagId)) AS tags
                FROM note ORDER BY id
                """).map { row in
                NoteRow(id: row["id"], title: row["title"], body: row["body"], createdAt: row["createdAt"],
                        modifiedAt: row["modifiedAt"], isPinned: row["isPinned"], folderId: row["folderId"],
                        trashedAt: row["trashedAt"], tags: (row["tags"] as String?)?.split(separator: ",").map(String.init) ?? [])
            }
            let folders = try String.fetchAll(db, sql: """
                SELECT id || '|' || name || '|' || IFNULL(parentId, '-') || '|' || sortOrder || '|' || modifiedAt FROM folder ORDER BY id
                """)
            let tags = try String.fetchAll(db, sql: "SELECT id || '|' || name FROM tag ORDER BY id")
            return Snapshot(notes: notes, folders: folders, tags: tags)
        }
    }

    func difference(from other: Snapshot) -> String {
        var lines: [String] = []
        let mine = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
        let theirs = Dictionary(uniqueKeysWithValues: other.notes.map { ($0.id, $0) })
        for id in Set(mine.keys).union(theirs.keys).sorted() where mine[id] != theirs[id] {
            lines.append("note \(id):\n  \(String(describing: mine[id]))\n  \(String(describing: theirs[id]))")
        }
        if folders != other.folders { lines.append("folders:\n  \(folders)\n  \(other.folders)") }
        if tags != other.tags { lines.append("tags:\n  \(tags)\n  \(other.tags)") }
        return lines.joined(separator: "\n")
    }
}
