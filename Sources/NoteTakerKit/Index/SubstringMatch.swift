import Foundation
import GRDB
import GRDBSQLite

/// The SQL function `notetaker_contains(text, part)`, registered on every connection: whether
/// `text` contains `part`, ASCII letters compared without case, other characters as they are.
///
/// It is what substring search scans every note with. SQLite's `LIKE` answers the same
/// question but matches its pattern character by character, and `instr` cannot ignore case;
/// this compares the UTF-8 bytes SQLite already holds, without making strings of them —
/// about twice as fast as `LIKE` over a whole store.
enum SubstringMatch {
    /// The SQL name of the function.
    static let name = "notetaker_contains"

    /// Makes the function available to queries on this connection.
    static func register(_ db: Database) {
        sqlite3_create_function_v2(
            db.sqliteConnection, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, contains, nil, nil, nil)
    }

    private static let contains: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, arguments in
        guard count == 2, let arguments, let text = arguments[0], let part = arguments[1],
              let textBytes = sqlite3_value_text(text), let partBytes = sqlite3_value_text(part)
        else { return sqlite3_result_int(context, 0) }
        let found = SubstringMatch.contains(
            UnsafeBufferPointer(start: textBytes, count: Int(sqlite3_value_bytes(text))),
            UnsafeBufferPointer(start: partBytes, count: Int(sqlite3_value_bytes(part))))
        sqlite3_result_int(context, found ? 1 : 0)
    }

    /// Whether `text` contains `part`, ASCII letters compared without case. Candidates for
    /// the first byte are found with `memchr` (both cases of a letter), then compared.
    static func contains(_ text: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, let head = part.first else { return part.isEmpty }
        guard part.count <= text.count else { return false }
        let lower = folded(head)
        let upper = lower &- 97 < 26 ? lower & 0xDF : lower
        let last = text.count - part.count
        /// The next offset at or after `from` holding `byte`, or past `last` when none.
        func next(_ byte: UInt8, from: Int) -> Int {
            guard from <= last, let found = memchr(base + from, Int32(byte), last - from + 1) else { return last + 1 }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        var lowerAt = next(lower, from: 0)
        var upperAt = upper == lower ? last + 1 : next(upper, from: 0)
        while true {
            let start = min(lowerAt, upperAt)
            if start > last { return false }
            var offset = 1
            while offset < part.count, folded(text[start + offset]) == folded(part[offset]) { offset += 1 }
            if offset == part.count { return true }
            if start == lowerAt { lowerAt = next(lower, from: start + 1) } else { upperAt = next(upper, from: start + 1) }
        }
    }

    /// An ASCII capital as its small letter; any other byte as it is.
    @inline(__always)
    private static func folded(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }
}
