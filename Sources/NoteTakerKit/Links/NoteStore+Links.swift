import Foundation
import GRDB

/// A note that links to another, or is linked from it: its id and title, and for a backlink the
/// words around the link.
public struct LinkedNote: Sendable, Hashable, Encodable {
    /// The note.
    public var id: UUID
    /// Its title.
    public var title: String
    /// For a backlink, the line around the link as text; empty for an outgoing link.
    public var context: String

    /// Describes a linked note.
    public init(id: UUID, title: String, context: String) {
        self.id = id
        self.title = title
        self.context = context
    }

    private enum CodingKeys: String, CodingKey { case id, title, context }

    /// Encodes the id as the lowercase key the rest of the API uses.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.key, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(context, forKey: .context)
    }
}

extension NoteStore {
    /// The notes `noteId` links to, in the order of its text; a link to a note that is not
    /// here (purged, or not synced yet) is left out.
    public func links(from noteId: UUID) throws(NoteTakerError) -> [LinkedNote] {
        try read { db in
            let note = try Self.fetchNote(db, id: noteId.key)
            let targets = NoteLinks.targets(in: note.body)
            let titles = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT id, title FROM note WHERE id IN (SELECT value FROM json_each(?)) AND trashedAt IS NULL
                """, arguments: [Self.jsonArray(targets)]).map { ($0["id"] as String, $0["title"] as String) })
            return targets.compactMap { id in
                titles[id].flatMap { title in UUID(key: id).map { LinkedNote(id: $0, title: title, context: "") } }
            }
        }
    }

    /// The notes that link to `noteId` (not those in the trash), most recently changed first,
    /// each with the line around its link.
    public func backlinks(to noteId: UUID) throws(NoteTakerError) -> [LinkedNote] {
        try read { db in
            _ = try Self.fetchNote(db, id: noteId.key)
            return try Row.fetchAll(db, sql: """
                SELECT note.id, note.title, note.body FROM note_link JOIN note ON note.id = note_link.sourceId
                WHERE note_link.targetId = ? AND note.trashedAt IS NULL AND note.id <> ?
                ORDER BY note.modifiedAt DESC
                """, arguments: [noteId.key, noteId.key]).compactMap { row in
                    UUID(key: row["id"]).map { LinkedNote(id: $0, title: row["title"], context: NoteLinks.context(of: noteId.key, in: row["body"])) }
                }
        }
    }

    /// Notes whose title starts with `prefix` (case ignored; an exact title first), not in the
    /// trash, for completing a `[[` link; at most `limit`.
    public func notesTitled(prefix: String, limit: Int = 10) throws(NoteTakerError) -> [LinkedNote] {
        let wanted = prefix.trimmingCharacters(in: .whitespaces)
        return try read { db in
            let escaped = wanted.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            return try Row.fetchAll(db, sql: """
                SELECT id, title FROM note WHERE trashedAt IS NULL AND title LIKE ? ESCAPE '\\'
                ORDER BY title = ? COLLATE NOCASE DESC, length(title), title COLLATE NOCASE LIMIT ?
                """, arguments: [escaped + "%", wanted, max(1, min(limit, 100))]).compactMap { row in
                    UUID(key: row["id"]).map { LinkedNote(id: $0, title: row["title"], context: "") }
                }
        }
    }

    /// Every note outside the trash by its title in lower case (a title two notes share lists
    /// both): what an imported link by name may point to, read once for a whole import.
    public func noteIdsByTitle() throws(NoteTakerError) -> [String: [UUID]] {
        try read { db in
            var found: [String: [UUID]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, title FROM note WHERE trashedAt IS NULL")
            while let row = try rows.next() {
                guard let id = UUID(key: row["id"]) else { continue }
                found[(row["title"] as String).lowercased(), default: []].append(id)
            }
            return found
        }
    }

    /// The address scheme of a link to a note: `note:` then its id.
    public static let linkScheme = NoteLinks.scheme

    /// The notes a Markdown text links to (`[text](note:ID)`), in order, each once.
    public static func linkedIds(in body: String) -> [UUID] {
        NoteLinks.targets(in: body).compactMap(UUID.init(key:))
    }

    /// The Markdown of a link to a note: `[Title](note:ID)`, the title's brackets escaped.
    public static func markdownLink(to note: Note) -> String {
        "[\(NoteLinks.linkText(note.displayTitle))](\(NoteLinks.scheme)\(note.id.key))"
    }
}
