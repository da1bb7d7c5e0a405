import Foundation
import NoteTakerSyncProtocol

/// Dates as NoteTaker writes them in JSON: ISO 8601 in UTC with milliseconds
/// (`2026-11-22T06:04:52.538Z`), formatted by hand — Foundation's formatters cost more than
/// the rest of a page of notes.
public enum Timestamp {
    /// The seconds since 1970 that have a four-digit year: 0001-01-01 to 9999-12-31. Dates
    /// from outside (sync, imports) must fall in it.
    public static let representable = RecordFieldReader.representableDates

    /// The date as ISO 8601 text in UTC, to the millisecond; a date outside
    /// ``representable`` is written as the nearest end of it.
    public static func string(_ date: Date) -> String {
        let raw = date.timeIntervalSince1970.isNaN ? 0 : date.timeIntervalSince1970
        let clamped = min(max(raw, representable.lowerBound), representable.upperBound)
        let milliseconds = ((clamped * 1_000_000).rounded() / 1000).rounded(.down)
        let whole = (milliseconds / 1000).rounded(.down)
        var seconds = time_t(whole)
        let fraction = Int(milliseconds - whole * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(fraction, width: 3))Z"
    }

    /// Reads ISO 8601 text, with or without fractional seconds, or a plain `YYYY-MM-DD` day
    /// (midnight UTC); `nil` when it is neither, or a date outside ``representable`` (year 0).
    public static func date(from text: String) -> Date? {
        let date = anyDate(from: text)
        return date.map { representable.contains($0.timeIntervalSince1970) } == true ? date : nil
    }

    private static func anyDate(from text: String) -> Date? {
        let exact = exactForm(text)
        if exact.matched { return exact.date }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(trimmed) { return date }
        return try? Date.ISO8601FormatStyle().year().month().day().parse(trimmed)
    }

    /// Reads exactly the form ``string(_:)`` writes (`YYYY-MM-DDTHH:MM:SS.mmmZ`) without a
    /// formatter (imports read three dates per note): whether the text has that form, and the
    /// date when it is a real one (no 30th of February).
    private static func exactForm(_ text: String) -> (matched: Bool, date: Date?) {
        var text = text
        return text.withUTF8 { bytes -> (Bool, Date?) in
            guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                  bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A else { return (false, nil) }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
                  let minute = number(14..<16), let second = number(17..<19), let millisecond = number(20..<23),
                  (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
            else { return (true, nil) }
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(second)
            let seconds = timegm(&parts)
            guard parts.tm_mday == Int32(day) else { return (true, nil) }
            return (true, Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000))
        }
    }

    private static func pad(_ value: some BinaryInteger, width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
