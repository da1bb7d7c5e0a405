import Foundation

/// The body of every error answer: a stable code for programs and a message for people.
public struct APIErrorBody: Sendable, Hashable, Codable {
    /// A stable, machine-readable code.
    public var error: APIErrorCode
    /// What went wrong and what to do, in words a user can act on.
    public var message: String
    /// For ``APIErrorCode/quotaExceeded``: the bytes the account uses.
    public var usedBytes: Int64?
    /// For ``APIErrorCode/quotaExceeded``: the bytes the account may use.
    public var quotaBytes: Int64?

    /// Creates an error body.
    public init(error: APIErrorCode, message: String, usedBytes: Int64? = nil, quotaBytes: Int64? = nil) {
        self.error = error
        self.message = message
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
    }
}

/// Machine-readable error codes of the sync API.
public enum APIErrorCode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The request is malformed (bad JSON, bad id, unknown record type, bad parameter).
    case badRequest
    /// A wrong user name or password.
    case unauthorized
    /// No bearer token, or one the server does not know or has revoked: log in again.
    case sessionEnded
    /// The change token is not usable here: fetch everything again.
    case resyncRequired
    /// The change token is from a history the server no longer holds: its data was restored
    /// from an older copy. Send everything this device synced again, then fetch everything.
    case serverRestored
    /// The change token is older than deletions the server has since forgotten (it keeps a
    /// deleted record's tombstone until every device logged in has fetched it, and for at
    /// least 90 days unless its operator set otherwise): fetch everything again, and delete
    /// here what was synced, is unchanged, and is not in it.
    case tombstonesPurged
    /// No such asset (or route).
    case notFound
    /// The user name is taken.
    case accountExists
    /// The server does not take new accounts; its administrator creates them.
    case registrationClosed
    /// A batch, record or asset is over its limit.
    case tooLarge
    /// The account's storage is full.
    case quotaExceeded
    /// Too many failed logins: wait before trying again.
    case tooManyRequests
    /// An uploaded asset does not match the SHA-256 it was sent under.
    case hashMismatch
    /// The route does not take this method (the answer's `Allow` lists those it takes).
    case methodNotAllowed
    /// The server failed; nothing was changed.
    case internalError
    /// The server cannot reach its database (503); nothing was changed: try again later.
    case unavailable
    /// The server's disk is full (507); nothing was changed: its operator must make room.
    case serverFull
    /// The account's key material changed meanwhile (409: another device rotated its keys at
    /// the same time); nothing was changed: fetch the keys again, then try again.
    case keysChanged
    /// The kept version is sealed with the data key sent, or a newer one, already (409): a
    /// replacement sent twice, or by two devices; nothing was changed, nothing is left to do.
    case sealedAlready
    /// The account still holds records in plain text (409): a conversion to end-to-end
    /// encryption is not finished until each is sent again sealed; nothing was deleted.
    case unsealedRecords
    /// Another account holds a published page of that id (409); nothing was changed.
    case pageTaken
    /// The account may not do this in a share (403): a member that is not its owner changing
    /// its members or keys, or the owner leaving it; nothing was changed.
    case forbidden
    /// A share's members record changed meanwhile (409: another of the owner's devices wrote
    /// the next epoch first); nothing was changed: fetch it again, then try again.
    case membersChanged
}
