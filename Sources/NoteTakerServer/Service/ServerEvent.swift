import Foundation

/// What a server process tells the push streams of every process on the same storage (its
/// own included): an account or a shared zone changed, or sessions ended and their streams
/// must close.
public enum ServerEvent: Sendable, Hashable {
    /// The account's records changed up to `token`.
    case changed(account: Int64, token: String)
    /// The shared zone's records changed up to `token` (the zone's own token), for its
    /// members `accounts` (docs/sharing.md §3.7).
    case zoneChanged(zone: String, token: String, accounts: [Int64])
    /// One session ended (log out).
    case sessionEnded(tokenHash: String)
    /// Every session of the account but `keeping` ended (password change).
    case sessionsEnded(account: Int64, keeping: String?)

    /// The event as a line of text (a PostgreSQL notification's payload).
    public var payload: String {
        switch self {
        case .changed(let account, let token): "changed \(account) \(token)"
        case .zoneChanged(let zone, let token, let accounts): "zone \(zone) \(token) \(accounts.map(String.init).joined(separator: ","))"
        case .sessionEnded(let hash): "session \(hash)"
        case .sessionsEnded(let account, let keeping): "sessions \(account) \(keeping ?? "-")"
        }
    }

    /// Reads a payload; `nil` for text that is not one.
    public init?(payload: String) {
        let parts = payload.split(separator: " ").map(String.init)
        switch (parts.first, parts.count) {
        case ("changed", 3):
            guard let account = Int64(parts[1]) else { return nil }
            self = .changed(account: account, token: parts[2])
        case ("zone", 4):
            let accounts = parts[3].split(separator: ",").compactMap { Int64($0) }
            guard !accounts.isEmpty else { return nil }
            self = .zoneChanged(zone: parts[1], token: parts[2], accounts: accounts)
        case ("session", 2):
            self = .sessionEnded(tokenHash: parts[1])
        case ("sessions", 3):
            guard let account = Int64(parts[1]) else { return nil }
            self = .sessionsEnded(account: account, keeping: parts[2] == "-" ? nil : parts[2])
        default:
            return nil
        }
    }
}

/// Carries ``ServerEvent``s between the server processes on one storage. Without one (the
/// SQLite storage, one process), events go straight to the process's own push streams.
public protocol ChangeBroadcast: Sendable {
    /// Sends an event to every process listening, this one included.
    func publish(_ event: ServerEvent) async throws

    /// Listens until cancelled or shut down, handing every event to `deliver`; `connected`
    /// runs each time listening (re)starts, since events sent while it was down are lost.
    func listen(connected: @Sendable () async -> Void, deliver: @Sendable (ServerEvent) async -> Void) async throws
}
