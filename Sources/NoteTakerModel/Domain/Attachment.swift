import Foundation

/// A file attached to a note. The bytes live beside the database, named by their SHA-256.
public struct Attachment: Sendable, Hashable, Identifiable {
    /// What kind of file it is, detected from its content and name.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A picture (PNG, JPEG, GIF, WebP, HEIC, SVG, ...).
        case image
        /// A video (MP4, MOV, WebM, ...).
        case video
        /// Any other file.
        case file
    }

    /// The largest file that can be attached: 250 MB.
    public static let maximumSize: Int64 = 250 * 1_000_000

    /// The attachment's id.
    public var id: UUID
    /// The note it belongs to.
    public var noteId: UUID
    /// Image, video or file.
    public var kind: Kind
    /// The original file name (a display name only; never used as a path).
    public var fileName: String
    /// Size in bytes.
    public var fileSize: Int64
    /// Lowercase hex SHA-256 of the bytes; also the stored file's name.
    public var contentHash: String
    /// When it was attached.
    public var createdAt: Date
    /// Sync bookkeeping.
    public var sync: SyncMetadata

    /// Creates an attachment value.
    public init(
        id: UUID = UUID(),
        noteId: UUID,
        kind: Kind,
        fileName: String,
        fileSize: Int64,
        contentHash: String,
        createdAt: Date = Date(),
        sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.noteId = noteId
        self.kind = kind
        self.fileName = fileName
        self.fileSize = fileSize
        self.contentHash = contentHash
        self.createdAt = createdAt
        self.sync = sync
    }
}
