import Foundation

/// The kinds of record the server accepts; anything else is refused with a clear error.
public enum SyncRecordType: String, Sendable, Codable, CaseIterable {
    /// A note: title, body, dates, pinned, folder, tag ids, trash date.
    case note
    /// A folder: name, icon, sort order, parent.
    case folder
    /// A tag: its display name (its id derives from the normalized name).
    case tag
    /// An attachment's metadata; the file itself is an asset named by its SHA-256.
    case attachment
}

/// A record as the server holds it: its fields, its version tag, or a tombstone.
public struct SyncRecord: Sendable, Hashable, Codable {
    /// What kind of record this is (a ``SyncRecordType`` raw value).
    public var recordType: String
    /// The client-generated id.
    public var recordId: UUID
    /// The server's version of the record; changes on every accepted save or delete.
    public var changeTag: String
    /// `true` for a tombstone: the record was deleted.
    public var deleted: Bool
    /// The record's properties (empty for a tombstone).
    public var fields: RecordFields
    /// A tombstone of a deletion a device sent again to heal a server restored from an older
    /// copy (``RecordChange/sentAgainFrom``): the change tag the deletion had in the history
    /// the restore lost. A save sent again from a version of that same history compares with
    /// it, not with ``changeTag``, which numbers the restored server's history.
    public var sentAgainFrom: String?

    /// Creates a record.
    public init(recordType: String, recordId: UUID, changeTag: String, deleted: Bool, fields: RecordFields, sentAgainFrom: String? = nil) {
        self.recordType = recordType
        self.recordId = recordId
        self.changeTag = changeTag
        self.deleted = deleted
        self.fields = fields
        self.sentAgainFrom = sentAgainFrom
    }
}

/// A request for the changes since a token.
///
/// A device that names itself (`deviceId`) and the ``ModifyResponse/authoredToken`` of its
/// last answered batch is not sent back the changes it made itself up to that point: it holds
/// them already. A device restored from a backup sends the older token it had then, so the
/// changes it made after the backup come back to it.
public struct ChangesQuery: Sendable, Hashable {
    /// The token of the last page; `nil` for everything.
    public var since: String?
    /// The device asking: the id it sends with its batches.
    public var deviceId: UUID?
    /// Covers the device's own changes it holds (from its last answered batch).
    public var authoredToken: String?
    /// The pull began with no token (a first sync, or a listing of everything): the device
    /// relies on no deletion from before `since`, so the server answers even when it has
    /// purged tombstones since (it refuses an ordinary fetch from there with
    /// ``APIErrorCode/tombstonesPurged``).
    public var listing: Bool
    /// With no token: the oldest version (change tag) of a record the device holds as synced,
    /// from before it ever fetched (it sent the record) or from a token since forgotten. A
    /// deletion of such a record is newer; when the server purged deletions past it, it
    /// refuses the fetch with ``APIErrorCode/tombstonesPurged``, and the device lists
    /// everything to learn of them.
    public var holding: String?

    /// Creates a query.
    public init(since: String?, deviceId: UUID? = nil, authoredToken: String? = nil, listing: Bool = false, holding: String? = nil) {
        self.since = since
        self.deviceId = deviceId
        self.authoredToken = authoredToken
        self.listing = listing
        self.holding = holding
    }
}

/// The answer to "what changed since this token".
public struct ChangesResponse: Sendable, Hashable, Codable {
    /// Records changed since the token, oldest change first; each record appears once.
    public var records: [SyncRecord]
    /// The token to send next time; covers exactly the records returned.
    public var token: String
    /// `true` when more changes wait: ask again with the new token.
    public var moreComing: Bool

    /// Creates a page of changes.
    public init(records: [SyncRecord], token: String, moreComing: Bool) {
        self.records = records
        self.token = token
        self.moreComing = moreComing
    }
}
