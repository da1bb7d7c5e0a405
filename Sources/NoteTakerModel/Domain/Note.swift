import Foundation

/// A note: a title, a Markdown body, and where it is filed.
public struct Note: Sendable, Hashable, Identifiable {
    /// The note's id, generated on the device that created it.
    public var id: UUID
    /// The title as typed; may be empty (see ``displayTitle``).
    public var title: String
    /// The body, in Markdown.
    public var body: String
    /// When the note was created.
    public var createdAt: Date
    /// When the note itself last changed (title, body, pin, folder or tags).
    public var modifiedAt: Date
    /// Whether the note is pinned to the top of lists.
    public var isPinned: Bool
    /// The folder the note is filed in, if any.
    public var folderId: UUID?
    /// The names of the note's tags, sorted case-insensitively.
    public var tags: [String]
    /// The files attached to the note.
    public var attachments: [Attachment]
    /// When the note was moved to the trash, or `nil` when it is not in the trash.
    public var trashedAt: Date?
    /// Sync bookkeeping.
    public var sync: SyncMetadata
    /// The note's revision on this device: a number that grows with every change of its
    /// title, body, tags, pin, folder or trash state. An edit that names the revision it was
    /// made from is merged with whatever changed since (see `NoteBase`).
    public var revision: Int64

    /// Creates a note value.
    public init(
        id: UUID = UUID(),
        title: String,
        body: String = "",
        createdAt: Date = Date(),
        modifiedAt: Date? = nil,
        isPinned: Bool = false,
        folderId: UUID? = nil,
        tags: [String] = [],
        attachments: [Attachment] = [],
        trashedAt: Date? = nil,
        revision: Int64 = 0,
        sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt ?? createdAt
        self.isPinned = isPinned
        self.folderId = folderId
        self.tags = tags
        self.attachments = attachments
        self.trashedAt = trashedAt
        self.revision = revision
        self.sync = sync
    }

    /// The title to show: the title, or "Untitled" when it is empty.
    public var displayTitle: String {
        Self.displayTitle(of: title)
    }

    /// A title as it shows: itself, or "Untitled" when it is empty.
    package static func displayTitle(of title: String) -> String {
        title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "Untitled" : title
    }

    /// The first non-empty line of the body, for list previews.
    public var firstLine: String {
        // Scans bytes up to the first line with text, not the whole body character by character:
        // lists show this for every note on screen.
        let bytes = body.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? bytes.endIndex
            let line = body[start..<end].trimmingCharacters(in: .whitespaces)
            if !line.isEmpty { return line }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return ""
    }

    /// Whether the note is in the trash.
    public var isTrashed: Bool { trashedAt != nil }
}

/// The fields of a new note, as a user or an importer gives them.
public struct NoteDraft: Sendable, Hashable {
    /// The title (may be empty).
    public var title: String
    /// The Markdown body.
    public var body: String
    /// Whether to pin the note.
    public var isPinned: Bool
    /// The folder to file the note in.
    public var folderId: UUID?
    /// Tag names to attach; created when missing.
    public var tags: [String]
    /// An explicit id (imports keep theirs); a new one is generated when `nil`.
    public var id: UUID?
    /// An explicit creation date (imports keep theirs); now when `nil`.
    public var createdAt: Date?
    /// An explicit modification date (imports keep theirs); the creation date when `nil`.
    public var modifiedAt: Date?
    /// When the note went to the trash (imports keep theirs); `nil` for a note in use.
    public var trashedAt: Date?

    /// Creates a draft.
    public init(
        title: String,
        body: String = "",
        isPinned: Bool = false,
        folderId: UUID? = nil,
        tags: [String] = [],
        id: UUID? = nil,
        createdAt: Date? = nil,
        modifiedAt: Date? = nil,
        trashedAt: Date? = nil
    ) {
        self.title = title
        self.body = body
        self.isPinned = isPinned
        self.folderId = folderId
        self.tags = tags
        self.id = id
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.trashedAt = trashedAt
    }
}
