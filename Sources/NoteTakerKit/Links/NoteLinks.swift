import Foundation
import GRDB

/// Links between notes, written in a note's Markdown as `[text](note:ID)`: by id, so renaming
/// a note never breaks one, and plain Markdown other tools can read.
///
/// The store keeps an index of them (`note_link`: which note links to which) with triggers on
/// the note table: every write of a body — an edit, sync, an import, a merge, a restore —
/// re-reads that body's links through `note_link_targets`, a function of the text alone, so no
/// write path can forget it. Purging a note drops the links it made; links to a note that is
/// gone stay in the text and the index, and simply lead nowhere until it comes back.
enum NoteLinks {
    /// The address scheme of a link to a note.
    static let scheme = "note:"
    private static let marker = Array("](note:".utf8)

    /// The ids `body` links to, in order of appearance, each once (lowercase).
    static func targets(in body: String) -> [String] {
        let bytes = Array(body.utf8)
        guard bytes.count > marker.count else { return [] }
        var found: [String] = []
        var index = 0
        while index + marker.count + 36 <= bytes.count {
            if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) {
                let start = index + marker.count
                if let id = UUID(uuidString: String(decoding: bytes[start..<(start + 36)], as: UTF8.self))?.key,
                   !found.contains(id) {
                    found.append(id)
                }
                index = start
            } else {
                index += 1
            }
        }
        return found
    }

    /// Registers `note_link_targets(body)`: the ids a body links to, as a JSON array.
    static func register(_ db: Database) {
        db.add(function: DatabaseFunction("note_link_targets", argumentCount: 1, pure: true) { values in
            guard let body = String.fromDatabaseValue(values[0]) else { return "[]" }
            return NoteStore.jsonArray(targets(in: body))
        })
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE note_link (
                sourceId TEXT NOT NULL,
                targetId TEXT NOT NULL,
                PRIMARY KEY (sourceId, targetId)
            ) WITHOUT ROWID;
            CREATE INDEX note_link_target ON note_link(targetId, sourceId);
            CREATE TRIGGER note_links_inserted AFTER INSERT ON note WHEN NEW.body LIKE '%](note:%' BEGIN
                INSERT OR IGNORE INTO note_link SELECT NEW.id, value FROM json_each(note_link_targets(NEW.body));
            END;
            CREATE TRIGGER note_links_updated AFTER UPDATE OF body ON note WHEN OLD.body IS NOT NEW.body BEGIN
                DELETE FROM note_link WHERE sourceId = NEW.id;
                INSERT OR IGNORE INTO note_link SELECT NEW.id, value FROM json_each(note_link_targets(NEW.body))
                    WHERE NEW.body LIKE '%](note:%';
            END;
            CREATE TRIGGER note_links_deleted AFTER DELETE ON note BEGIN
                DELETE FROM note_link WHERE sourceId = OLD.id;
            END;
            INSERT OR IGNORE INTO note_link
                SELECT note.id, link.value FROM note, json_each(note_link_targets(note.body)) AS link
                WHERE note.body LIKE '%](note:%';
            """)
    }

    /// The line of `body` around its first link to `target`, as text: links shown by their
    /// text, at most about 200 characters centred on the link.
    static func context(of target: String, in body: String) -> String {
        guard let link = body.range(of: "](note:\(target))", options: .caseInsensitive) else { return "" }
        let lineStart = body[..<link.lowerBound].lastIndex(of: "\n").map(body.index(after:)) ?? body.startIndex
        let lineEnd = body[link.upperBound...].firstIndex(of: "\n") ?? body.endIndex
        var line = String(body[lineStart..<lineEnd])
        // `[text](note:…)` and other links read as their text.
        while let open = line.range(of: "](") , let textStart = line[..<open.lowerBound].lastIndex(of: "["),
              let close = line[open.upperBound...].firstIndex(of: ")") {
            line.replaceSubrange(textStart...close, with: line[line.index(after: textStart)..<open.lowerBound])
        }
        line = line.trimmingCharacters(in: .whitespaces)
        while let first = line.first, "#>-*+ ".contains(first) { line.removeFirst() }
        if line.hasPrefix("[ ] ") || line.hasPrefix("[x] ") { line.removeFirst(4) }
        return line.count <= 200 ? line : String(line.prefix(197)) + "…"
    }
}
