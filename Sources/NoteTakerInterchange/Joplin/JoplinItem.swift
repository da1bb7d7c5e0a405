import Foundation
import NoteTakerKit

/// One item of Joplin's RAW format, as a `.jex` holds it: a `<32 hex>.md` file with the item's
/// title on its first line, a note's body after a blank line, and after another blank line its
/// fields as `name: value` lines, the last of them `type_`.
///
/// Field values have their newlines written `\n` (and a written `\n` as `\\n`); dates are ISO 8601
/// in UTC to the millisecond, `0` or empty when unset; flags are `0` or `1`.
struct JoplinItem {
    /// Joplin's item types (`type_`) an import reads; the others (settings, revisions, master
    /// keys…) are Joplin's own bookkeeping.
    enum Kind: Int {
        case note = 1, folder = 2, resource = 4, tag = 5, noteTag = 6
    }

    /// The item's `type_`.
    let type: Int
    let title: String
    /// A note's text (Markdown, or HTML when `markup_language` is 2); empty for other items.
    let body: String
    /// The fields after the text, by name.
    let fields: [String: String]

    /// Reads a RAW item; `nil` when `text` is not one (no `type_`, or a field line without `:`).
    /// The fields are read from the end, line by line, as Joplin reads them; the text above
    /// them is only cut, never split into lines.
    ///
    /// With `fieldsOnly`, `text` is the end of an item's file: its fields are read, without a
    /// title or body, and `nil` is answered unless a blank line above them shows they are all
    /// there.
    init?(text: String, fieldsOnly: Bool = false) {
        let text = text.withUnixLineEnds
        let utf8 = text.utf8
        var fields: [String: String] = [:]
        // Joplin writes no final newline; a file given one is read as if it had none.
        var end = utf8.endIndex
        while end > utf8.startIndex, Self.isBlank(utf8[utf8.index(before: end)]) || utf8[utf8.index(before: end)] == UInt8(ascii: "\n") {
            end = utf8.index(before: end)
        }
        var textEnd = utf8.startIndex, bounded = false
        while end > utf8.startIndex {
            let lineStart = utf8[..<end].lastIndex(of: UInt8(ascii: "\n")).map { utf8.index(after: $0) } ?? utf8.startIndex
            let line = Self.trimmed(text[lineStart..<end])
            if line.isEmpty {
                textEnd = lineStart > utf8.startIndex ? utf8.index(before: lineStart) : lineStart
                bounded = true
                break
            }
            guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            fields[String(Self.trimmed(line[..<colon]))] = Self.unescaped(String(Self.trimmed(line[line.index(after: colon)...])))
            end = lineStart > utf8.startIndex ? utf8.index(before: lineStart) : lineStart
        }
        guard let type = fields["type_"].flatMap({ Int($0) }), bounded || !fieldsOnly else { return nil }
        self.type = type
        self.fields = fields
        guard !fieldsOnly else {
            (title, body) = ("", "")
            return
        }
        // The title is the first line; a note's body starts on the third, below a blank one.
        let above = text[..<textEnd]
        let titleEnd = above.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? above.endIndex
        title = String(above[..<titleEnd])
        let blankEnd = titleEnd < above.endIndex ? above.utf8[above.utf8.index(after: titleEnd)...].firstIndex(of: UInt8(ascii: "\n")) : nil
        body = type == Kind.note.rawValue ? blankEnd.map { String(above[above.utf8.index(after: $0)...]) } ?? "" : ""
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isBlank($0) }), let last = utf8.lastIndex(where: { !isBlank($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// The item's kind, when an import reads it.
    var kind: Kind? { Kind(rawValue: type) }

    /// The item's id (32 lowercase hex digits).
    var id: String { fields["id", default: ""].lowercased() }

    /// The id in the field `name` (`parent_id`, `note_id`…), `nil` when it is empty.
    func reference(_ name: String) -> String? {
        guard let value = fields[name], !value.isEmpty else { return nil }
        return value.lowercased()
    }

    /// Whether the flag `name` is set.
    func flag(_ name: String) -> Bool {
        fields[name] == "1"
    }

    /// The date in the field `name`: Joplin's ISO form, or milliseconds since 1970 (as `todo_due`
    /// and `deleted_time` are written); `nil` when it is unset or not a date.
    func date(_ name: String) -> Date? {
        guard let value = fields[name], !value.isEmpty, value != "0" else { return nil }
        if let milliseconds = Int64(value) { return EpochDate.date(milliseconds, perSecond: 1_000) }
        return Timestamp.date(from: value)
    }

    /// The date the person gave the item (`user_created_time`…), else the one Joplin keeps.
    func userDate(_ name: String) -> Date? {
        date("user_" + name) ?? date(name)
    }

    /// A field value with Joplin's escapes undone: `\n` and `\r` are line breaks, `\\n` and
    /// `\\r` a backslash before the letter.
    static func unescaped(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
        var result = "", characters = Array(value), index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                let next = characters[index + 1]
                if next == "n" || next == "r" {
                    result.append(next == "n" ? "\n" : "\r")
                    index += 2
                    continue
                }
                if next == "\\", index + 2 < characters.count, characters[index + 2] == "n" || characters[index + 2] == "r" {
                    result.append("\\")
                    result.append(characters[index + 2])
                    index += 3
                    continue
                }
            }
            result.append(character)
            index += 1
        }
        return result
    }
}
