import Foundation

/// One logged-in session of an account, as `GET /v1/sessions` lists it: enough for a person
/// to recognise a device and end its session.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// Names the session in `DELETE /v1/sessions/{id}`: the start of its token's hash, which
    /// reveals nothing of the token.
    public var id: String
    /// The name the device gave when it logged in, or later (`nil`: it gave none); sealed for
    /// an end-to-end encrypted account (``SessionName/isSealed(_:)``).
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

/// The body of `PUT /v1/sessions/current`: the name the asking session goes by in the list of
/// sessions (`nil`: none). An end-to-end encrypted account's devices send it sealed
/// (docs/encryption.md §6) once logged in, and nothing at the log-in itself.
public struct SessionName: Sendable, Hashable, Codable {
    /// A name as a person typed it (at most ``Credentials/maximumDeviceNameLength`` characters),
    /// or a sealed one (see ``isSealed(_:)``).
    public var deviceName: String?

    /// What a sealed name starts with; base64url follows.
    public static let sealedPrefix = "nt1."
    /// The longest sealed name: a name of the most characters, each of four bytes, sealed.
    public static let maximumSealedLength = 800

    /// Names the session.
    public init(deviceName: String?) {
        self.deviceName = deviceName
    }

    /// Whether `text` is a sealed name in form: the prefix, then 40 to 796 base64url characters.
    public static func isSealed(_ text: String) -> Bool {
        guard text.hasPrefix(sealedPrefix), (sealedPrefix.count + 40...maximumSealedLength).contains(text.utf8.count) else { return false }
        return text.utf8.dropFirst(sealedPrefix.utf8.count).allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
