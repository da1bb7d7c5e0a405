/// Lets at most a few pieces of heavy work (password hashing) run at once; the rest wait
/// their turn without holding a thread, so a flood of logins cannot starve syncing devices.
actor WorkLimiter {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A limiter for `limit` pieces of work at once.
    init(limit: Int) {
        available = max(1, limit)
    }

    /// Runs `work` when a place is free.
    nonisolated func run<T>(_ work: () throws -> T) async throws -> T {
        await acquire()
        let result = Result { try work() }
        await release()
        return try result.get()
    }

    private func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
