import Foundation
import GRDB

/// Substring search: the notes whose title or body contains the text as written, for what
/// word search cannot find (`ffee` in `coffee`, part of a code or a file name).
///
/// It reads every note once, in the order they lie in the file (`NOT INDEXED`: going through
/// an index would read them in a random order, slower warm and several times slower from a
/// cold disk), and keeps the newest matches (``SubstringMatch`` compares the bytes). ASCII
/// letters match in any case, as with `LIKE`.
extension NoteStore {
    static func searchSubstring(_ db: Database, _ query: SearchQuery) throws -> [SearchHit] {
        let text = query.text
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        var conditions = [query.inTrash ? "note.trashedAt IS NOT NULL" : "note.trashedAt IS NULL"]
        var arguments: StatementArguments = []
        if let tag = query.tag {
            conditions.append("note.id IN (SELECT noteId FROM noteTag WHERE tagId = ?)")
            arguments += [try fetchTag(db, named: tag).id.key]
        }
        if let folderId = query.folderId {
            _ = try fetchFolder(db, id: folderId.key)
            conditions.append("note.folderId IN (\(folderSubtreeSQL))")
            arguments += [folderId.key]
        }
        if query.pinnedOnly { conditions.append("note.isPinned") }
        conditions.append("(\(SubstringMatch.name)(note.title, ?) OR \(SubstringMatch.name)(note.body, ?))")
        arguments += [text, text]
        arguments += [query.limit]
        let notes = try fetchNotes(
            db,
            sql: """
                SELECT \(Columns.note) FROM note NOT INDEXED
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY note.modifiedAt DESC, note.rowid DESC LIMIT ?
                """,
            arguments: arguments)
        return notes.map { note in
            SearchHit(note: note, snippet: Snippet.around(text, in: note.body), rank: 0)
        }
    }
}
