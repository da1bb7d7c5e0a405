import Foundation
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

/// One line of progress on standard error, redrawn in place (only on a terminal).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast

    /// Shows a sync phase.
    func show(_ phase: SyncEngine.Phase) {
        switch phase {
        case .pushing(let done, let total): show("Sending changes \(done)/\(total)")
        case .fetching(let received): show("Receiving changes: \(received)")
        case .applying(let done, let total): show("Applying changes \(done)/\(total)")
        case .transferringFiles(let done, let total): show("Attachment files \(done)/\(total)")
        }
    }

    /// Shows `text`; with `throttled`, at most ten times a second.
    func show(_ text: String, throttled: Bool = false) {
        lock.withLock {
            let now = Date()
            guard !throttled || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
            lastDrawn = now
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        }
    }

    /// A bar for a fraction done: `[#########.........]  45 %`.
    static func bar(_ fraction: Double, width: Int = 30) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3d %%", Int(fraction * 100))
    }

    /// Clears the line.
    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
