import Foundation

/// File and folder names that work on every common file system (Linux, macOS, Windows,
/// FAT-formatted USB sticks), made from note titles and folder names.
enum SafeName {
    /// Longest name kept, in UTF-8 bytes, before the extension (file systems allow 255).
    static let maximumBytes = 120

    private static let reserved: Set<String> = [
        "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
        "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
    ]

    /// `name` with path separators, characters Windows refuses and control characters
    /// replaced, no leading or trailing dots and spaces, not a reserved device name, and
    /// short enough; `fallback` when nothing is left.
    static func component(_ name: String, fallback: String) -> String {
        var result = ""
        for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar {
            case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": result.unicodeScalars.append("-")
            case _ where scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format:
                result.unicodeScalars.append(" ")
            default: result.unicodeScalars.append(scalar)
            }
        }
        result = result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        result = String(result.drop { $0 == "." || $0 == " " })
        while result.utf8.count > maximumBytes { result.removeLast() }
        while let last = result.last, last == "." || last == " " { result.removeLast() }
        if result.isEmpty { return fallback }
        let stem = result.split(separator: ".", maxSplits: 1).first.map(String.init) ?? result
        if reserved.contains(stem.lowercased()) { result = "_" + result }
        return result
    }
}

/// Hands out names in folders so none clash, even on file systems that ignore case:
/// `Plans.md`, then `Plans (2).md`, `Plans (3).md`...
struct NameAllocator {
    private var taken: [String: Set<String>] = [:]

    /// A free name for `stem` + `pathExtension` in `folder` (a relative path), now taken.
    mutating func allocate(_ stem: String, pathExtension: String, in folder: String) -> String {
        let suffix = pathExtension.isEmpty ? "" : ".\(pathExtension)"
        var candidate = stem + suffix
        var counter = 2
        while taken[folder, default: []].contains(candidate.lowercased()) {
            candidate = "\(stem) (\(counter))\(suffix)"
            counter += 1
        }
        taken[folder, default: []].insert(candidate.lowercased())
        return candidate
    }
}
