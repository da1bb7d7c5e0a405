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
    /// The server's data is older than what this device synced: it was restored from an
    /// earlier copy. The engine heals from it on its own (see ``NoteStore``'s restored
    /// server handling); this reaches a user only if healing was cut short.
    case serverRestored
    /// The server has forgotten deletions made since this device last fetched (it keeps them
    /// for a while once every device has them). The engine fetches everything again on its
    /// own and deletes what is gone; this reaches a user only if that was cut short.
    case tombstonesPurged
    /// The server refused a request: its error code and message.
    case server(code: String, message: String)
    /// The sync would delete this many notes here: it stopped to ask first.
    case massDeletion(count: Int)
    /// A plain `http://` address that is not on this machine, without `--insecure`.
    case insecureServer(String)
    /// The server's certificate is not trusted (self-signed, from a private authority, or for
    /// another name): why.
    case untrustedCertificate(String)
    /// The account's storage on the server is full: the bytes it uses and may use.
    case storageFull(usedBytes: Int64, quotaBytes: Int64)
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
        case .serverRestored:
            "The sync server's data is older than this device's last sync (it was restored from a backup). Run `notetaker sync` again: this device sends its notes up again."
        case .tombstonesPurged:
            "This device last synced before deletions the sync server no longer lists. Run `notetaker sync` again: this device fetches everything and deletes what was deleted elsewhere."
        case .server(_, let message):
            "The sync server refused: \(message)"
        case .massDeletion(let count):
            "This sync would delete \(count) notes on this device, so it stopped. If that is what you want, run `notetaker sync --yes`."
        case .untrustedCertificate(let reason):
            "The sync server's certificate is not trusted (\(reason)). If the server uses a self-signed certificate or a private certificate authority, log in again with --ca-file FILE: the authority's certificate, or the server's own, in PEM form. Your changes are kept here."
        case .insecureServer(let url):
            "\(url) is plain HTTP to another machine: notes and passwords would cross the network unencrypted. Use https://, or pass --insecure if you really mean it."
        case .storageFull(let used, let quota):
            "The sync server's storage for this account is full: it uses \(Self.megabytes(used)) of \(Self.megabytes(quota)). Delete notes or attachments, then sync again."
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

extension SyncError {
    /// A size in whole megabytes, as people read storage (`940 MB`, `1,024 MB`).
    package static func megabytes(_ bytes: Int64) -> String {
        let megabytes = (bytes + 524_288) / 1_048_576
        return (megabytes == 0 && bytes > 0 ? "<1" : megabytes.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) + " MB"
    }
}
