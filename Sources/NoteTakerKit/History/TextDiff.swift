import Foundation

/// The lines that differ between two texts, as people read a change: what was taken out and
/// what was put in, between lines both share. Built on the same line diff as the merge.
public enum TextDiff {
    /// One line of a diff.
    public enum Line: Sendable, Hashable {
        /// A line both texts have.
        case same(String)
        /// A line only the older text has.
        case removed(String)
        /// A line only the newer text has.
        case added(String)
    }

    /// The diff from `old` to `new`, line by line. A diff too large to compute line by line
    /// shows every old line removed and every new line added.
    public static func lines(from old: String, to new: String) -> [Line] {
        let a = TextMerge.lines(old)
        let b = TextMerge.lines(new)
        guard let edits = TextMerge.edits(from: a, to: b) else {
            return a.map { .removed(String($0)) } + b.map { .added(String($0)) }
        }
        var result: [Line] = []
        var index = 0
        for edit in edits {
            result += a[index..<edit.start].map { .same(String($0)) }
            result += a[edit.start..<edit.end].map { .removed(String($0)) }
            result += edit.replacement.map { .added(String($0)) }
            index = edit.end
        }
        result += a[index...].map { .same(String($0)) }
        return result
    }

    /// The lines added and removed, counted from the edits alone, without copying a line.
    public static func changedLines(from old: String, to new: String) -> NoteVersion.ChangedLines {
        let a = TextMerge.lines(old)
        let b = TextMerge.lines(new)
        let (added, removed): (Int, Int)
        if let edits = TextMerge.edits(from: a, to: b) {
            added = edits.reduce(0) { $0 + $1.replacement.count }
            removed = edits.reduce(0) { $0 + $1.end - $1.start }
        } else {
            (added, removed) = (b.count, a.count)
        }
        return NoteVersion.ChangedLines(added: added, removed: removed)
    }
}
