import Foundation

/// Dates as NoteTaker writes them in JSON: ISO 8601 in UTC with milliseconds
/// (`2026-11-22T06:04:52.538Z`), formatted by hand — Foundation's formatters cost more than
/// the rest of a page of notes.
public enum Timestamp {
    /// The date as ISO 8601 text in UTC, to the millisecond.
    public static func string(_ date: Date) -> String {
        let milliseconds = ((date.timeIntervalSince1970 * 1_000_000).rounded() / 1000).rounded(.down)
        var seconds = time_t((milliseconds / 1000).rounded(.down))
        let fraction = Int(milliseconds - Double(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(fraction, width: 3))Z"
    }

    /// Reads ISO 8601 text, with or without fractional seconds, or a plain `YYYY-MM-DD` day
    /// (midnight UTC); `nil` when it is neither.
    public static func date(from text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(trimmed) { return date }
        return try? Date.ISO8601FormatStyle().year().month().day().parse(trimmed)
    }

    private static func pad(_ value: some BinaryInteger, width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
