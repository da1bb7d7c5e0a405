import Foundation

/// Tells an account's connected devices that its records changed: the push channel's source.
public actor ChangeNotifier {
    private var listeners: [Int64: [UUID: AsyncStream<String>.Continuation]] = [:]

    /// Creates a notifier with no listeners.
    public init() {}

    /// A stream that yields the account's newest change token after every accepted change.
    func subscribe(account: Int64) -> AsyncStream<String> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1))
        listeners[account, default: [:]][id] = continuation
        continuation.onTermination = { _ in
            Task { await self.unsubscribe(account: account, id: id) }
        }
        return stream
    }

    /// Tells every listener of the account that changes exist up to `token`.
    func notify(account: Int64, token: String) {
        for continuation in listeners[account, default: [:]].values {
            continuation.yield(token)
        }
    }

    /// How many devices of the account are listening.
    func listenerCount(account: Int64) -> Int {
        listeners[account]?.count ?? 0
    }

    private func unsubscribe(account: Int64, id: UUID) {
        listeners[account]?[id] = nil
    }
}
