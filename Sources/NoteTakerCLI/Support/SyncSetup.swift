import Foundation
import NoteTakerKit

/// Builds the sync engine for a store from its saved account and token.
enum SyncSetup {
    /// An engine for the store, with the chosen merge policy; progress drawn on a terminal.
    static func engine(for store: NoteStore, transport: HTTPSyncTransport, allowMassDeletion: Bool, showProgress: Bool) throws -> SyncEngine {
        var progress: (@Sendable (SyncEngine.Phase) -> Void)?
        if showProgress {
            let line = ProgressLine()
            progress = { phase in line.show(phase) }
        }
        return try store.syncEngine(transport: transport, allowMassDeletion: allowMassDeletion, progress: progress)
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
