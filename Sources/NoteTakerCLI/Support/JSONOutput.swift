import Foundation
import NoteTakerKit

/// The JSON that `--json` prints: stable field names, documented in docs/cli-json.md.
/// Absent values are `null`, never missing; dates are ISO 8601 in UTC with milliseconds.
package enum JSONOutput {
    package static func print(_ value: some Encodable) throws {
        let data = try encoder(pretty: true).encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// The value as one line of JSON (for streams of events, as `sync --watch --json` prints).
    package static func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder(pretty: false).encode(value), as: UTF8.self)
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return encoder
    }
}

/// A note as `--json` prints it; `show` adds `editedBy` (docs/cli-json.md).
struct NoteJSON: Encodable {
    let note: Note
    /// `show`'s: in a shared folder, the account that wrote the text as it is now, when
    /// another; `.some(nil)` prints null, `nil` leaves the key out (lists).
    var editedBy: String?? = nil

    enum CodingKeys: String, CodingKey {
        case id, title, body, createdAt, modifiedAt, isPinned, folderId, tags, attachments, syncStatus, trashedAt, editedBy
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(note.id.key, forKey: .id)
        try container.encode(note.title, forKey: .title)
        try container.encode(note.body, forKey: .body)
        try container.encode(note.createdAt, forKey: .createdAt)
        try container.encode(note.modifiedAt, forKey: .modifiedAt)
        try container.encode(note.isPinned, forKey: .isPinned)
        try container.encode(note.folderId?.key, forKey: .folderId)
        try container.encode(note.tags, forKey: .tags)
        try container.encode(note.attachments.map(AttachmentJSON.init), forKey: .attachments)
        try container.encode(note.sync.status.rawValue, forKey: .syncStatus)
        try container.encode(note.trashedAt, forKey: .trashedAt)
        if let editedBy { try container.encode(editedBy, forKey: .editedBy) }
    }
}

/// A search hit: the note's fields plus `snippet` (matches between `[` and `]`) and `rank`
/// (higher is more relevant).
struct SearchHitJSON: Encodable {
    let hit: SearchHit

    enum CodingKeys: String, CodingKey { case snippet, rank }

    func encode(to encoder: any Encoder) throws {
        try NoteJSON(note: hit.note).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hit.snippet(open: "[", close: "]"), forKey: .snippet)
        try container.encode(hit.rank, forKey: .rank)
    }
}

/// An attachment as `--json` prints it.
struct AttachmentJSON: Encodable {
    let id: String
    let noteId: String
    let kind: String
    let fileName: String
    let fileSize: Int64
    let contentHash: String
    let createdAt: Date

    init(_ attachment: Attachment) {
        id = attachment.id.key
        noteId = attachment.noteId.key
        kind = attachment.kind.rawValue
        fileName = attachment.fileName
        fileSize = attachment.fileSize
        contentHash = attachment.contentHash
        createdAt = attachment.createdAt
    }
}

/// A folder as `folder list --json` prints it: a flat list, parents before children.
struct FolderJSON: Encodable {
    let id: String
    let name: String
    let icon: String?
    let sortOrder: Int
    let parentId: String?
    let path: String
    let noteCount: Int
    let totalNoteCount: Int
    let createdAt: Date
    let modifiedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, icon, sortOrder, parentId, path, noteCount, totalNoteCount, createdAt, modifiedAt
    }

    init(_ node: FolderNode) {
        id = node.folder.id.key
        name = node.folder.name
        icon = node.folder.icon
        sortOrder = node.folder.sortOrder
        parentId = node.folder.parentId?.key
        path = node.path
        noteCount = node.noteCount
        totalNoteCount = node.totalNoteCount
        createdAt = node.folder.createdAt
        modifiedAt = node.folder.modifiedAt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(icon, forKey: .icon)
        try container.encode(sortOrder, forKey: .sortOrder)
        try container.encode(parentId, forKey: .parentId)
        try container.encode(path, forKey: .path)
        try container.encode(noteCount, forKey: .noteCount)
        try container.encode(totalNoteCount, forKey: .totalNoteCount)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(modifiedAt, forKey: .modifiedAt)
    }

    /// The tree flattened depth-first, so each parent comes before its children.
    static func flatten(_ nodes: [FolderNode]) -> [FolderJSON] {
        nodes.flatMap { [FolderJSON($0)] + flatten($0.children) }
    }
}

/// A tag as `tag list --json` prints it.
struct TagJSON: Encodable {
    let id: String
    let name: String
    let noteCount: Int

    init(_ summary: TagSummary) {
        id = summary.tag.id.key
        name = summary.tag.name
        noteCount = summary.noteCount
    }
}
