import Foundation

/// Tells an account's connected devices that its records changed, or those of a shared zone
/// it is a member of: the push channel's source.
///
/// Listeners are capped, per account and in total, so that push streams cannot use up the
/// server's connections; each belongs to a session and ends when that session does (log out,
/// password change).
///
/// The total is shared fairly: when it is reached, an account holding fewer streams than the
/// account holding the most takes that account's oldest one (whose device falls back to
/// polling, and may try again later), so a few accounts cannot shut everyone else out.
public actor ChangeNotifier {
    private struct Listener {
        var session: String
        var continuation: AsyncStream<PushEvent>.Continuation
        /// When it was opened, in order.
        var opened: Int
    }

    /// The most push streams one account may hold open.
    public nonisolated let perAccount: Int
    /// The most push streams open at once.
    public nonisolated let total: Int
    private var listeners: [Int64: [UUID: Listener]] = [:]
    private var count = 0
    private var opened = 0

    /// Creates a notifier with no listeners.
    public init(perAccount: Int = 10, total: Int = 500) {
        self.perAccount = perAccount
        self.total = total
    }

    /// A stream that yields the account's newest change token after every accepted change,
    /// and a zone's after every change of a zone the account is a member of, for the session
    /// with this token hash; refused (429) over the caps.
    func subscribe(account: Int64, session: String) throws(SyncServerError) -> AsyncStream<PushEvent> {
        guard (listeners[account]?.count ?? 0) < perAccount else {
            throw SyncServerError(.tooManyRequests, "This account already has \(perAccount) devices listening for changes; close one, or sync without --watch.", retryAfter: 60)
        }
        if count >= total {
            guard let (largest, oldest) = fairShareVictim(for: account) else {
                throw SyncServerError(.tooManyRequests, "The server is listening for changes on as many connections as it takes; try again later.", retryAfter: 60)
            }
            end(account: largest, id: oldest)
        }
        let id = UUID()
        let (stream, continuation) = AsyncStream<PushEvent>.makeStream(bufferingPolicy: .bufferingNewest(PushEvent.buffered))
        opened += 1
        listeners[account, default: [:]][id] = Listener(session: session, continuation: continuation, opened: opened)
        count += 1
        continuation.onTermination = { _ in
            Task { await self.unsubscribe(account: account, id: id) }
        }
        return stream
    }

    /// Tells every listener of the account that changes exist up to `token`.
    func notify(account: Int64, token: String) {
        for listener in listeners[account, default: [:]].values {
            listener.continuation.yield(.changes(token: token))
        }
    }

    /// Tells every listener of each of `accounts` that the zone has changes up to `token`.
    func notify(zone: String, token: String, accounts: [Int64]) {
        for account in accounts {
            for listener in listeners[account, default: [:]].values {
                listener.continuation.yield(.zone(zone, token: token))
            }
        }
    }

    /// Ends the streams of the account's sessions, all but `keeping`.
    func endSessions(account: Int64, keeping: String? = nil) {
        for listener in (listeners[account] ?? [:]).values where listener.session != keeping {
            listener.continuation.finish()
        }
    }

    /// Ends the streams of one session.
    func endSession(_ session: String) {
        for listener in listeners.values.flatMap(\.values) where listener.session == session {
            listener.continuation.finish()
        }
    }

    /// Passes an event on to the streams it concerns.
    func apply(_ event: ServerEvent) {
        switch event {
        case .changed(let account, let token): notify(account: account, token: token)
        case .zoneChanged(let zone, let token, let accounts): notify(zone: zone, token: token, accounts: accounts)
        case .sessionEnded(let hash): endSession(hash)
        case .sessionsEnded(let account, let keeping): endSessions(account: account, keeping: keeping)
        }
    }

    /// The accounts with a device listening.
    var listeningAccounts: [Int64] { Array(listeners.keys) }

    /// How many devices of the account are listening.
    func listenerCount(account: Int64) -> Int {
        listeners[account]?.count ?? 0
    }

    /// The stream to give up for `account` when every place is taken: the oldest of the
    /// account holding the most (of two holding as many, the one with the older stream), if
    /// that holds at least two more than `account` does, so that taking one leaves it no
    /// worse off than the newcomer.
    private func fairShareVictim(for account: Int64) -> (Int64, UUID)? {
        let candidates = listeners.compactMap { owner, streams in
            streams.min { $0.value.opened < $1.value.opened }.map { (owner: owner, count: streams.count, oldest: $0.key, opened: $0.value.opened) }
        }
        guard let victim = candidates.max(by: { ($0.count, -$0.opened) < ($1.count, -$1.opened) }),
              victim.count >= (listeners[account]?.count ?? 0) + 2
        else { return nil }
        return (victim.owner, victim.oldest)
    }

    /// Ends one stream and frees its place at once.
    private func end(account: Int64, id: UUID) {
        let listener = listeners[account]?[id]
        unsubscribe(account: account, id: id)
        listener?.continuation.finish()
    }

    private func unsubscribe(account: Int64, id: UUID) {
        if listeners[account]?.removeValue(forKey: id) != nil { count -= 1 }
        if listeners[account]?.isEmpty == true { listeners[account] = nil }
    }
}

/// What a push stream tells a device.
public enum PushEvent: Sendable, Hashable {
    /// The account's records changed up to `token`.
    case changes(token: String)
    /// A shared zone's records changed up to `token`, the zone's own.
    case zone(String, token: String)

    /// How many events a stream holds for a device that reads them slower than they come: the
    /// newest; a device that missed some syncs everything at the next one (its own token and
    /// each zone's say what is new).
    static let buffered = 16
}
