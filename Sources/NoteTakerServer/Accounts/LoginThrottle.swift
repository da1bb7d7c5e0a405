import Foundation

/// Slows down repeated failed logins for a user name: after a few failures, each further
/// attempt must wait, twice as long each time, up to a quarter of an hour.
actor LoginThrottle {
    private struct Failures {
        var count: Int
        var last: Date
    }

    /// Failures allowed before waiting is required.
    let freeAttempts: Int
    private var failures: [String: Failures] = [:]

    init(freeAttempts: Int = 5) {
        self.freeAttempts = freeAttempts
    }

    /// Seconds to wait before `username` may try again, or `nil` when it may try now.
    func waitTime(for username: String, now: Date = Date()) -> Int? {
        guard let entry = failures[username.lowercased()], entry.count >= freeAttempts else { return nil }
        let delay = min(900, 1 << min(entry.count - freeAttempts, 10))
        let remaining = entry.last.addingTimeInterval(TimeInterval(delay)).timeIntervalSince(now)
        return remaining > 0 ? Int(remaining.rounded(.up)) : nil
    }

    /// Counts a failed attempt.
    func recordFailure(for username: String, now: Date = Date()) {
        let key = username.lowercased()
        let count = (failures[key]?.count ?? 0) + 1
        failures[key] = Failures(count: count, last: now)
    }

    /// Forgets failures after a successful login.
    func recordSuccess(for username: String) {
        failures[username.lowercased()] = nil
    }
}
