import Foundation

/// Why a sync did not complete, in words a user can act on.
public enum SyncError: Error, Sendable, Equatable {
    /// No account is set up on this device.
    case notConfigured
    /// The server cannot be reached (offline, down, refused); local work goes on and
    /// pending changes wait.
    case unreachable(String)
    /// The server no longer accepts this device's session.
    case notLoggedIn
    /// The server cannot continue from this device's change token.
    case resyncRequired
    /// The server refused a request: its error code and message.
    case server(code: String, message: String)
    /// The sync would delete this many notes here: it stopped to ask first.
    case massDeletion(count: Int)
    /// A plain `http://` address that is not on this machine, without `--insecure`.
    case insecureServer(String)
    /// Another process kept syncing this store for longer than this one would wait.
    case busy
    /// The local store failed.
    case store(NoteTakerError)

    /// What to tell the user.
    public var message: String {
        switch self {
        case .notConfigured:
            "No sync account on this device. Run `notetaker account login --server URL --user NAME --password-stdin` (or `account register`)."
        case .unreachable(let reason):
            "The sync server cannot be reached (\(reason)). Your changes are kept here and go up when it is back."
        case .notLoggedIn:
            "The sync server ended this device's session. Log in again with `notetaker account login`."
        case .resyncRequired:
            "The sync server asked for a full resync; run `notetaker sync` again."
        case .server(_, let message):
            "The sync server refused: \(message)"
        case .massDeletion(let count):
            "This sync would delete \(count) notes on this device, so it stopped. If that is what you want, run `notetaker sync --yes`."
        case .insecureServer(let url):
            "\(url) is plain HTTP to another machine: notes and passwords would cross the network unencrypted. Use https://, or pass --insecure if you really mean it."
        case .busy:
            "Another NoteTaker process is syncing this store; its sync did not end in time. Try again when it has finished."
        case .store(let error):
            error.message
        }
    }
}

extension SyncError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}
