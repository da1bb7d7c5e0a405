import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

extension SyncEngine {
    /// Staged changes applied per transaction: each transaction writes the new notes'
    /// search terms as one index segment, so a first sync of 100,000 notes in transactions
    /// of 5,000 spends a third less time indexing than in transactions of 500 (about 0.7 s
    /// each, which a save from the app waits out).
    static let applyBatchSize = 5_000

    /// Fetches every change since the last token and applies it; the next page is fetched
    /// while one is applied or staged. A token the server no longer honours starts over from
    /// nothing, keeping every pending local change.
    ///
    /// A pull from scratch (a first sync) applies each page as it arrives, as long as none
    /// deletes a note here, and builds the search index once at the end, as an import does.
    /// Otherwise, and from the first page that deletes a note here, pages are staged: their
    /// deletions are counted (see ``Options/massDeletionLimit``) before any is applied.
    ///
    /// A server restored from an older copy (``SyncError/serverRestored``) gets everything
    /// here queued to go up again, and the pull starts from scratch, this device's side
    /// winning every merge (see `NoteStore+RestoredServer.swift`); first, when the server
    /// still holds this device's change token, the pull catches up from it as usual. A server that purged
    /// deletions this device had not fetched (``SyncError/tombstonesPurged``; with no token,
    /// deletions newer than what it holds: ``ChangesQuery/holding``) gets everything listed
    /// again, and what is no longer listed is deleted here (see
    /// `NoteStore+PurgedTombstones.swift`).
    func pull(into report: inout SyncReport) async throws(SyncError) {
        var healing = try local { try $0.healsRestoredServer() }
        var catchingUp = try local { try $0.catchesUpBeforeHeal() }
        var listing = try local { try $0.listsAfterPurge() }
        var direct = try local { try $0.pullsFromScratch() }
        // A pull that began with no token relies on no deletion the server may have purged
        // since: it says so, and its later pages are not refused (see ChangesQuery.listing).
        // A listing cut short in an earlier sync goes on from its token as any pull does:
        // deletions purged since that token may be of records it already crossed off, so
        // the server refuses it then, and the listing starts again from nothing.
        var query = try local { try $0.changesQuery() }
        query.listing = direct
        var received = 0
        var restarted = false
        // What the fetch the pull last (re)started from asked for, and how much came since.
        var start = (everything: query.asksForEverything, received: 0)
        // A fetch from nothing refused for deletions purged past what it holds (after a
        // restart above too) lists everything, once.
        var listedAfterPurge = false
        var fetch = prefetch(query)
        defer { fetch.cancel() }
        while true {
            let fetched: FetchedPage
            do throws(SyncError) {
                fetched = await withLearnedKeys(try await fetch.value.get())
            } catch {
                // Each refusal that starts the pull over does so once; then the pull lists
                // everything from what the store asks for now.
                switch error {
                case .resyncRequired where !restarted:
                    try local { try $0.resetChangeToken(keepingAuthoredToken: false) }
                case .serverRestored where !restarted:
                    if !catchingUp, !healing, try local({ try $0.catchUpBeforeHeal() }) {
                        // Perhaps only the authored token is from the history the server lost.
                        catchingUp = true
                        query = try local { try $0.changesQuery() }
                        start = (query.asksForEverything, 0)
                        fetch = prefetch(query)
                        continue
                    }
                    try local { try $0.adoptRestoredServer() }
                    (healing, catchingUp) = (true, false)
                    direct = try local { try $0.pullsFromScratch() }
                case .tombstonesPurged where !listedAfterPurge:
                    listedAfterPurge = true
                    try local { try $0.adoptPurgedTombstones() }
                    listing = true
                    direct = try local { try $0.pullsFromScratch() }
                default:
                    throw error
                }
                restarted = true
                query = try local { try $0.changesQuery() }
                query.listing = true
                start = (query.asksForEverything, 0)
                fetch = prefetch(query)
                continue
            }
            // A record held below was listed all the same: it is no deletion.
            if listing { try local { try $0.markListed(fetched.page) } }
            let (page, sealed) = try opened(fetched, into: &report)
            query.since = page.token
            query.holding = nil
            if page.moreComing { fetch = prefetch(query) }
            let policy = healing ? MergePolicy.localWins : options.policy
            received += page.records.count
            start.received += page.records.count
            progress?(.fetching(received: received))
            if direct, let applied = try local({ try $0.applyPage(page, policy: policy, noting: sealed) }) {
                report.add(applied)
            } else {
                direct = false
                try local { try $0.stage(page, noting: sealed) }
            }
            if !page.moreComing { break }
        }
        if start.everything, start.received == 0 {
            // A pull from nothing that found nothing (the account was empty: a first sync, or a
            // heal of a server restored to a copy from before anything was sent) keeps no
            // token: one for nothing would stand for "fetched up to here" in the next pull,
            // which could not then name the oldest version this device holds (see
            // ChangesQuery.holding), and the deletions of what it sends meanwhile could be
            // purged unseen (restoring seed 2816: a note deleted elsewhere stayed here).
            try local { try $0.resetChangeToken(keepingAuthoredToken: true) }
        }
        if listing, try local({ try $0.stageUnlistedDeletions() }) > 0 { direct = false }
        if !direct { try applyStaged(into: &report, policy: healing ? .localWins : options.policy) }
        try indexPendingNotes()
        try forgetDeletedRevisions()
        if catchingUp {
            // Caught up: the heal fetches everything again, merging with this device's side winning.
            try local { try $0.adoptRestoredServer() }
            return try await pull(into: &report)
        }
        if healing {
            try local { try $0.finishRestoredServerHeal() }
            report.serverRestored = true
        }
    }

    /// Starts fetching a page of changes, off the engine, so that it arrives while the engine
    /// applies the one before.
    private func prefetch(_ query: ChangesQuery) -> Task<Result<FetchedPage, SyncError>, Never> {
        let (transport, sealing) = (transport, options.sealing)
        return Self.offEngine { () async throws(SyncError) in try await Self.fetch(query, from: transport, sealing: sealing) }
    }

    /// Checks the staged deletions, then applies the stage. More than one transaction's worth
    /// leaves new notes to be indexed once at the end (``indexPendingNotes()``).
    private func applyStaged(into report: inout SyncReport, policy: MergePolicy) throws(SyncError) {
        try checkDeletions()
        let total = try local { try $0.stagedCount() }
        let indexing: SearchIndexing = total > Self.applyBatchSize ? .deferred : .immediately
        var done = 0
        repeat {
            let applied = try local { try $0.applyStaged(limit: Self.applyBatchSize, policy: policy, indexing: indexing) }
            report.add(applied)
            done += applied.pulled
            progress?(.applying(done: done, total: total))
            if applied.pulled == 0 { break }
        } while done < total
    }

    /// Adds the notes the pull left pending (if any) to the search index, reporting its progress.
    private func indexPendingNotes() throws(SyncError) {
        let progress = self.progress
        try local { try $0.indexPendingNotes { done, total in progress?(.indexing(done: done, total: total)) } }
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

    /// Downloads attachment files that arrived notes need. A file the server does not have
    /// (it was restored from a backup taken before the file came) counts as an error and
    /// is asked for again at the next sync, when the device that has it may have sent it.
    func transferFiles(into report: inout SyncReport) async throws(SyncError) {
        let missing = try local { try $0.missingAttachmentFiles() }
        for (index, hash) in missing.enumerated() {
            let destination = store.attachmentFiles.url(forHash: hash)
            do {
                try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
            } catch {
                throw .store(.fileWriteFailed(path: destination.deletingLastPathComponent().path, reason: error.localizedDescription))
            }
            do throws(SyncError) {
                // A sealed file changed on the server, or another file, is not kept: it is
                // asked for again at the next sync.
                guard try await download(hash, to: destination) else {
                    report.errors += 1
                    continue
                }
            } catch .server(let code, _) where code == APIErrorCode.notFound.rawValue {
                report.errors += 1
                continue
            }
            report.downloadedFiles += 1
            progress?(.transferringFiles(done: index + 1, total: missing.count))
        }
        try local { try $0.makeThumbnails(hashes: missing) }
    }
}

extension ChangesQuery {
    /// Asks for every record from the beginning, this device's own too: an answer with none
    /// means the account holds nothing.
    var asksForEverything: Bool { since == nil && (authoredToken == nil || deviceId == nil) }
}
