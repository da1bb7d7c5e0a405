import Foundation
import NoteTakerKit

/// Feeds imported notes to the store in batches (one transaction each, every note whole or
/// not at all) and keeps the report. Memory holds one batch at most. The search index is
/// built once, when the import ends (``finish()``, or ``indexWhatWentIn()`` when it fails).
final class ImportBatcher {
    private struct Pending {
        var item: NoteImport
        var label: String
        var warnings: [Wording]
        var temporaryFiles: [URL]
        var localFiles: [String]
    }

    private let store: NoteStore
    private let progress: InterchangeProgressHandler?
    private var pending: [Pending] = []
    private var pendingBytes: Int64 = 0
    var report: ImportReport

    /// Notes per transaction, and staged file bytes that flush a batch early.
    private let batchSize = 5_000
    private let batchBytes: Int64 = 64 << 20

    init(store: NoteStore, kind: ImportReport.Kind, progress: InterchangeProgressHandler?) {
        self.store = store
        self.progress = progress
        report = ImportReport(kind: kind)
    }

    /// Queues a note; `temporaryFiles` are deleted once the batch is written; `localFiles` are
    /// the files of the person's own disk that it attaches, listed in the report once it is in.
    func add(
        _ item: NoteImport, label: String, warnings: [Wording] = [], temporaryFiles: [URL] = [], localFiles: [String] = [],
        fileBytes: Int64 = 0
    ) throws(InterchangeError) {
        report.found += 1
        pending.append(Pending(item: item, label: label, warnings: warnings, temporaryFiles: temporaryFiles, localFiles: localFiles))
        pendingBytes += fileBytes
        if pending.count >= batchSize || pendingBytes >= batchBytes { try flush() }
    }

    /// Records a note that cannot be imported.
    func skip(_ label: String, reason: Wording) {
        report.found += 1
        report.skipped.append(.init(item: label, wording: reason))
    }

    /// Reports how far the input has been read.
    func reportProgress(done: Int64, total: Int64?) {
        progress?(InterchangeProgress(done: done, total: total, notes: report.found))
    }

    /// Writes the queued notes.
    func flush() throws(InterchangeError) {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pendingBytes = 0
        defer {
            for file in batch.flatMap(\.temporaryFiles) { try? FileManager.default.removeItem(at: file) }
        }
        let outcomes = try storeCall { () throws(NoteTakerError) in try store.importNotes(batch.map(\.item), indexing: .deferred) }
        for (entry, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .imported, .updated:
                if outcome == .imported { report.imported += 1 } else { report.updated.append(entry.label) }
                report.warnings += entry.warnings.map { .init(item: entry.label, wording: $0) }
                report.attachedFiles += entry.localFiles.map { .init(note: entry.label, file: $0) }
            case .alreadyPresent:
                report.alreadyPresent += 1
            case .failed(let error):
                report.skipped.append(.init(item: entry.label, wording: error.wording))
            }
        }
    }

    /// Writes what is left, makes every imported note searchable, and returns the report.
    func finish() throws(InterchangeError) -> ImportReport {
        try flush()
        try indexWhatWentIn()
        return report
    }

    /// Adds the notes imported so far to the search index.
    func indexWhatWentIn() throws(InterchangeError) {
        let progress = self.progress
        let notes = report.found
        try storeCall { () throws(NoteTakerError) in
            try store.indexPendingNotes { done, total in
                progress?(InterchangeProgress(done: Int64(done), total: Int64(total), notes: notes, indexing: true))
            }
        }
    }
}
