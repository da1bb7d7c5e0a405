import Foundation

/// Local-only figures about a store: usage counters kept on this device (never sent
/// anywhere) and what the store holds now.
public struct StoreStatistics: Sendable, Hashable, Codable {
    /// How many times a NoteTaker program opened this store.
    public var launches: Int
    /// How many notes were ever created in this store (imports included).
    public var notesCreated: Int
    /// How many sync cycles ran against this store.
    public var syncEvents: Int
    /// Notes outside the trash.
    public var notes: Int
    /// Pinned notes outside the trash.
    public var pinnedNotes: Int
    /// Notes outside the trash changed in the last 7 days (``NoteQuery/recentInterval``).
    public var recentNotes: Int
    /// Notes in the trash.
    public var trashedNotes: Int
    /// Folders.
    public var folders: Int
    /// Tags.
    public var tags: Int
    /// Attachments.
    public var attachments: Int
    /// Bytes of attachment files, each distinct content counted once.
    public var attachmentBytes: Int64
    /// Changes waiting to be synced.
    public var pendingChanges: Int

    /// The counts of a store.
    package init(
        launches: Int, notesCreated: Int, syncEvents: Int, notes: Int, pinnedNotes: Int, recentNotes: Int, trashedNotes: Int,
        folders: Int, tags: Int, attachments: Int, attachmentBytes: Int64, pendingChanges: Int
    ) {
        (self.launches, self.notesCreated, self.syncEvents, self.notes, self.pinnedNotes, self.recentNotes) =
            (launches, notesCreated, syncEvents, notes, pinnedNotes, recentNotes)
        (self.trashedNotes, self.folders, self.tags, self.attachments, self.attachmentBytes, self.pendingChanges) =
            (trashedNotes, folders, tags, attachments, attachmentBytes, pendingChanges)
    }
}
