import Foundation
import NoteTakerKit

/// A note as the list shows it: no body, its first line instead.
struct NoteSummaryJSON: Encodable {
    var id: String
    var title: String
    var firstLine: String
    var createdAt: Date
    var modifiedAt: Date
    var isPinned: Bool
    var folderId: String?
    var tags: [String]
    var trashedAt: Date?
    var sync: SyncJSON

    init(_ note: Note) {
        id = note.id.lowercased
        title = note.title
        firstLine = note.firstLine
        createdAt = note.createdAt
        modifiedAt = note.modifiedAt
        isPinned = note.isPinned
        folderId = note.folderId?.lowercased
        tags = note.tags
        trashedAt = note.trashedAt
        sync = SyncJSON(note.sync)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(firstLine, forKey: .firstLine)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(modifiedAt, forKey: .modifiedAt)
        try container.encode(isPinned, forKey: .isPinned)
        try container.encode(folderId, forKey: .folderId)
        try container.encode(tags, forKey: .tags)
        try container.encode(trashedAt, forKey: .trashedAt)
        try container.encode(sync, forKey: .sync)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, firstLine, createdAt, modifiedAt, isPinned, folderId, tags, trashedAt, sync
    }
}

/// A page of the note list; `nextOffset` is `null` on the last page.
struct NotePageJSON: Encodable {
    var notes: [NoteSummaryJSON]
    var nextOffset: Int?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notes, forKey: .notes)
        try container.encode(nextOffset, forKey: .nextOffset)
    }

    private enum CodingKeys: String, CodingKey { case notes, nextOffset }
}

/// A whole note: the body, its rendered HTML, attachments and sync state.
struct NoteJSON: Encodable {
    var id: String
    var title: String
    var body: String
    var html: String
    var createdAt: Date
    var modifiedAt: Date
    var isPinned: Bool
    var folderId: String?
    var tags: [String]
    var attachments: [AttachmentJSON]
    var trashedAt: Date?
    var sync: SyncJSON

    init(_ note: Note) {
        id = note.id.lowercased
        title = note.title
        body = note.body
        html = MarkdownRenderer.html(note.body)
        createdAt = note.createdAt
        modifiedAt = note.modifiedAt
        isPinned = note.isPinned
        folderId = note.folderId?.lowercased
        tags = note.tags
        attachments = note.attachments.map(AttachmentJSON.init)
        trashedAt = note.trashedAt
        sync = SyncJSON(note.sync)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(html, forKey: .html)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(modifiedAt, forKey: .modifiedAt)
        try container.encode(isPinned, forKey: .isPinned)
        try container.encode(folderId, forKey: .folderId)
        try container.encode(tags, forKey: .tags)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(trashedAt, forKey: .trashedAt)
        try container.encode(sync, forKey: .sync)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, body, html, createdAt, modifiedAt, isPinned, folderId, tags, attachments, trashedAt, sync
    }
}

/// A row's sync state: `pending`, `syncing`, `synced`, `conflict` or `error` with its message.
struct SyncJSON: Encodable {
    var status: SyncStatus
    var errorMessage: String?
    var lastSyncedAt: Date?

    init(_ sync: SyncMetadata) {
        status = sync.status
        errorMessage = sync.errorMessage
        lastSyncedAt = sync.lastSyncedAt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(errorMessage, forKey: .errorMessage)
        try container.encode(lastSyncedAt, forKey: .lastSyncedAt)
    }

    private enum CodingKeys: String, CodingKey { case status, errorMessage, lastSyncedAt }
}

/// An attachment, with the address of its file.
struct AttachmentJSON: Encodable {
    var id: String
    var noteId: String
    var kind: String
    var fileName: String
    var fileSize: Int64
    var contentHash: String
    var createdAt: Date
    var url: String

    init(_ attachment: Attachment) {
        id = attachment.id.lowercased
        noteId = attachment.noteId.lowercased
        kind = attachment.kind.rawValue
        fileName = attachment.fileName
        fileSize = attachment.fileSize
        contentHash = attachment.contentHash
        createdAt = attachment.createdAt
        url = AttachmentJSON.contentPath(attachment.id)
    }

    /// Where the API serves an attachment's file.
    static func contentPath(_ id: UUID) -> String {
        "/api/v1/attachments/\(id.lowercased)/content"
    }
}

/// A folder in the tree, with its counts and subfolders.
struct FolderJSON: Encodable {
    var id: String
    var name: String
    var parentId: String?
    var path: String
    var noteCount: Int
    var totalNoteCount: Int
    var children: [FolderJSON]

    init(_ node: FolderNode) {
        id = node.folder.id.lowercased
        name = node.folder.name
        parentId = node.folder.parentId?.lowercased
        path = node.path
        noteCount = node.noteCount
        totalNoteCount = node.totalNoteCount
        children = node.children.map(FolderJSON.init)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(parentId, forKey: .parentId)
        try container.encode(path, forKey: .path)
        try container.encode(noteCount, forKey: .noteCount)
        try container.encode(totalNoteCount, forKey: .totalNoteCount)
        try container.encode(children, forKey: .children)
    }

    private enum CodingKeys: String, CodingKey { case id, name, parentId, path, noteCount, totalNoteCount, children }
}

/// A tag with the number of notes carrying it.
struct TagJSON: Encodable {
    var name: String
    var noteCount: Int
}

/// A search hit: the note's summary and the snippet as HTML, matches in `<mark>`.
struct SearchHitJSON: Encodable {
    var note: NoteSummaryJSON
    var snippetHTML: String
}

extension UUID {
    /// The id as the API writes it: lowercase, like the command line.
    var lowercased: String { uuidString.lowercased() }
}
