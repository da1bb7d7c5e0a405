import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

extension SyncEngine {
    /// Sends the outbox in batches: first what an earlier cycle left in flight (sent again,
    /// exactly as it was, oldest first), then new batches in outbox order, in the order
    /// ``PushPipeline`` says: two at a time, each answer applied, and the batch after kept
    /// (``NoteStore/beginPush(_:)``) and sent, in one transaction, while the server works on
    /// the other.
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
                let answer = try await modify(inflight).value
                await learnKeys(answering: answer)
                _ = try settle(inflight, answer: answer, into: &report)
            }
        }
        let total = try local { try $0.pushableChangeCount() }
        var pipeline = PushPipeline()
        var answers: [Task<Result<ModifyResponse, SyncError>, Never>] = []  // one per batch in flight, oldest first
        while true {
            switch pipeline.next() {
            case .read:
                pipeline.read(try nextBatch(after: pipeline.cursor, into: &report))
            case .start(var batch):
                let refusedFiles = try await uploadAssets(batch.assetHashes, into: &report)
                if !refusedFiles.isEmpty {
                    // A file the server does not take holds back its attachment alone.
                    report.errors += try local { try $0.holdBack(&batch, refusedFiles: refusedFiles) }
                    if batch.request.changes.isEmpty {
                        pipeline.emptied()
                        continue
                    }
                }
                let begun = try local { try $0.beginPush(batch) }
                answers.append(try modify(begun))
                pipeline.sent(begun)
            case .sendAlong(let batch):
                let kept = try local { try $0.beginPush(batch) }
                answers.append(try modify(kept))
                pipeline.sent(kept)
            case .awaitAnswer:
                let answer = await answers.removeFirst().value
                await learnKeys(answering: answer)
                pipeline.answered(answer)
            case .finish(let batch, let response, keeping: let after?):
                let (answer, sealed) = try opened(response, for: batch)
                let (applied, kept) = try local { try $0.finishPush(batch, response: answer, policy: options.policy, noting: sealed, keeping: after) }
                report.add(applied)
                answers.append(try modify(kept))
                pipeline.sent(kept)
                progress?(.pushing(done: pipeline.done, total: max(total, pipeline.done)))
            case .finish(let batch, let response, keeping: nil):
                let (answer, sealed) = try opened(response, for: batch)
                report.add(try local { try $0.finishPush(batch, response: answer, policy: options.policy, noting: sealed) })
                pipeline.finished()
                progress?(.pushing(done: pipeline.done, total: max(total, pipeline.done)))
            case .settle(let batch, let result):
                pipeline.settled(clean: try settle(batch, answer: result, into: &report))
                progress?(.pushing(done: pipeline.done, total: max(total, pipeline.done)))
            case .done:
                try forgetDeletedRevisions()
                return
            }
        }
    }

    /// The next batch of the outbox after `cursor`, counting the changes refused as too large.
    private func nextBatch(after cursor: Int64, into report: inout SyncReport) throws(SyncError) -> PushBatch? {
        let (batch, refused) = try local { try $0.nextPushBatch(after: cursor, limit: batchLimit) }
        report.errors += refused
        return batch
    }

    /// Error codes with which the server refuses a whole batch for what it holds, or for who
    /// sends it (a shared zone's viewer): each change counts a failed attempt, so one bad
    /// record cannot stop sync for ever, and what the server has still comes down.
    static let refusals: Set<String> = ["tooLarge", "badRequest", "quotaExceeded", "forbidden"]

    static func isRefusal(_ error: SyncError) -> Bool {
        switch error {
        case .server(let code, _): refusals.contains(code)
        case .storageFull, .viewOnlyShare: true
        default: false
        }
    }

    /// Starts sending a batch (sealed, for an encrypted account), off the engine, so that the
    /// engine reads the next one meanwhile.
    private func modify(_ batch: PushBatch) throws(SyncError) -> Task<Result<ModifyResponse, SyncError>, Never> {
        let transport = transport
        guard let sealing = options.sealing else {
            return Self.offEngine { () async throws(SyncError) in try await transport.modify(batch.request, fieldsJSON: batch.fieldsJSON) }
        }
        let revisions = try revisions(toSeal: batch)
        return Self.offEngine { () async throws(SyncError) in
            let (request, fieldsJSON) = try Self.sealed(batch, at: revisions, with: sealing)
            return try await transport.modify(request, fieldsJSON: fieldsJSON)
        }
    }

    /// Applies the answer to a batch; on failure the batch stays in flight. Returns whether
    /// every change was saved as sent (no merge, no refusal).
    private func settle(
        _ batch: PushBatch, answer: Result<ModifyResponse, SyncError>, into report: inout SyncReport
    ) throws(SyncError) -> Bool {
        let (response, sealed): (ModifyResponse, SealedChanges)
        do throws(SyncError) {
            (response, sealed) = try opened(answer.get(), for: batch)
        } catch let error where Self.isRefusal(error) {
            try local { try $0.batchRefused(batch, message: error.message) }
            report.errors += batch.request.changes.count
            return false
        }
        report.add(try local { try $0.finishPush(batch, response: response, policy: options.policy, noting: sealed) })
        return response.results.allSatisfy { $0.outcome == .saved }
    }

    /// Uploads the attachment files a batch needs, once per hash. Returns the files the
    /// server refused (storage full, too large), with why; any other failure stops the push.
    private func uploadAssets(_ hashes: [String], into report: inout SyncReport) async throws(SyncError) -> [String: SyncError] {
        var refused: [String: SyncError] = [:]
        for hash in Set(hashes).sorted() {
            let file = store.attachmentFiles.url(forHash: hash)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            let address = try storedAddress(ofFile: hash)
            if try await transport.assetExists(hash: address) { continue }
            do throws(SyncError) {
                try await upload(file, to: address)
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
