import Foundation
import NoteTakerKit

/// Builds the sync engine for a store from its saved account and token.
enum SyncSetup {
    /// The transport to the account's server, with the saved token.
    static func transport(for store: NoteStore) throws -> HTTPSyncTransport {
        let settings = try store.syncSettings()
        guard let server = settings.serverURL, settings.username != nil, let token = store.syncToken() else {
            throw SyncError.notConfigured
        }
        return try HTTPSyncTransport(server: server, token: token, allowInsecure: settings.allowInsecure)
    }

    /// An engine for the store, with the chosen merge policy; progress drawn on a terminal.
    static func engine(for store: NoteStore, transport: HTTPSyncTransport, allowMassDeletion: Bool, showProgress: Bool) throws -> SyncEngine {
        let settings = try store.syncSettings()
        let options = SyncEngine.Options(
            policy: MergePolicy.named(settings.mergePolicy) ?? .localWins, allowMassDeletion: allowMassDeletion)
        var progress: (@Sendable (SyncEngine.Phase) -> Void)?
        if showProgress {
            let line = ProgressLine()
            progress = { phase in line.show(phase) }
        }
        return SyncEngine(store: store, transport: transport, options: options, progress: progress)
    }

    /// A server address as typed: `host:port` alone means `https://host:port`.
    static func serverURL(_ text: String) throws -> URL {
        let withScheme = text.contains("://") ? text : "https://" + text
        guard let url = URL(string: withScheme), url.host != nil else {
            throw NoteTakerError.invalidInput("'\(text)' is not a server address; write it like https://notes.example.com or http://127.0.0.1:8471.")
        }
        return url
    }
}

/// One line of progress on standard error, redrawn in place (only on a terminal).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()

    func show(_ phase: SyncEngine.Phase) {
        let text: String
        switch phase {
        case .pushing(let done, let total): text = "Sending changes \(done)/\(total)"
        case .fetching(let received): text = "Receiving changes: \(received)"
        case .applying(let done, let total): text = "Applying changes \(done)/\(total)"
        case .transferringFiles(let done, let total): text = "Attachment files \(done)/\(total)"
        }
        lock.withLock {
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        }
    }

    /// Clears the line.
    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
