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
        case .pushing(let done, let total): show(Words.text("progressSending", ["done": done, "total": total]))
        case .fetching(let received): show(Words.text("progressReceiving", ["done": received]))
        case .applying(let done, let total): show(Words.text("progressApplying", ["done": done, "total": total]))
        case .indexing(let done, let total): show(Words.text("progressIndexing", ["done": done, "total": total]))
        case .transferringFiles(let done, let total): show(Words.text("progressFiles", ["done": done, "total": total]))
        }
    }
}
