import Foundation

/// The parts of a path inside an archive (`/`-separated, as ``ZipReader`` and ``TarReader`` give them), taken
/// apart without Foundation's path functions, which cost more than the rest of reading a
/// small entry on Linux.
enum ArchivePath {
    /// The folder `path` is in (`""` at the top).
    static func folder(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// The last part of `path`.
    static func name(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// `path` without the extension of its last part (a leading dot is not one).
    static func stem(_ path: String) -> String {
        let start = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[start...].lastIndex(of: "."), dot != start else { return path }
        return String(path[..<dot])
    }

    /// The extension of `path`'s last part, lowercased (`""` when it has none).
    static func fileExtension(_ path: String) -> String {
        let stem = stem(path)
        return stem.count == path.count ? "" : String(path.dropFirst(stem.count + 1)).lowercased()
    }

    /// `name` as a path inside the archive, or `nil` when it would leave it: absolute, with a
    /// drive letter, or with a `..` component (either slash counts: Windows tools write `\`).
    static func contained(_ name: String) -> String? {
        let bytes = name.utf8
        guard let first = bytes.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "\\"), !bytes.contains(0) else { return nil }
        if bytes.dropFirst().first == UInt8(ascii: ":") { return nil }
        let parts = name.split { $0 == "/" || $0 == "\\" }.filter { $0 != "." }
        guard !parts.contains("..") else { return nil }
        return parts.joined(separator: "/")
    }

    /// The path a relative link `target` written in a file of `folder` points to, `..` and
    /// `.` resolved; `nil` when it would leave the archive.
    static func resolve(_ target: String, from folder: String) -> String? {
        var parts = folder.split(separator: "/").map(String.init)
        for part in target.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return contained(parts.joined(separator: "/"))
    }
}
