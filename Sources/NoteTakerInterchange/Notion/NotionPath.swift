/// Notion's names in an export: every page, database and folder is named by its title, a space
/// and its 32-hex id (`Roadmap 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md`); a database's CSV has a
/// second copy with every row (`… 1a2b…_all.csv`).
enum NotionPath {
    /// `name` without its extension and its Notion id, and the id (`nil` when it has none).
    static func split(_ name: String) -> (title: String, id: String?) {
        var stem = Substring(ArchivePath.stem(name))
        if stem.hasSuffix("_all") { stem = stem.dropLast(4) }
        guard stem.count > 33, stem[stem.index(stem.endIndex, offsetBy: -33)] == " " else { return (String(stem), nil) }
        let id = stem.suffix(32)
        guard id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) else {
            return (String(stem), nil)
        }
        return (String(stem.dropLast(33)), String(id))
    }

    /// Whether `path` (inside a zip) is a page or a database that Notion named.
    static func isNotion(_ path: String) -> Bool {
        ["md", "csv"].contains(ArchivePath.fileExtension(path)) && split(ArchivePath.name(path)).id != nil
    }

    /// `path` with the ids taken out of every folder's name: the folders its note goes in.
    static func folders(_ path: String) -> String {
        path.split(separator: "/").map { split(String($0) + ".d").title }.joined(separator: "/")
    }
}
