import Foundation

/// Where a syncable row stands with the sync server, as users see it.
public enum SyncStatus: String, Sendable, Codable, CaseIterable {
    /// Changed locally; waiting to go up, or on its way (a row is not marked while its
    /// batch is in flight: that would write every row sent once more).
    case pending
    /// The server holds this exact version.
    case synced
    /// Both sides changed the same text; a conflict copy was kept.
    case conflict
    /// Failed to sync three times; see the row's error message.
    case error
}

/// The sync bookkeeping carried by every syncable row (note, folder, tag, attachment).
public struct SyncMetadata: Sendable, Hashable, Codable {
    /// What users see: pending, synced, conflict or error.
    public var status: SyncStatus
    /// The server's version tag of the record, `nil` until it first synced.
    public var changeTag: String?
    /// When the row last synced successfully.
    public var lastSyncedAt: Date?
    /// How many sync attempts in a row have failed.
    public var retryCount: Int
    /// The last sync failure, in words a user can act on.
    public var errorMessage: String?

    /// Creates sync metadata; a new local row starts `pending` with no change tag.
    public init(
        status: SyncStatus = .pending,
        changeTag: String? = nil,
        lastSyncedAt: Date? = nil,
        retryCount: Int = 0,
        errorMessage: String? = nil
    ) {
        self.status = status
        self.changeTag = changeTag
        self.lastSyncedAt = lastSyncedAt
        self.retryCount = retryCount
        self.errorMessage = errorMessage
    }
}
