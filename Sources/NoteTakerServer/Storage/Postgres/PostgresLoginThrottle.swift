import Foundation
import PostgresNIO

/// Failed log-ins counted in the database, so that guessing through several nodes is slowed
/// down as through one: the same rule as ``LoginThrottle`` (per user name and address, and
/// per address), with each attempt counted as failed from its start.
struct PostgresLoginThrottle: LoginAttempts {
    let database: PostgresDatabase
    /// Failures allowed per user name and address, and per address, before waiting.
    let freePerName = 5, freePerAddress = 20

    /// Starts an attempt, in one transaction holding both counters' rows.
    func begin(username: String, address: String, now: Date) async throws -> Int? {
        let keys = Self.keys(username: username, address: address)
        let logger = database.logger
        return try await database.transaction { connection in
            // Entries whose waits are long over are forgotten, so the table stays small.
            try await connection.query("DELETE FROM login_failure WHERE last < \(now.timeIntervalSince1970 - 86_400)", logger: logger)
            try await connection.query("""
                INSERT INTO login_failure (key, count, last) SELECT UNNEST(\([keys.pair, keys.address])::text[]), 0, \(now.timeIntervalSince1970)
                ON CONFLICT (key) DO NOTHING
                """, logger: logger)
            var wait = 0
            let rows = try await connection.query("""
                SELECT key, count, last FROM login_failure WHERE key = ANY(\([keys.pair, keys.address])) FOR UPDATE
                """, logger: logger)
            for try await (key, count, last) in rows.decode((String, Int32, Double).self) {
                let free = key == keys.pair ? freePerName : freePerAddress
                wait = max(wait, LoginThrottle.wait(count: Int(count), last: Date(timeIntervalSince1970: last), free: free, now: now) ?? 0)
            }
            if wait > 0 { return wait }
            try await connection.query("""
                UPDATE login_failure SET count = count + 1, last = \(now.timeIntervalSince1970) WHERE key = ANY(\([keys.pair, keys.address]))
                """, logger: logger)
            return nil
        }
    }

    /// Takes back an attempt that succeeded: the pair starts afresh.
    func succeeded(username: String, address: String, now: Date) async throws {
        let keys = Self.keys(username: username, address: address)
        try await database.transaction { connection in
            try await connection.query("DELETE FROM login_failure WHERE key = \(keys.pair)", logger: database.logger)
            try await connection.query("UPDATE login_failure SET count = GREATEST(count - 1, 0) WHERE key = \(keys.address)", logger: database.logger)
        }
    }

    private static func keys(username: String, address: String) -> (pair: String, address: String) {
        ("name \(username.lowercased()) \(address)", "address \(address)")
    }
}
