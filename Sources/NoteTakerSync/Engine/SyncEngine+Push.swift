import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

extension SyncEngine {
    /// Sends the outbox in batches: first what an earlier cycle left in flight (sent again,
    /// exactly as it was, oldest first), then new batches in outbox order.
    ///
    /// Two batches are in flight at a time: while the server answers one, the next is read,
    /// kept (``NoteStore/beginPush(_:)``) and sent, so that the server reads it while it
    /// stores the first; each answer is applied, and the batch after kept and sent, in one
    /// transaction, while the server works on the other. A batch holding a record of one in
    /// flight waits for that answer (it would go up against an old change tag), and so does
    /// one that needs files uploaded first. After an answer that merged or refused anything,
    /// the outbox is read again.
    func push(into report: inout SyncReport) async throws(SyncError) {
        for inflight in try local({ try $0.inflightBatches() }) {
            if inflight.request.changes.count > batchLimit {
                // More than the server takes now (it was replaced by an older one): the changes
                // go up again in smaller batches, from the outbox, instead of being refused.
                try local { try $0.abandonPush(inflight) }
            } else {
                // A server restored from an older copy may have lost the files it took for
                // the batch: they go up again first (a file already there is not sent).
                _ = try await uploadAssets(inflight.assetHashes, into: &report)
                _ = try await settle(inflight, answer: modify(inflight).value, into: &report)
            }
        }
        var cursor: Int64 = 0  // the newest outbox entry in a batch sent
        var done = 0
        let total = try local { try $0.pushableChangeCount() }
        var upcoming = try nextBatch(after: cursor, into: &report)
        var flying: [(batch: PushBatch, answer: Task<Result<ModifyResponse, SyncError>, Never>)] = []  // sent, oldest first
        while true {
            if flying.isEmpty {
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
                flying.append((begun, modify(begun)))
                upcoming = try nextBatch(after: cursor, into: &report)
            }
            if flying.count == 1, let following = upcoming, Self.mayFollow(following, flying[0].batch) {
                let kept = try local { try $0.beginPush(following) }
                flying.append((kept, modify(kept)))
                cursor = following.sequences.max() ?? cursor
                upcoming = nil
            }
            let (batch, answer) = flying.removeFirst()
            let result = await answer.value
            if case .success(let response) = result, response.results.allSatisfy({ $0.outcome == .saved }) {
                if upcoming == nil { upcoming = try nextBatch(after: cursor, into: &report) }
                // A record of the answered batch, edited meanwhile: read with its new change tag.
                let answered = upcoming.map { batch.sharesRecords(with: $0) } ?? false
                if let after = upcoming, !answered, after.assetHashes.isEmpty, !flying.contains(where: { $0.batch.sharesRecords(with: after) }) {
                    let (applied, kept) = try local { try $0.finishPush(batch, response: response, policy: options.policy, keeping: after) }
                    report.add(applied.report)
                    flying.append((kept, modify(kept)))
                    cursor = after.sequences.max() ?? cursor
                    upcoming = nil
                } else {
                    report.add(try local { try $0.finishPush(batch, response: response, policy: options.policy) }.report)
                    if answered { upcoming = try nextBatch(after: cursor, into: &report) }
                }
            } else {
                let overlaps = upcoming.map { batch.sharesRecords(with: $0) } ?? false
                if try !settle(batch, answer: result, into: &report) || overlaps {
                    // A merge, or a record edited while it was in flight: read from the store again.
                    upcoming = try nextBatch(after: cursor, into: &report)
                }
            }
            done += batch.request.changes.count
            progress?(.pushing(done: done, total: max(total, done)))
        }
    }

    /// Whether `batch` may be sent while `inFlight` is answered: it needs no file uploaded
    /// first, and holds no record of `inFlight`.
    private static func mayFollow(_ batch: PushBatch, _ inFlight: PushBatch) -> Bool {
        batch.assetHashes.isEmpty && !inFlight.sharesRecords(with: batch)
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
        serverRestored = serverRestored || other.serverRestored
    }
}
