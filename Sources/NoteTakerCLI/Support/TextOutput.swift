import Foundation
import NoteTakerKit

/// How notes, folders and files read in plain output.
package enum TextOutput {
    /// The first 8 characters of an id: enough to type back as a prefix.
    static func shortId(_ id: UUID) -> String { String(id.key.prefix(8)) }

    /// A date in the local time zone, to the minute (`2026-11-22 14:03`), or to the second.
    /// (The C library's `localtime_r`: a `Calendar` loads ICU's data, a few milliseconds of a
    /// command that lists notes.)
    package static func dateTime(_ date: Date, seconds showsSeconds: Bool = false) -> String {
        var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) ?? 0
        var local = tm()
        localtime_r(&seconds, &local)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(local.tm_year + 1900, 4))-\(padded(local.tm_mon + 1, 2))-\(padded(local.tm_mday, 2)) "
            + "\(padded(local.tm_hour, 2)):\(padded(local.tm_min, 2))" + (showsSeconds ? ":\(padded(local.tm_sec, 2))" : "")
    }

    /// One line of a note list: id, date, pin mark, title and tags.
    static func noteLine(_ note: Note, date: Date? = nil) -> String {
        let pin = note.isPinned ? "*" : " "
        let tags = note.tags.isEmpty ? "" : "  " + note.tags.map { "#" + $0 }.joined(separator: " ")
        return "\(shortId(note.id))  \(dateTime(date ?? note.modifiedAt))  \(pin) \(note.displayTitle)\(tags)"
    }

    /// A size for people: `512 B`, `12.3 KB`, `4.0 MB`.
    package static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// Prints a list of notes, or says there are none when a person is reading.
    static func printNotes(_ notes: [Note], empty: String, date: (Note) -> Date = \.modifiedAt) {
        if notes.isEmpty, Terminal.isInteractive { print(empty) }
        for note in notes { print(noteLine(note, date: date(note))) }
    }
}
