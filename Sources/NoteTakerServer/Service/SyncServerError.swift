import NoteTakerSyncProtocol

/// An error the server answers with: a stable code, a message a user can act on, and for
/// throttled logins how long to wait.
public struct SyncServerError: Error, Sendable, Equatable {
    /// The machine-readable code.
    public var code: APIErrorCode
    /// What went wrong and what to do.
    public var message: String
    /// Seconds to wait before trying again, for ``APIErrorCode/tooManyRequests``.
    public var retryAfter: Int?
    /// The bytes the account uses and may use, for ``APIErrorCode/quotaExceeded``.
    public var usage: (used: Int64, quota: Int64)?

    /// Creates an error.
    public init(_ code: APIErrorCode, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public static func == (a: SyncServerError, b: SyncServerError) -> Bool {
        a.code == b.code && a.message == b.message && a.retryAfter == b.retryAfter
            && a.usage?.used == b.usage?.used && a.usage?.quota == b.usage?.quota
    }

    /// A malformed request.
    static func badRequest(_ message: String) -> SyncServerError { .init(.badRequest, message) }

    /// The bearer token is missing, unknown or revoked.
    static let notLoggedIn = SyncServerError(.sessionEnded, "Not logged in, or the session has ended. Log in again.")

    /// The user name or password is wrong (never says which).
    static let wrongCredentials = SyncServerError(.unauthorized, "Wrong user name or password.")

    /// Another account holds a published page of the id sent.
    static let pageTaken = SyncServerError(.pageTaken, "Another account holds a published page of this id. Nothing was changed: publish again, which draws a new id.")

    /// The account's storage is full.
    static func quotaExceeded(used: Int64, quota: Int64) -> SyncServerError {
        var error = SyncServerError(.quotaExceeded, "Storage full: this account uses \(used) of its \(quota) bytes. Delete notes or attachments, then sync again.")
        error.usage = (used, quota)
        return error
    }

    /// A storage failure, reported without internals.
    static func storage(_ error: any Error) -> SyncServerError {
        if let error = error as? SyncServerError { return error }
        return .init(.internalError, "The server could not read or write its storage; nothing was changed. Try again later.")
    }
}
