import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

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

extension ProgressLine {
    /// Shows a sync phase.
    func show(_ phase: SyncEngine.Phase) {
        switch phase {
        case .pushing(let done, let total): show("Sending changes \(done)/\(total)")
        case .fetching(let received): show("Receiving changes: \(received)")
        case .applying(let done, let total): show("Applying changes \(done)/\(total)")
        case .indexing(let done, let total): show("Indexing for search \(done)/\(total)")
        case .transferringFiles(let done, let total): show("Attachment files \(done)/\(total)")
        }
    }
}
