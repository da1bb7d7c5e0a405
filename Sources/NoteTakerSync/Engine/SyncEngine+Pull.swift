import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

extension SyncEngine {
    /// Staged changes applied per transaction: each transaction writes the new notes'
    /// search terms as one index segment, so a first sync of 100,000 notes in transactions
    /// of 5,000 spends a third less time indexing than in transactions of 500 (about 0.7 s
    /// each, which a save from the app waits out).
    static let applyBatchSize = 5_000

    /// Fetches every change since the last token into the stage, checks the deletions it
    /// would make, then applies it. A token the server no longer honours starts over from
    /// nothing, keeping every pending local change.
    func pull(into report: inout SyncReport) async throws(SyncError) {
        var query = try local { try $0.changesQuery() }
        var received = 0
        var restarted = false
        while true {
            let page: ChangesResponse
            do throws(SyncError) {
                page = try await transport.fetchChanges(query)
            } catch .resyncRequired where !restarted {
                restarted = true
                try local { try $0.resetChangeToken() }
                query = try local { try $0.changesQuery() }
                continue
            }
            try local { try $0.stage(page) }
            query.since = page.token
            received += page.records.count
            progress?(.fetching(received: received))
            if !page.moreComing { break }
        }
        try checkDeletions()
        let total = try local { try $0.stagedCount() }
        // More than one transaction's worth (a first sync): indexed once at the end, as an import is.
        let indexing: SearchIndexing = total > Self.applyBatchSize ? .deferred : .immediately
        var done = 0
        repeat {
            let applied = try local { try $0.applyStaged(limit: Self.applyBatchSize, policy: options.policy, indexing: indexing) }
            report.add(applied.report)
            done += applied.report.pulled
            progress?(.applying(done: done, total: total))
            if applied.report.pulled == 0 { break }
        } while done < total
        if indexing == .deferred {
            let progress = self.progress
            try local { try $0.indexPendingNotes { done, total in progress?(.indexing(done: done, total: total)) } }
        }
    }

    /// Stops before a pull that would delete many notes here, unless allowed.
    private func checkDeletions() throws(SyncError) {
        guard !options.allowMassDeletion else { return }
        let (deletions, notes) = try local { try $0.stagedDeletions() }
        let share = notes == 0 ? 0 : Double(deletions) / Double(notes)
        if deletions > options.massDeletionLimit || (deletions > 5 && share > options.massDeletionFraction) {
            throw .massDeletion(count: deletions)
        }
    }

    /// Downloads attachment files that arrived notes need.
    func transferFiles(into report: inout SyncReport) async throws(SyncError) {
        let missing = try local { try $0.missingAttachmentFiles() }
        for (index, hash) in missing.enumerated() {
            let destination = store.attachmentFiles.url(forHash: hash)
            do {
                try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
            } catch {
                throw .store(.fileWriteFailed(path: destination.deletingLastPathComponent().path, reason: error.localizedDescription))
            }
            try await transport.downloadAsset(hash: hash, to: destination)
            report.downloadedFiles += 1
            progress?(.transferringFiles(done: index + 1, total: missing.count))
        }
        try local { try $0.makeThumbnails(hashes: missing) }
    }
}
