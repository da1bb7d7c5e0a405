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
        return "\(shortId(note.id))  \(dateTime(date ?? note.modifiedAt))  \(pin) \(title(note.title))\(tags)"
    }

    /// A note's title as it shows: itself, or "Untitled" in the reader's language when empty.
    package static func title(_ title: String) -> String {
        title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? Words.text("untitled") : title
    }

    /// Prints `rows` as columns two spaces apart, each as wide as its widest cell (a Chinese
    /// character takes two columns of a terminal); the last column is not padded.
    package static func printTable(_ rows: [[String]]) {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? width(of: $0[column]) : 0 }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - width(of: cell))
            }
            print(cells.joined(separator: "  "))
        }
    }

    /// The columns `text` takes on a terminal: two for each wide East Asian character.
    static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                total + 2
            default:
                total + 1
            }
        }
    }

    /// Prints `fields` a line each, the values lined up in a column at least `column` wide,
    /// after the longest label (`created:   2026-11-22 14:03`).
    package static func printFields(_ fields: [(label: String, value: String)], column: Int = 16) {
        let labelWidth = max(column, (fields.map { width(of: $0.label) }.max() ?? 0) + 1)
        for (label, value) in fields {
            print(label + String(repeating: " ", count: labelWidth - width(of: label)) + value)
        }
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
