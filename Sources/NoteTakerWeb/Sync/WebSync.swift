import Foundation
import NoteTakerKit
import NoteTakerSync

/// Sync while the web app runs: a ``SyncWatcher`` when the store has an account and automatic
/// sync is on, one cycle on request otherwise; and what the app shows about it.
actor WebSync {
    /// What the global indicator shows.
    struct State: Equatable {
        /// A cycle asked for in the app is running.
        var syncing = false
        /// Automatic sync is running (account set up, auto-sync on).
        var watching = false
        /// The server's push channel is connected.
        var connected = false
        /// The last cycle's failure, until a cycle succeeds.
        var lastError: SyncError?
        /// What the last successful cycle did.
        var lastReport: SyncReport?
        /// How many times the shares changed here or were synced: the page lists them again.
        var sharesChanged = 0
    }

    let store: NoteStore
    /// The account's store and its shares' (``WebStores``).
    nonisolated let stores: WebStores
    private(set) var state = State() {
        didSet { if state != oldValue { broadcast() } }
    }
    private var watcher: SyncWatcher?
    private var watcherEngine: SyncEngine?
    private var watcherTask: Task<Void, Never>?
    private var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]

    init(store: NoteStore) {
        self.store = store
        stores = WebStores(account: store)
    }

    /// Starts or stops automatic sync to match the store's account and settings.
    func refresh() {
        stopWatching()
        guard let settings = try? store.syncSettings(), settings.hasAccount, settings.autoSync,
              let transport = try? store.syncTransport(),
              let engine = try? store.syncEngine(transport: transport)
        else { return }
        let watcher = SyncWatcher(engine: engine, store: store, transport: transport) { [weak self] event in
            Task { await self?.record(event) }
        }
        self.watcher = watcher
        watcherEngine = engine
        watcherTask = Task { await watcher.run() }
        state.watching = true
    }

    /// Stops automatic sync (the app is quitting, or the account changed).
    func stopWatching() {
        watcherTask?.cancel()
        watcherTask = nil
        watcher = nil
        watcherEngine = nil
        state.watching = false
        state.connected = false
    }

    /// Syncs the shares, then the account's own notes, and returns when the cycle ends (after
    /// the automatic one, if one is running); the shares failing does not stop the rest.
    func syncNow() async throws(SyncError) {
        let engine: SyncEngine
        if let watcherEngine {
            engine = watcherEngine
        } else {
            engine = try store.syncEngine(transport: try store.syncTransport())
        }
        state.syncing = true
        defer { state.syncing = false }
        do {
            if let shared = await store.syncShares(transport: try store.syncTransport()) { record(.shared(shared)) }
            let report = try await engine.sync()
            record(.synced(report))
        } catch {
            state.lastError = error
            throw error
        }
    }

    /// Tells the page to list the shares again: one was made, accepted, left or changed here.
    func sharesChanged() {
        state.sharesChanged += 1
    }

    /// A stream that yields whenever ``state`` changes.
    func updates() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeListener(id) }
        }
        return stream
    }

    private func removeListener(_ id: UUID) {
        listeners[id] = nil
    }

    private func broadcast() {
        for listener in listeners.values { listener.yield() }
    }

    private func record(_ event: SyncWatcher.Event) {
        switch event {
        case .synced(let report):
            state.syncing = false
            state.lastError = nil
            state.lastReport = report
        case .failed(let error, _):
            state.syncing = false
            state.lastError = error
        case .connected:
            state.connected = true
        case .disconnected:
            state.connected = false
        case .shared:
            state.sharesChanged += 1
        }
    }
}
