import Foundation
import GRDB

/// The same work as NoteTaker's, done with plain SQL on a plain SQLite file (WAL, the same
/// durability), as a developer would write it first: rows plus an FTS5 index kept up to date
/// by triggers, ranked search by bm25 over every match.
struct Baseline {
    let queue: DatabaseQueue
    let path: String

    init(path: String) throws {
        self.path = path
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS folder (id TEXT PRIMARY KEY, name TEXT NOT NULL, parentId TEXT);
                CREATE TABLE IF NOT EXISTS note (
                    id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, createdAt REAL NOT NULL,
                    modifiedAt REAL NOT NULL, isPinned INTEGER NOT NULL, folderId TEXT, tagNames TEXT NOT NULL);
                CREATE INDEX IF NOT EXISTS note_list ON note(isPinned DESC, modifiedAt DESC);
                CREATE TABLE IF NOT EXISTS noteTag (noteId TEXT, tagId TEXT, PRIMARY KEY (noteId, tagId)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS noteTag_tag ON noteTag(tagId, noteId);
                CREATE VIRTUAL TABLE IF NOT EXISTS note_fts USING fts5(
                    title, body, tagNames, content = 'note', content_rowid = 'rowid',
                    tokenize = 'unicode61 remove_diacritics 2');
                CREATE TRIGGER IF NOT EXISTS note_ai AFTER INSERT ON note BEGIN
                    INSERT INTO note_fts(rowid, title, body, tagNames) VALUES (new.rowid, new.title, new.body, new.tagNames);
                END;
                CREATE TRIGGER IF NOT EXISTS note_au AFTER UPDATE ON note BEGIN
                    INSERT INTO note_fts(note_fts, rowid, title, body, tagNames)
                    VALUES ('delete', old.rowid, old.title, old.body, old.tagNames);
                    INSERT INTO note_fts(rowid, title, body, tagNames) VALUES (new.rowid, new.title, new.body, new.tagNames);
                END;
                """)
        }
    }

    /// A note as the baseline stores it.
    struct Row {
        var id: String
        var title: String
        var body: String
        var createdAt: Double
        var modifiedAt: Double
        var isPinned: Bool
        var folderId: String?
        var tags: [String]
    }

    func addFolder(id: String, name: String, parentId: String?) throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO folder (id, name, parentId) VALUES (?, ?, ?)", arguments: [id, name, parentId])
        }
    }

    /// Inserts notes in one transaction, row by row, the index kept up to date by the trigger.
    func insert(_ rows: [Row]) throws {
        try queue.write { db in
            let note = try db.makeStatement(sql: """
                INSERT INTO note (id, title, body, createdAt, modifiedAt, isPinned, folderId, tagNames)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let tag = try db.makeStatement(sql: "INSERT OR IGNORE INTO noteTag (noteId, tagId) VALUES (?, ?)")
            for row in rows {
                try note.execute(arguments: [row.id, row.title, row.body, row.createdAt, row.modifiedAt, row.isPinned,
                                             row.folderId, row.tags.joined(separator: "\n")])
                for name in row.tags { try tag.execute(arguments: [row.id, name.lowercased()]) }
            }
        }
    }

    func update(id: String, body: String, modifiedAt: Double) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE note SET body = ?, modifiedAt = ? WHERE id = ?", arguments: [body, modifiedAt, id])
        }
    }

    func firstPage(offset: Int = 0) throws -> [GRDB.Row] {
        try queue.read { db in
            try GRDB.Row.fetchAll(db, sql: """
                SELECT id, title, body, createdAt, modifiedAt, isPinned, folderId, tagNames FROM note
                ORDER BY isPinned DESC, modifiedAt DESC LIMIT 50 OFFSET ?
                """, arguments: [offset])
        }
    }

    /// The plain ranked search: bm25 over every match (with the filters as joins), then the
    /// snippets of the top 50.
    func search(_ query: BenchQuery, folderIds: [String]) throws -> [String] {
        try queue.read { db in
            if let words = query.substrings { return try scan(db, for: words) }
            var conditions = ["note_fts MATCH ?"]
            var arguments: StatementArguments = [query.fts]
            if query.pinned { conditions.append("note.isPinned") }
            if let tag = query.tag {
                conditions.append("note.id IN (SELECT noteId FROM noteTag WHERE tagId = ?)")
                arguments += [tag.lowercased()]
            }
            if query.inFolder {
                conditions.append("note.folderId IN (SELECT value FROM json_each(?))")
                arguments += ["[" + folderIds.map { "\"\($0)\"" }.joined(separator: ",") + "]"]
            }
            let ranked = try Int64.fetchAll(db, sql: """
                SELECT note_fts.rowid FROM note_fts JOIN note ON note.rowid = note_fts.rowid
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY bm25(note_fts, 10.0, 1.0, 5.0) LIMIT 50
                """, arguments: arguments)
            return try String.fetchAll(db, sql: """
                SELECT snippet(note_fts, 1, char(2), char(3), '…', 16) FROM note_fts
                WHERE note_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))
                """, arguments: [query.fts, "[" + ranked.map(String.init).joined(separator: ",") + "]"])
        }
    }

    /// The newest 50 notes containing every word, by a scan of titles and bodies, each with
    /// the text around the first word.
    private func scan(_ db: Database, for words: [String]) throws -> [String] {
        let condition = words.map { _ in "(instr(title, ?) > 0 OR instr(body, ?) > 0)" }.joined(separator: " AND ")
        return try String.fetchAll(db, sql: """
            SELECT substr(body, max(instr(body, ?) - 20, 1), 60) FROM note WHERE \(condition)
            ORDER BY modifiedAt DESC LIMIT 50
            """, arguments: StatementArguments([words[0]] + words.flatMap { [$0, $0] }))
    }

    /// The newest 50 notes whose title or body contains `text` (ASCII case ignored).
    func scan(containing text: String) throws -> [String] {
        try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT title FROM note WHERE title LIKE ?1 OR body LIKE ?1 ORDER BY modifiedAt DESC LIMIT 50
                """, arguments: ["%" + text + "%"])
        }
    }
}
