import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

extension SyncEngine {
    /// Sends the outbox in batches: first what an earlier cycle left in flight (sent again,
    /// exactly as it was, oldest first), then new batches in outbox order.
    ///
    /// Batches overlap: while the server answers one, the engine reads the next and keeps it
    /// in flight (``NoteStore/beginPush(_:)``), so that it goes out the moment the answer
    /// comes; that answer is then applied while the server works on the next. When an answer
    /// merged or refused anything, the next batch is dropped and read again after it; one
    /// holding a record of the batch in flight (edited meanwhile) waits for that answer too.
    func push(into report: inout SyncReport) async throws(SyncError) {
        for inflight in try local({ try $0.inflightBatches() }) {
            if inflight.request.changes.count > batchLimit {
                // More than the server takes now (it was replaced by an older one): the changes
                // go up again in smaller batches, from the outbox, instead of being refused.
                try local { try $0.abandonPush(inflight) }
            } else {
                _ = try await settle(inflight, answer: modify(inflight).value, into: &report)
            }
        }
        var cursor: Int64 = 0  // the newest outbox entry in a batch sent or kept to be sent
        var done = 0
        let total = try local { try $0.pushableChangeCount() }
        var upcoming = try nextBatch(after: cursor, into: &report)
        var sending: (batch: PushBatch, answer: Task<Result<ModifyResponse, SyncError>, Never>)?
        var next: PushBatch?  // kept in flight, to go when `sending` is answered
        while true {
            if sending == nil {
                guard var batch = upcoming else { break }
                cursor = batch.sequences.max() ?? cursor
                let refusedFiles = try await uploadAssets(batch.assetHashes, into: &report)
                if !refusedFiles.isEmpty {
                    // A file the server does not take holds back its attachment alone.
                    let heldBack = try local { try $0.holdBack(&batch, refusedFiles: refusedFiles) }
                    report.errors += heldBack
                    if batch.request.changes.isEmpty {
                        upcoming = try nextBatch(after: cursor, into: &report)
                        continue
                    }
                }
                let begun = try local { try $0.beginPush(batch) }
                sending = (begun, modify(begun))
                upcoming = try nextBatch(after: cursor, into: &report)
            }
            guard let (batch, answer) = sending else { break }
            let overlaps = upcoming.map { batch.sharesRecords(with: $0) } ?? false
            if next == nil, let following = upcoming, following.assetHashes.isEmpty, !overlaps {
                next = try local { try $0.beginPush(following) }
                cursor = following.sequences.max() ?? cursor
                upcoming = nil
            }
            let result = await answer.value
            if case .success(let response) = result, response.results.allSatisfy({ $0.outcome == .saved }), let following = next {
                // The next batch goes out first; this answer is applied while the server works,
                // and the batch after is kept to follow it, in the same transaction.
                sending = (following, modify(following))
                next = nil
                upcoming = try nextBatch(after: cursor, into: &report)
                let answered = upcoming.map { batch.sharesRecords(with: $0) } ?? false
                if let after = upcoming, after.assetHashes.isEmpty, !answered, !following.sharesRecords(with: after) {
                    let (applied, kept) = try local { try $0.finishPush(batch, response: response, policy: options.policy, keeping: after) }
                    report.add(applied.report)
                    next = kept
                    cursor = after.sequences.max() ?? cursor
                    upcoming = nil
                } else {
                    report.add(try local { try $0.finishPush(batch, response: response, policy: options.policy) }.report)
                    // A record of the answered batch, edited meanwhile: read with its new change tag.
                    if answered { upcoming = try nextBatch(after: cursor, into: &report) }
                }
            } else {
                sending = nil
                var readAgain = overlaps
                if let following = next {
                    // Not sent: read again once this answer is applied.
                    try local { try $0.abandonPush(following) }
                    next = nil
                    cursor = batch.sequences.max() ?? cursor
                    readAgain = true
                }
                let plain = try settle(batch, answer: result, into: &report)
                if !plain || readAgain {
                    // A merge, or a record edited while it was in flight: read from the store again.
                    upcoming = try nextBatch(after: cursor, into: &report)
                }
            }
            done += batch.request.changes.count
            progress?(.pushing(done: done, total: max(total, done)))
        }
    }

    /// The next batch of the outbox after `cursor`, counting the changes refused as too large.
    private func nextBatch(after cursor: Int64, into report: inout SyncReport) throws(SyncError) -> PushBatch? {
        let (batch, refused) = try local { try $0.nextPushBatch(after: cursor, limit: batchLimit) }
        report.errors += refused
        return batch
    }

    /// Error codes with which the server refuses a whole batch for what it holds: each change
    /// counts a failed attempt, so one bad record cannot stop sync for ever.
    static let refusals: Set<String> = ["tooLarge", "badRequest", "quotaExceeded"]

    static func isRefusal(_ error: SyncError) -> Bool {
        switch error {
        case .server(let code, _): refusals.contains(code)
        case .storageFull: true
        default: false
        }
    }

    /// Starts sending a batch, off the engine, so that the engine reads the next one meanwhile.
    private func modify(_ batch: PushBatch) -> Task<Result<ModifyResponse, SyncError>, Never> {
        let transport = transport
        return Self.offEngine { () async throws(SyncError) in try await transport.modify(batch.request, fieldsJSON: batch.fieldsJSON) }
    }

    /// Applies the answer to a batch; on failure the batch stays in flight. Returns whether
    /// every change was saved as sent (no merge, no refusal).
    private func settle(
        _ batch: PushBatch, answer: Result<ModifyResponse, SyncError>, into report: inout SyncReport
    ) throws(SyncError) -> Bool {
        let response: ModifyResponse
        do throws(SyncError) {
            response = try answer.get()
        } catch let error where Self.isRefusal(error) {
            try local { try $0.batchRefused(batch, message: error.message) }
            report.errors += batch.request.changes.count
            return false
        }
        let applied = try local { try $0.finishPush(batch, response: response, policy: options.policy) }
        report.add(applied.report)
        return response.results.allSatisfy { $0.outcome == .saved }
    }

    /// Uploads the attachment files a batch needs, once per hash. Returns the files the
    /// server refused (storage full, too large), with why; any other failure stops the push.
    private func uploadAssets(_ hashes: [String], into report: inout SyncReport) async throws(SyncError) -> [String: SyncError] {
        var refused: [String: SyncError] = [:]
        for hash in Set(hashes).sorted() {
            let file = store.attachmentFiles.url(forHash: hash)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            if try await transport.assetExists(hash: hash) { continue }
            do throws(SyncError) {
                try await transport.uploadAsset(hash: hash, from: file)
                report.uploadedFiles += 1
            } catch let error where Self.isRefusal(error) {
                refused[hash] = error
            }
        }
        return refused
    }
}

extension SyncReport {
    /// Adds another report's counts to this one.
    mutating func add(_ other: SyncReport) {
        pushed += other.pushed
        pulled += other.pulled
        merged += other.merged
        conflicts += other.conflicts
        errors += other.errors
        uploadedFiles += other.uploadedFiles
        downloadedFiles += other.downloadedFiles
    }
}
