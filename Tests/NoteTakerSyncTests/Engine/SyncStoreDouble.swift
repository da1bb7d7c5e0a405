import Foundation
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import NoteTakerSync
import Synchronization

/// The store's side of sync, in memory: enough of it to run the engine's cycle without
/// SQLite, and a log of every call. It holds notes by id and a change token; it stages and
/// applies pages as the real store does, without merging anything.
final class SyncStoreDouble: SyncStore {
    struct State {
        /// The notes this device holds.
        var notes: Set<UUID> = []
        var token: String?
        var staged: [SyncRecord] = []
        var healing = false
        var catchingUp = false
        var listing = false
        /// Every call, by name, in order.
        var calls: [String] = []
        /// The policy each apply was asked to merge with.
        var policies: [MergePolicy] = []
    }

    let state: Mutex<State>
    let attachmentFiles = AttachmentFiles(directory: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())"))
    var databaseURL: URL? { nil }

    init(notes: Set<UUID> = [], token: String? = nil) {
        state = Mutex(State(notes: notes, token: token))
    }

    /// The calls made so far.
    var calls: [String] { state.withLock { $0.calls } }

    private func log(_ call: String) { state.withLock { $0.calls.append(call) } }

    func resealingPass() throws(NoteTakerError) -> ResealingPass? { nil }
    func noteResealing(_ pass: ResealingPass, next: String?) throws(NoteTakerError) -> ResealingPass? { nil }
    func restartResealing(_ pass: ResealingPass) throws(NoteTakerError) {}
    func waitsForRenamedTags() throws(NoteTakerError) -> Bool { false }
    func attachmentHashes() throws(NoteTakerError) -> [String] { [] }
    func movedHistoriesToSend() throws(NoteTakerError) -> [UUID] { [] }
    func movedHistory(_ noteId: UUID) throws(NoteTakerError) -> [MovedVersion] { [] }
    func sentMovedHistory(_ noteId: UUID) throws(NoteTakerError) {}

    /// Applies records to the notes held; returns their report.
    private static func apply(_ records: some Sequence<SyncRecord>, to state: inout State) -> SyncReport {
        var report = SyncReport()
        for record in records {
            report.pulled += 1
            if record.deleted { state.notes.remove(record.recordId) } else { state.notes.insert(record.recordId) }
        }
        return report
    }

    func adoptServer(_ serverId: String) { log("adoptServer") }
    func finishSyncCycle() { log("finishSyncCycle") }
    func noteFailedCycle(_ error: some WordedError) { log("noteFailedCycle") }
    func missingAttachmentFiles() -> [String] { [] }
    func makeThumbnails(hashes: [String]) {}

    func inflightBatches() -> [PushBatch] { [] }
    func abandonPush(_ batch: PushBatch) { log("abandonPush") }
    func hasPushableChanges() -> Bool { false }
    func pushableChangeCount() -> Int { 0 }
    func nextPushBatch(after cursor: Int64, limit: Int) -> (PushBatch?, refused: Int) { (nil, 0) }
    func holdBack(_ batch: inout PushBatch, refusedFiles: [String: SyncError]) -> Int { 0 }
    func beginPush(_ batch: PushBatch) -> PushBatch { batch }
    func finishPush(_ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges) -> SyncReport { SyncReport() }
    func finishPush(
        _ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges, keeping next: PushBatch
    ) -> (report: SyncReport, kept: PushBatch) {
        (SyncReport(), next)
    }
    func batchRefused(_ batch: PushBatch, message: String) { log("batchRefused") }

    func changesQuery() -> ChangesQuery { state.withLock { ChangesQuery(since: $0.token) } }

    func resetChangeToken(keepingAuthoredToken: Bool) {
        state.withLock {
            $0.calls.append("resetChangeToken")
            $0.token = nil
        }
    }

    func pullsFromScratch() -> Bool { state.withLock { $0.token == nil && $0.staged.isEmpty } }

    func applyPage(_ page: ChangesResponse, policy: MergePolicy, noting sealed: SealedChanges) -> SyncReport? {
        state.withLock { state in
            // As the real store: a page that deletes a note here is staged, to be counted.
            if page.records.contains(where: { $0.deleted && state.notes.contains($0.recordId) }) { return nil }
            state.calls.append("applyPage")
            state.policies.append(policy)
            state.token = page.token
            return Self.apply(page.records, to: &state)
        }
    }

    func stage(_ page: ChangesResponse, noting sealed: SealedChanges) {
        state.withLock {
            $0.calls.append("stage")
            $0.staged += page.records
            $0.token = page.token
        }
    }

    func stagedDeletions() -> (deletions: Int, notes: Int) {
        state.withLock { state in
            (Set(state.staged.filter { $0.deleted && state.notes.contains($0.recordId) }.map(\.recordId)).count, state.notes.count)
        }
    }

    func stagedCount() -> Int { state.withLock { $0.staged.count } }

    func applyStaged(limit: Int, policy: MergePolicy, indexing: SearchIndexing) -> SyncReport {
        state.withLock { state in
            state.calls.append("applyStaged")
            state.policies.append(policy)
            let batch = state.staged.prefix(limit)
            state.staged.removeFirst(batch.count)
            return Self.apply(batch, to: &state)
        }
    }

    func indexPendingNotes(progress: ReindexProgress?) {}

    func catchUpBeforeHeal() -> Bool {
        state.withLock {
            $0.calls.append("catchUpBeforeHeal")
            $0.catchingUp = $0.token != nil
            return $0.catchingUp
        }
    }

    func catchesUpBeforeHeal() -> Bool { state.withLock { $0.catchingUp } }

    func adoptRestoredServer() {
        state.withLock {
            $0.calls.append("adoptRestoredServer")
            ($0.healing, $0.catchingUp, $0.token, $0.staged) = (true, false, nil, [])
        }
    }

    func healsRestoredServer() -> Bool { state.withLock { $0.healing } }

    func finishRestoredServerHeal() {
        state.withLock {
            $0.calls.append("finishRestoredServerHeal")
            $0.healing = false
        }
    }

    func adoptPurgedTombstones() {
        state.withLock {
            $0.calls.append("adoptPurgedTombstones")
            ($0.listing, $0.token) = (true, nil)
        }
    }

    func listsAfterPurge() -> Bool { state.withLock { $0.listing } }
    func markListed(_ page: ChangesResponse) { log("markListed") }

    func stageUnlistedDeletions() -> Int {
        state.withLock {
            $0.calls.append("stageUnlistedDeletions")
            $0.listing = false
            return 0
        }
    }

    func seenRevisions(_ records: [RecordRevision.Key]) -> [RecordRevision.Key: Int] { [:] }
    func ownPlaintextSaves(among records: [SyncRecord]) -> [UUID: RecordFields] { [:] }
    func sealedBeforeRestore(among changes: [RecordChange]) -> Set<UUID> { [] }
    func forgetRevisions(ofDeleted records: [RecordRevision.Key]) { log("forgetRevisions") }
}

/// A server that answers a script: each fetch takes the next answer (an empty last page once
/// the script is used up), and every query is kept.
final class ScriptedTransport: SyncTransport {
    let fetches: Mutex<(answers: [Result<ChangesResponse, SyncError>], queries: [ChangesQuery])>

    init(_ answers: [Result<ChangesResponse, SyncError>]) {
        fetches = Mutex((answers, []))
    }

    /// The queries the engine sent, in order.
    var queries: [ChangesQuery] { fetches.withLock { $0.queries } }

    func health() -> HealthResponse { HealthResponse(status: "ok", apiVersion: "1", serverId: "server") }

    func fetchChanges(_ query: ChangesQuery) throws(SyncError) -> ChangesResponse {
        try fetches.withLock { fetches throws(SyncError) in
            fetches.queries.append(query)
            guard !fetches.answers.isEmpty else { return ChangesResponse(records: [], token: "end", moreComing: false) }
            return try fetches.answers.removeFirst().get()
        }
    }

    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) throws(SyncError) -> ModifyResponse {
        throw .server(code: "unexpected", message: "this test pushes nothing")
    }

    func assetExists(hash: String) -> Bool { true }
    func uploadAsset(hash: String, from file: URL) {}
    func downloadAsset(hash: String, to file: URL) throws(SyncError) {
        throw .server(code: "unexpected", message: "this test downloads nothing")
    }
}
