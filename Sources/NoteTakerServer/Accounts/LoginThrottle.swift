import Foundation

/// Counts failed log-ins, so that guessing slows down (the rule: ``LoginThrottle``).
protocol LoginAttempts: Sendable {
    /// Starts an attempt: the seconds to wait when it may not be made now, or `nil` when it
    /// may (it then counts as failed until ``succeeded(username:address:now:)``).
    func begin(username: String, address: String, now: Date) async throws -> Int?
    /// Takes back an attempt that succeeded.
    func succeeded(username: String, address: String, now: Date) async throws
}

/// Slows down password guessing, by user name *and* source address.
///
/// The rule, and why it is safe:
/// - Each (user name, address) pair may fail 5 times; then each further try must wait,
///   30 seconds, then twice as long each time, up to a quarter of an hour. Someone guessing a user's
///   password from one machine is slowed down; the user, logging in from another address,
///   is not: an attacker cannot lock the owner out.
/// - Each address may fail 20 times, whatever names it tries; then the same waits. One
///   machine cannot guess across many user names.
/// - An attempt counts as failed from the moment it starts, and is taken back if it
///   succeeds: guesses sent in parallel cannot all slip through before the first failure is
///   known.
/// - It remembers at most ``capacity`` pairs and addresses, forgetting those whose wait is
///   over first: memory stays bounded whatever names are tried.
///
/// Many addresses guessing one name each get 5 tries apiece; the slow password hash (and
/// ``WorkLimiter``) bounds how fast that can go.
actor LoginThrottle: LoginAttempts {
    private struct Failures {
        var count: Int
        var last: Date
    }

    private struct Pair: Hashable {
        var name: String
        var address: String
    }

    /// Failures allowed per user name and address before waiting is required.
    let freePerName: Int
    /// Failures allowed per address, whatever the names.
    let freePerAddress: Int
    /// The most entries of each kind remembered.
    let capacity: Int
    private var pairs: [Pair: Failures] = [:]
    private var addresses: [String: Failures] = [:]

    init(freePerName: Int = 5, freePerAddress: Int = 20, capacity: Int = 10_000) {
        self.freePerName = freePerName
        self.freePerAddress = freePerAddress
        self.capacity = capacity
    }

    /// Starts an attempt: the seconds to wait when it may not be made now, or `nil` when it
    /// may (it then counts as failed until ``succeeded(username:address:)``).
    func begin(username: String, address: String, now: Date = Date()) -> Int? {
        let pair = Pair(name: username.lowercased(), address: address)
        let wait = max(Self.wait(pairs[pair], free: freePerName, now: now) ?? 0, Self.wait(addresses[address], free: freePerAddress, now: now) ?? 0)
        if wait > 0 { return wait }
        pairs[pair, default: Failures(count: 0, last: now)].count += 1
        pairs[pair]?.last = now
        addresses[address, default: Failures(count: 0, last: now)].count += 1
        addresses[address]?.last = now
        prune(now: now)
        return nil
    }

    /// Takes back an attempt that succeeded: the pair starts afresh.
    func succeeded(username: String, address: String, now: Date = Date()) {
        pairs[Pair(name: username.lowercased(), address: address)] = nil
        if let count = addresses[address]?.count { addresses[address]?.count = max(0, count - 1) }
    }

    /// How many pairs and addresses are remembered.
    var remembered: Int { pairs.count + addresses.count }

    private static func wait(_ failures: Failures?, free: Int, now: Date) -> Int? {
        failures.flatMap { wait(count: $0.count, last: $0.last, free: free, now: now) }
    }

    /// The seconds still to wait after `count` failures, the last at `last`, when `free` are
    /// allowed: 30 seconds, then twice as long each time, up to a quarter of an hour.
    static func wait(count: Int, last: Date, free: Int, now: Date) -> Int? {
        guard count >= free else { return nil }
        let delay = min(900, 30 << min(count - free, 5))
        let remaining = last.addingTimeInterval(TimeInterval(delay)).timeIntervalSince(now)
        return remaining > 0 ? Int(remaining.rounded(.up)) : nil
    }

    /// Forgets entries whose waits are over, then the oldest, when over capacity.
    private func prune(now: Date) {
        if pairs.count > capacity {
            pairs = pairs.filter { now.timeIntervalSince($0.value.last) < 900 }
            if pairs.count > capacity {
                pairs = Dictionary(uniqueKeysWithValues: pairs.sorted { $0.value.last > $1.value.last }.prefix(capacity / 2).map { ($0.key, $0.value) })
            }
        }
        if addresses.count > capacity {
            addresses = addresses.filter { now.timeIntervalSince($0.value.last) < 900 }
            if addresses.count > capacity {
                addresses = Dictionary(uniqueKeysWithValues: addresses.sorted { $0.value.last > $1.value.last }.prefix(capacity / 2).map { ($0.key, $0.value) })
            }
        }
    }
}
