import Foundation

/// Three-way merge of note bodies, line by line: edits to different parts of a note both
/// survive; edits that overlap or touch are not guessed at.
///
/// Guards, as DESIGN.md asks: the diff is bounded (lines compared after the common start
/// and end are trimmed), overlapping or adjacent edits fail rather than interleave, and an
/// edit made identically on both sides is taken once, so merging never duplicates text.
public enum TextMerge {
    /// The most line comparisons one diff may make before the merge gives up.
    package static let maximumComparisons = 4_000_000

    /// The merged text, or `nil` when both sides changed the same (or neighbouring) lines.
    public static func merge(base: String, local: String, server: String) -> String? {
        if local == server || server == base { return local }
        if local == base { return server }
        let baseLines = lines(base)
        guard let localEdits = edits(from: baseLines, to: lines(local)),
              let serverEdits = edits(from: baseLines, to: lines(server))
        else { return nil }

        var result: [Substring] = []
        var position = 0
        var localIndex = 0
        var serverIndex = 0
        while localIndex < localEdits.count || serverIndex < serverEdits.count {
            let next: Edit
            let nextLocal = localIndex < localEdits.count ? localEdits[localIndex] : nil
            let nextServer = serverIndex < serverEdits.count ? serverEdits[serverIndex] : nil
            if let l = nextLocal, let s = nextServer, l.touches(s) {
                guard l == s else { return nil }
                next = l
                localIndex += 1
                serverIndex += 1
            } else if let l = nextLocal, nextServer.map({ l.start < $0.start }) ?? true {
                next = l
                localIndex += 1
            } else if let s = nextServer {
                next = s
                serverIndex += 1
            } else {
                break
            }
            result.append(contentsOf: baseLines[position..<next.start])
            result.append(contentsOf: next.replacement)
            position = next.end
        }
        result.append(contentsOf: baseLines[position...])
        return result.joined(separator: "\n")
    }

    /// A replacement of base lines `start..<end` by `replacement`.
    package struct Edit: Equatable {
        package var start: Int
        package var end: Int
        package var replacement: [Substring]

        /// Whether two edits overlap or sit next to each other (no untouched line between).
        package func touches(_ other: Edit) -> Bool {
            start <= other.end && other.start <= end
        }
    }

    /// The text's lines, split on its bytes (splitting on characters would find the grapheme
    /// boundaries of the whole text first, several times slower on long notes).
    package static func lines(_ text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// The edits turning `base` into `other`, in order, or `nil` when the diff is too large.
    package static func edits(from base: [Substring], to other: [Substring]) -> [Edit]? {
        var prefix = 0
        while prefix < base.count, prefix < other.count, base[prefix] == other[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < base.count - prefix, suffix < other.count - prefix,
              base[base.count - 1 - suffix] == other[other.count - 1 - suffix] { suffix += 1 }
        let a = Array(base[prefix..<(base.count - suffix)])
        let b = Array(other[prefix..<(other.count - suffix)])
        if a.isEmpty && b.isEmpty { return [] }
        guard a.count * b.count <= maximumComparisons else { return nil }

        // Longest common subsequence table, then a walk that groups unmatched lines into edits.
        let width = b.count + 1
        var table = [Int32](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i * width + j] = a[i] == b[j]
                    ? table[(i + 1) * width + j + 1] + 1
                    : max(table[(i + 1) * width + j], table[i * width + j + 1])
            }
        }
        var edits: [Edit] = []
        var current: Edit?
        var i = 0
        var j = 0
        func flush() {
            if let edit = current { edits.append(edit) }
            current = nil
        }
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                flush()
                i += 1
                j += 1
            } else if j < b.count, i == a.count || table[i * width + j + 1] >= table[(i + 1) * width + j] {
                if current == nil { current = Edit(start: prefix + i, end: prefix + i, replacement: []) }
                current?.replacement.append(b[j])
                j += 1
            } else {
                if current == nil { current = Edit(start: prefix + i, end: prefix + i, replacement: []) }
                current?.end = prefix + i + 1
                i += 1
            }
        }
        flush()
        return edits
    }
}
