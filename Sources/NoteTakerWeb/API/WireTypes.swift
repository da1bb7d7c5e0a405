import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// A note as the list shows it: no body, its first line instead.
struct NoteSummaryJSON: Encodable {
    var id: String
    var title: String
    var firstLine: String
    var createdAt: Date
    var modifiedAt: Date
    var isPinned: Bool
    @Nullable var folderId: String?
    var tags: [String]
    @Nullable var trashedAt: Date?
    var sync: SyncJSON
    /// The thumbnail of the note's first picture, shown beside it in lists.
    @Nullable var thumbnailUrl: String?

    init(_ note: Note) {
        id = note.id.key
        title = note.title
        firstLine = MarkdownDocument.previewText(of: note.body)
        createdAt = note.createdAt
        modifiedAt = note.modifiedAt
        isPinned = note.isPinned
        folderId = note.folderId?.key
        tags = note.tags
        trashedAt = note.trashedAt
        sync = SyncJSON(note.sync)
        thumbnailUrl = note.attachments.first { $0.kind == .image }.flatMap { AttachmentJSON($0).thumbnailUrl }
    }
}

/// A page of the note list; `nextOffset` is `null` on the last page.
struct NotePageJSON: Encodable {
    var notes: [NoteSummaryJSON]
    @Nullable var nextOffset: Int?
}

/// A whole note: the summary's fields, and the body, its rendered HTML and the attachments.
struct NoteJSON: Encodable {
    var summary: NoteSummaryJSON
    var body: String
    var html: String
    var attachments: [AttachmentJSON]
    var revision: Int64
    /// In a shared folder, the account that wrote the text as it is now, when another.
    var editedBy: String?

    /// The note, its HTML rendered with the store's ``Preferences``.
    init(_ note: Note, store: NoteStore) throws(WebAPIError) {
        summary = NoteSummaryJSON(note)
        body = note.body
        revision = note.revision
        html = MarkdownRenderer.html(note.body, preferences: try storeCall { () throws(NoteTakerError) in try store.preferences() })
        attachments = note.attachments.map(AttachmentJSON.init)
        editedBy = try storeCall { () throws(NoteTakerError) in try store.lastAuthor(of: note.id) }
    }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(body, forKey: .body)
        try container.encode(html, forKey: .html)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(revision, forKey: .revision)
        try container.encode(editedBy, forKey: .editedBy)
    }

    private enum CodingKeys: String, CodingKey { case body, html, attachments, revision, editedBy }
}

/// A row's sync state: `pending`, `syncing`, `synced`, `conflict` or `error` with its message.
struct SyncJSON: Encodable {
    var status: SyncStatus
    @Nullable var errorMessage: String?
    @Nullable var lastSyncedAt: Date?

    init(_ sync: SyncMetadata) {
        status = sync.status
        errorMessage = sync.errorMessage
        lastSyncedAt = sync.lastSyncedAt
    }
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
    /// A small JPEG of a picture (the original where none can be made); `null` for other files.
    @Nullable var thumbnailUrl: String?

    init(_ attachment: Attachment) {
        id = attachment.id.key
        noteId = attachment.noteId.key
        kind = attachment.kind.rawValue
        fileName = attachment.fileName
        fileSize = attachment.fileSize
        contentHash = attachment.contentHash
        createdAt = attachment.createdAt
        url = AttachmentJSON.contentPath(attachment.id)
        thumbnailUrl = attachment.kind == .image ? "/api/v1/attachments/\(attachment.id.key)/thumbnail" : nil
    }

    /// Where the API serves an attachment's file.
    static func contentPath(_ id: UUID) -> String {
        "/api/v1/attachments/\(id.key)/content"
    }
}

/// A folder in the tree, with its counts and subfolders.
struct FolderJSON: Encodable {
    var id: String
    var name: String
    @Nullable var parentId: String?
    var path: String
    var noteCount: Int
    var totalNoteCount: Int
    var children: [FolderJSON]

    init(_ node: FolderNode) {
        id = node.folder.id.key
        name = node.folder.name
        parentId = node.folder.parentId?.key
        path = node.path
        noteCount = node.noteCount
        totalNoteCount = node.totalNoteCount
        children = node.children.map(FolderJSON.init)
    }
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
