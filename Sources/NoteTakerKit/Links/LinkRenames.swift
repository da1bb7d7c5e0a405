import Foundation
import GRDB

/// A link's text follows its note's title: when a note is renamed here, each link to it whose
/// text was the old title (as `[[` and the web app write them) takes the new one, in every note
/// outside the trash that links to it, as Obsidian updates links on a rename. A link given text
/// of its own (`[see the plan](note:ID)`) keeps it. The id underneath never changes, so the link
/// led to the right note before and after; this keeps what it says right too.
///
/// Only a rename made on this device rewrites: the linking notes' edits then sync as any edit,
/// and a device that receives the rename through sync receives them too.
extension NoteLinks {
    /// `body` with the text of each link to `target` that reads `old` changed to `new`, or
    /// `nil` when no link there reads `old`. One pass over the text.
    static func renaming(in body: String, target: String, from old: String, to new: String) -> String? {
        let bytes = Array(body.utf8)
        let marker = Array("](\(scheme)".utf8)
        let oldText = Array(("[" + linkText(old)).utf8)
        let newText = Array(("[" + linkText(new)).utf8)
        var result: [UInt8] = []
        var copied = 0
        var index = 0
        var changed = false
        while index + marker.count + 36 <= bytes.count {
            guard bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) else {
                index += 1
                continue
            }
            let idStart = index + marker.count
            let textStart = index - oldText.count
            if UUID(uuidString: String(decoding: bytes[idStart..<(idStart + 36)], as: UTF8.self))?.key == target,
               textStart >= copied, bytes[textStart..<index].elementsEqual(oldText),
               textStart == 0 || bytes[textStart - 1] != UInt8(ascii: "\\") && bytes[textStart - 1] != UInt8(ascii: "!") {
                result += bytes[copied..<textStart]
                result += newText
                copied = index
                changed = true
            }
            index = idStart
        }
        guard changed else { return nil }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// A title as a link's text: its brackets escaped, as ``NoteStore/markdownLink(to:)`` writes it.
    static func linkText(_ title: String) -> String {
        title.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
    }
}
