import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// The client sync engine: pushes the outbox, pulls changes by token, merges, one cycle at a
/// time, through a ``SyncTransport``.
///
/// ```swift
/// let engine = SyncEngine(store: store, transport: try HTTPSyncTransport(server: url, token: token))
/// let report = try await engine.sync()
/// ```
///
/// Safety rails: a pull that would delete more notes than ``Options/massDeletionLimit``
/// (or ``Options/massDeletionFraction`` of them) stops with `SyncError.massDeletion(count:)`
/// unless ``Options/allowMassDeletion`` is set; a different or empty server never deletes
/// local notes; "resync required" refetches without touching pending changes.
public actor SyncEngine {
    /// How the engine behaves.
    public struct Options: Sendable {
        /// Who wins properties changed on both sides.
        public var policy: MergePolicy
        /// Go on with a pull that deletes many notes (`sync --yes`).
        public var allowMassDeletion: Bool
        /// More deletions than this in one pull stop and ask.
        public var massDeletionLimit: Int
        /// A larger share of this device's notes than this (with more than 5 notes) stops and asks.
        public var massDeletionFraction: Double
        /// The most changes sent in one batch; fewer when the server takes fewer (it says so
        /// in its health answer).
        public var batchSize: Int
        /// The account's keys, for an account with end-to-end encryption: every save goes up
        /// sealed, and only sealed records from the server are applied (see
        /// `SyncEngine+Sealing.swift`). `nil`: records travel as they are.
        public var sealing: (any RecordSealer)?
        /// The account's keys as this device holds them now, in place of ``sealing``; with
        /// `fromServer`, learned anew from the server first (another device rotated them).
        /// Read at the start of every cycle, so that a rotation made by another engine or
        /// process of this store takes effect at once; asked of the server at most once a
        /// cycle, when a fetched record is sealed with a key ``sealing`` does not hold. `nil`
        /// from the server: not to be had now (``sealing`` stays); `nil` from this device for a
        /// sealing engine: it was locked, and a cycle stops with ``SyncError/keysMissing``.
        public var keys: (@Sendable (_ fromServer: Bool) async -> (any RecordSealer)?)?

        /// Creates options; the defaults are those of the command line.
        public init(
            policy: MergePolicy = .localWins, allowMassDeletion: Bool = false,
            massDeletionLimit: Int = 50, massDeletionFraction: Double = 0.1, batchSize: Int = SyncLimits.maxBatchSize,
            sealing: (any RecordSealer)? = nil, keys: (@Sendable (_ fromServer: Bool) async -> (any RecordSealer)?)? = nil
        ) {
            self.policy = policy
            self.allowMassDeletion = allowMassDeletion
            self.massDeletionLimit = massDeletionLimit
            self.massDeletionFraction = massDeletionFraction
            self.batchSize = batchSize
            self.sealing = sealing
            self.keys = keys
        }
    }

    /// Where a running cycle is, for progress displays.
    public enum Phase: Sendable, Equatable {
        /// Sending local changes: done so far, and how many are waiting.
        case pushing(done: Int, total: Int)
        /// Fetching the server's changes: how many so far.
        case fetching(received: Int)
        /// Applying fetched changes: done so far, of how many.
        case applying(done: Int, total: Int)
        /// Adding the notes a large pull brought to the search index: done so far, of how many.
        case indexing(done: Int, total: Int)
        /// Transferring attachment files.
        case transferringFiles(done: Int, total: Int)
    }

    let store: any SyncStore
    let transport: any SyncTransport
    /// The engine's options; change them between cycles.
    public var options: Options
    let progress: (@Sendable (Phase) -> Void)?
    /// The most changes in a batch for this cycle: ``Options/batchSize``, or fewer when the
    /// server takes fewer.
    var batchLimit = SyncLimits.unannouncedBatchSize
    /// The revisions each batch in flight seals its saves at, by request id: noted as seen
    /// once the server saved them.
    var sealedRevisions: [UUID: [RecordRevision]] = [:]
    /// Sealed records deleted by a push's or a pull's deletions: their revisions are forgotten
    /// at its end, those that are gone here (see `SyncEngine+Sealing.swift`).
    var deletedRecords: Set<RecordRevision.Key> = []
    /// The cycle asked the server for the account's keys already (``Options/keys``).
    var learnedKeys = false
    private var cycleRunning = false
    private var waitingCycles: [CheckedContinuation<Void, Never>] = []

    /// Creates an engine over a store and a transport.
    public init(store: NoteStore, transport: any SyncTransport, options: Options = Options(), progress: (@Sendable (Phase) -> Void)? = nil) {
        self.init(syncStore: store, transport: transport, options: options, progress: progress)
    }

    /// Creates an engine over any store's side of sync (a test double, say).
    package init(
        syncStore store: any SyncStore, transport: any SyncTransport, options: Options = Options(), progress: (@Sendable (Phase) -> Void)? = nil
    ) {
        self.store = store
        self.transport = transport
        self.options = options
        self.progress = progress
    }

    /// Sets whether the next cycles may apply a pull that deletes many notes.
    public func allowMassDeletion(_ allow: Bool) {
        options.allowMassDeletion = allow
    }

    /// How long a cycle waits for another process's cycle on the same store.
    static let leaseTimeout: Duration = .seconds(300)

    /// Runs one sync cycle: push, pull, push what merging changed, then fetch missing files.
    ///
    /// Cycles never overlap: a call made while one runs (automatic sync and "Sync now", say)
    /// waits for it to end, then runs its own; so does a cycle of another engine or another
    /// process on the same store file (see ``SyncLease``).
    @discardableResult
    public func sync() async throws(SyncError) -> SyncReport {
        await enterCycle()
        defer { leaveCycle() }
        guard let databaseURL = store.databaseURL else { return try await rememberingFailure(cycle) }
        let lease = try await SyncLease.acquire(databaseURL: databaseURL, timeout: Self.leaseTimeout)
        defer { lease.release() }
        return try await rememberingFailure(cycle)
    }

    /// Runs a cycle; when it fails, the store remembers why for `sync status`.
    private func rememberingFailure(_ cycle: () async throws(SyncError) -> SyncReport) async throws(SyncError) -> SyncReport {
        do {
            return try await cycle()
        } catch {
            try? local { store in try store.noteFailedCycle(error) }
            throw error
        }
    }

    private func enterCycle() async {
        guard cycleRunning else {
            cycleRunning = true
            return
        }
        await withCheckedContinuation { waitingCycles.append($0) }
    }

    private func leaveCycle() {
        if waitingCycles.isEmpty {
            cycleRunning = false
        } else {
            waitingCycles.removeFirst().resume()
        }
    }

    private func cycle() async throws(SyncError) -> SyncReport {
        var report = SyncReport()
        learnedKeys = false
        if let keys = options.keys {
            // The keys kept here now: newer ones another process learned, or none at all when
            // this device was locked since the engine was made (an account never stops being
            // encrypted), and then nothing syncs until it is unlocked.
            if let current = await keys(false) {
                options.sealing = current
            } else if options.sealing != nil {
                throw .keysMissing
            }
        }
        try await checkServer()
        // A device that found the server restored and has not caught up yet sends nothing
        // first: what waits here is based on versions of the history the server lost, whose
        // numbers the server gives again (seed 20,458: a deletion cut short before
        // the catch-up, sent with it, applied to a later edit numbered as the version it
        // deleted). It goes up once the pull below caught up and queued it again.
        if try !local({ try $0.catchesUpBeforeHeal() }) {
            do throws(SyncError) {
                try await push(into: &report)
            } catch .serverRestored {
                // Nothing went up: everything does, after the pull from scratch below merged it;
                // first, the pull catches up from this device's change token, if the server holds it.
                try local { store in if try !store.catchUpBeforeHeal() { try store.adoptRestoredServer() } }
            }
        }
        try await pull(into: &report)
        // Merging leaves changes to send back; a few more rounds settle them. A restored
        // server (noticed by the push or by the pull) is healed within this cycle: what this
        // device queued to send again goes up now, even when the pull merged nothing. So is a
        // conversion to encryption: what the pull queued (tags taken up) goes up before its pass.
        var rounds = 0
        var merged = 0
        var healing = report.serverRestored
        var converting = try local { try $0.resealingPass()?.converts ?? false }
        while rounds < 3, report.merged > merged || healing || converting, try local({ try $0.hasPushableChanges() }) {
            (healing, converting) = (false, false)
            merged = report.merged
            try await push(into: &report)
            try await pull(into: &report)
            rounds += 1
        }
        try await transferFiles(into: &report)
        try await sendMovedHistories()
        try await resealKept(into: &report)
        try local { store in try store.finishSyncCycle() }
        return report
    }

    /// Notices a different (or reset) server: everything here is queued to go up again, and
    /// nothing is deleted to match the new server. Learns how many changes the server takes
    /// in one batch.
    func checkServer() async throws(SyncError) {
        let health = try await transport.health()
        try local { store in try store.adoptServer(health.serverId) }
        batchLimit = min(options.batchSize, health.batchLimit)
    }

    /// Starts a request off the engine's executor, so that the engine goes on with the store
    /// meanwhile; its outcome is awaited with `.value`.
    static func offEngine<T: Sendable>(_ request: @escaping @Sendable () async throws(SyncError) -> T) -> Task<Result<T, SyncError>, Never> {
        Task.detached {
            do throws(SyncError) {
                return .success(try await request())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs a store call, turning its errors into `SyncError.store(_:)`.
    func local<T>(_ body: (any SyncStore) throws -> T) throws(SyncError) -> T {
        do {
            return try body(store)
        } catch {
            throw .store(NoteTakerError(databaseError: error))
        }
    }
}
