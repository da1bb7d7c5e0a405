import Foundation

/// A note as an importer brings it in: its fields, and the files to attach with it.
///
/// `NoteStore.importNotes(_:)` adds the note and its attachments together or
/// not at all; the body may already link to the attachments as `attachment:ID`.
public struct NoteImport: Sendable {
    /// A file to attach: where its bytes are now, and the attachment it becomes.
    public struct File: Sendable {
        /// The attachment's id (the body's `attachment:ID` links name it).
        public var id: UUID
        /// The name to show.
        public var fileName: String
        /// Where the bytes are now; they are copied into the store.
        public var source: URL
        /// When it was attached; the note's creation date when `nil`.
        public var createdAt: Date?
        /// The SHA-256 the bytes must have (lowercase hex), when the input states it; a file
        /// that does not match is damaged and its note is refused.
        public var expectedSHA256: String?

        /// Describes a file to attach.
        public init(id: UUID = UUID(), fileName: String, source: URL, createdAt: Date? = nil, expectedSHA256: String? = nil) {
            self.id = id
            self.fileName = fileName
            self.source = source
            self.createdAt = createdAt
            self.expectedSHA256 = expectedSHA256
        }
    }

    /// What happened to one note of a batch.
    public enum Outcome: Sendable, Equatable {
        /// Added, with its attachments.
        case imported
        /// A note with this id is already in the store; nothing changed.
        case alreadyPresent
        /// A note with this id is in the store, and changed in its source since it was
        /// imported: the changes were made to it, merged with those made here.
        case updated
        /// Refused for this reason; nothing of it was written.
        case failed(NoteTakerError)
    }

    /// The note's fields (give an `id` so that importing the same thing twice adds it once).
    public var draft: NoteDraft
    /// The files to attach.
    public var files: [File]
    /// Whether the draft's id names the note in its source, whatever changes there (a Keep
    /// note's creation time, a Joplin or Simplenote id), rather than its content: then the
    /// store keeps what the source said, and a newer export that changed the note updates it.
    public var followsSource: Bool

    /// Describes a note to import.
    public init(draft: NoteDraft, files: [File] = [], followsSource: Bool = false) {
        self.draft = draft
        self.files = files
        self.followsSource = followsSource
    }
}
