import Foundation

/// What tells a server's history from an older copy of it.
///
/// An account's changes are numbered, and a change token says "everything up to change
/// *n*". A server restored from a backup numbers its next changes from where the backup
/// stopped, so the same *n* comes to mean other changes, and a device holding a token past
/// the backup would silently miss them and keep its own later changes marked as sent.
///
/// So every batch that changes anything gets a random mark, kept with the sequence it
/// ended at, and a token carries the mark of the batch that wrote its change *n*. A token
/// whose change the server does not hold, or holds under another mark, is from a history
/// this server no longer has: it answers ``APIErrorCode/serverRestored`` instead of
/// pretending the device is up to date. Tokens without a mark (from servers before marks)
/// are taken as before.
enum HistoryMark {
    /// A new mark: 64 random bits, as 16 hex digits.
    static func make() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A change token: the server, the sequence, and its mark when it has one.
    static func token(serverId: String, sequence: Int64, mark: String?) -> String {
        guard let mark else { return "\(serverId):\(sequence)" }
        return "\(serverId):\(sequence):\(mark)"
    }

    /// What a change token says.
    struct Parsed: Equatable {
        var sequence: Int64
        var mark: String?
    }

    /// Reads a token of server `serverId`; `nil` for a malformed one or another server's.
    static func parse(_ token: String, serverId: String) -> Parsed? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts[0] == Substring(serverId),
              let sequence = Int64(parts[1]), sequence >= 0
        else { return nil }
        if parts.count == 3 {
            guard parts[2].count == 16, parts[2].allSatisfy(\.isHexDigit) else { return nil }
            return Parsed(sequence: sequence, mark: String(parts[2]))
        }
        return Parsed(sequence: sequence, mark: nil)
    }
}
