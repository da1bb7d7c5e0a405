import Foundation

/// One logged-in session of an account, as `GET /v1/sessions` lists it: enough for a person
/// to recognise a device and end its session.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// Names the session in `DELETE /v1/sessions/{id}`: the start of its token's hash, which
    /// reveals nothing of the token.
    public var id: String
    /// The name the device gave when it logged in (`nil`: it gave none).
    public var deviceName: String?
    /// When it logged in (seconds since 1970).
    public var createdAt: Double
    /// When it last made a request, to within an hour (seconds since 1970).
    public var lastUsedAt: Double
    /// Whether it is the session asking.
    public var current: Bool

    /// Describes a session.
    public init(id: String, deviceName: String?, createdAt: Double, lastUsedAt: Double, current: Bool) {
        self.id = id
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}

/// The answer of `GET /v1/sessions`: the account's live sessions, the most recently used first.
public struct SessionList: Sendable, Hashable, Codable {
    /// The sessions.
    public var sessions: [SessionInfo]

    /// Creates an answer.
    public init(sessions: [SessionInfo]) {
        self.sessions = sessions
    }
}
