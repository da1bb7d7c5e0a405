import Foundation

/// A batch of saves and deletes sent to the server.
public struct ModifyRequest: Sendable, Hashable, Codable {
    /// Chosen by the client; a repeated batch with the same id is answered again, not applied twice.
    public var requestId: UUID
    /// The changes, at most ``SyncLimits/maxBatchSize``.
    public var changes: [RecordChange]
    /// The device sending, if it names itself: its saves are not sent back to it (see
    /// ``ChangesQuery``).
    public var deviceId: UUID?
    /// The change token the device holds, if any: a server whose history no longer holds it
    /// (restored from an older copy) refuses the batch with
    /// ``APIErrorCode/serverRestored`` and applies nothing, since the changes' base tags
    /// name versions it never had.
    public var changeToken: String?
    /// The ``ModifyResponse/authoredToken`` of the device's newest answered batch, if any:
    /// refused like ``changeToken`` by a server whose history no longer holds it (a batch
    /// answered after the backup, from a device that fetched nothing since).
    public var authoredToken: String?

    /// Creates a batch.
    public init(
        requestId: UUID = UUID(), changes: [RecordChange], deviceId: UUID? = nil, changeToken: String? = nil, authoredToken: String? = nil
    ) {
        self.requestId = requestId
        self.changes = changes
        self.deviceId = deviceId
        self.changeToken = changeToken
        self.authoredToken = authoredToken
    }
}

/// One save or delete in a ``ModifyRequest``.
public struct RecordChange: Sendable, Hashable, Codable {
    /// Save the fields, or delete the record.
    public enum Operation: String, Sendable, Hashable, Codable {
        /// Store these fields as the record's new version.
        case save
        /// Replace the record with a tombstone.
        case delete
    }

    /// What kind of record (a ``SyncRecordType`` raw value).
    public var recordType: String
    /// The record's id.
    public var recordId: UUID
    /// Save or delete.
    public var operation: Operation
    /// The change tag the client last saw, `nil` for a record it never synced.
    public var baseChangeTag: String?
    /// The record's fields, for a save.
    public var fields: RecordFields?
    /// `true` for a save the software made on its own, only because a deletion reached the
    /// device (a subfolder moved up, a note losing a deleted tag), or for a tag's change of
    /// case: it does not count as an edit, so a deletion of the record based on the version
    /// before it still applies. Absent for a person's change (and from older devices).
    public var derived: Bool?
    /// `true` for a derived save whose base is a version of the record this device held, not
    /// its deletion (a tag made again over a deletion it saw is based on the deletion). When
    /// the server no longer holds the record and has purged tombstones past that base, the
    /// record was deleted since: the save yields, answered with a deletion, as it would yield
    /// to the tombstone. Absent otherwise (and from older devices, whose saves are applied).
    public var baseLive: Bool?
    /// For a save a device sends again, unchanged, to heal a server restored from an older
    /// copy: the change tag of the version it held (its base is forgotten, as everything the
    /// server was known to hold). When the server holds nothing of the record but the deletion
    /// it purged at a later change, the device never learned of that deletion (its session
    /// ended, its listing was cut short by the restore): the save yields, answered with the
    /// deletion. Absent otherwise (and from older devices, whose saves are applied).
    public var sentAgainFrom: String?

    /// Creates a change.
    public init(recordType: String, recordId: UUID, operation: Operation, baseChangeTag: String?, fields: RecordFields?,
                derived: Bool = false, baseLive: Bool = false, sentAgainFrom: String? = nil) {
        self.recordType = recordType
        self.recordId = recordId
        self.operation = operation
        self.baseChangeTag = baseChangeTag
        self.fields = fields
        self.derived = derived ? true : nil
        self.baseLive = baseLive ? true : nil
        self.sentAgainFrom = sentAgainFrom
    }
}

/// The server's answer for one change of a batch.
public struct RecordResult: Sendable, Hashable, Codable {
    /// What became of the change.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Applied; `changeTag` is the record's new version.
        case saved
        /// The record changed on the server since the client's base: `serverRecord` is its
        /// copy (possibly a tombstone). Merge and send again.
        case serverRecordChanged
        /// Refused; `message` says why. Nothing was changed.
        case error
    }

    /// The record's id.
    public var recordId: UUID
    /// The record's type.
    public var recordType: String
    /// What happened.
    public var outcome: Outcome
    /// The new change tag, for a saved change.
    public var changeTag: String?
    /// The server's copy, for a `serverRecordChanged`.
    public var serverRecord: SyncRecord?
    /// Why the change was refused, for an `error`.
    public var message: String?

    /// Creates a result.
    public init(
        recordId: UUID, recordType: String, outcome: Outcome,
        changeTag: String? = nil, serverRecord: SyncRecord? = nil, message: String? = nil
    ) {
        self.recordId = recordId
        self.recordType = recordType
        self.outcome = outcome
        self.changeTag = changeTag
        self.serverRecord = serverRecord
        self.message = message
    }
}

/// The answer to a ``ModifyRequest``: one result per change, in order.
public struct ModifyResponse: Sendable, Hashable, Codable {
    /// A result per change, in the order of the request.
    public var results: [RecordResult]
    /// Covers the changes this batch saved, when it saved any: a fetch that sends it back
    /// (``ChangesQuery/authoredToken``) with the same device id skips them.
    public var authoredToken: String?

    /// Creates a response.
    public init(results: [RecordResult], authoredToken: String? = nil) {
        self.results = results
        self.authoredToken = authoredToken
    }
}
