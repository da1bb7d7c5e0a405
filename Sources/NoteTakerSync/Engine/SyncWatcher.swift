import Foundation
import NoteTakerKit

/// Keeps a store in sync while it runs (`sync --watch`, `serve`): a cycle whenever this
/// device changes something, whenever the server's push channel says another device (or a
/// member of a shared zone) did, and every ``pollInterval`` as a fallback. Each cycle syncs the
/// account's shared zones, then its own notes. Failures back off exponentially with jitter;
/// the push channel reconnects on its own.
public actor SyncWatcher {
    /// What the watcher reports as it goes.
    public enum Event: Sendable {
        /// A cycle completed.
        case synced(SyncReport)
        /// A cycle failed; the next attempt comes after the wait.
        case failed(SyncError, retryIn: Duration)
        /// The push channel connected.
        case connected
        /// The push channel dropped; it reconnects after the wait.
        case disconnected(retryIn: Duration)
        /// After a cycle, the shared zones synced (how each went), or why they could not be listed.
        case shared(Result<[SharedZoneSync], SyncError>)
    }

    let engine: SyncEngine
    let store: NoteStore
    let transport: HTTPSyncTransport
    let backoff: SyncBackoff
    let pollInterval: Duration
    let onEvent: @Sendable (Event) -> Void

    /// Creates a watcher for a store, its engine and the transport's push channel.
    public init(
        engine: SyncEngine, store: NoteStore, transport: HTTPSyncTransport,
        backoff: SyncBackoff = SyncBackoff(), pollInterval: Duration = .seconds(60),
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.engine = engine
        self.store = store
        self.transport = transport
        self.backoff = backoff
        self.pollInterval = pollInterval
        self.onEvent = onEvent
    }

    /// Syncs until the task running it is cancelled.
    public func run() async {
        let (triggers, trigger) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        trigger.yield()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [store] in
                // The first value is the outbox as it is now (the first cycle covers it);
                // every later, higher one is a new local change.
                var last: Int64?
                while !Task.isCancelled {
                    do {
                        for try await sequence in store.observeLocalChanges() where sequence > (last ?? -1) {
                            if last != nil { trigger.yield() }
                            last = sequence
                        }
                    } catch {
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
            }
            group.addTask { [transport, backoff, onEvent] in
                var failures = 0
                while !Task.isCancelled {
                    var connected = false
                    do {
                        for try await _ in SyncEventStream.connect(transport) {
                            if !connected {
                                connected = true
                                failures = 0
                                onEvent(.connected)
                            }
                            trigger.yield()
                        }
                    } catch {}
                    failures += 1
                    let wait = backoff.delay(afterFailures: failures, jitter: Double.random(in: 0.5...1))
                    onEvent(.disconnected(retryIn: wait))
                    try? await Task.sleep(for: wait)
                }
            }
            group.addTask { [pollInterval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    trigger.yield()
                }
            }
            group.addTask { [engine, store, transport, backoff, onEvent] in
                var failures = 0
                for await _ in triggers {
                    if Task.isCancelled { break }
                    do throws(SyncError) {
                        // The shares first: a note moved into one is then held here when its
                        // deletion from the account's own notes comes down (not counted as lost).
                        if let shared = await store.syncShares(transport: transport) { onEvent(.shared(shared)) }
                        let report = try await engine.sync()
                        failures = 0
                        onEvent(.synced(report))
                    } catch {
                        failures += 1
                        let wait = backoff.delay(afterFailures: failures, jitter: Double.random(in: 0.5...1))
                        onEvent(.failed(error, retryIn: wait))
                        if case .massDeletion = error { continue }
                        try? await Task.sleep(for: wait)
                        trigger.yield()
                    }
                }
            }
            await withTaskCancellationHandler {
                await group.next()
            } onCancel: {
                trigger.finish()
            }
            group.cancelAll()
        }
    }
}
