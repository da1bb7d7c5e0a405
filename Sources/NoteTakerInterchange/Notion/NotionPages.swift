import Foundation
import NoteTakerKit

/// The pages and databases of a Notion export (all its parts), known before any is imported, so that a link to a
/// page anywhere in the export becomes a link by id.
struct NotionPages {
    /// A page (`.md`) or a database (`.csv`) to import.
    struct Entry {
        var zip: ZipReader
        var file: ZipReader.File
        /// Its name without the id.
        var title: String
        /// The note it becomes.
        var id: UUID
        var isDatabase: Bool
    }

    /// The pages and databases, in the archive's order; a database once (its `_all.csv`, which
    /// holds every row, when Notion wrote one).
    private(set) var entries: [Entry] = []
    /// The note each page's and database's path (both CSVs of a database) becomes.
    private var notes: [String: UUID] = [:]
    /// The folders that hold a database's rows (named as the database's CSV).
    private var databaseFolders: Set<String> = []

    init(parts: ZipParts, identity: DerivedIdentity) {
        let paths = Set(parts.files.map(\.file.path))
        for (zip, file) in parts.files {
            let kind = ArchivePath.fileExtension(file.path)
            guard kind == "md" || kind == "csv" else { continue }
            let (title, notionId) = NotionPath.split(ArchivePath.name(file.path))
            let isDatabase = kind == "csv"
            let stem = ArchivePath.stem(file.path)
            if isDatabase, !stem.hasSuffix("_all"), paths.contains(stem + "_all.csv") { continue }
            let base = isDatabase && stem.hasSuffix("_all") ? String(stem.dropLast(4)) : stem
            let id = identity.importedID((isDatabase ? "notion-database:" : "notion:") + (notionId ?? file.path))
            entries.append(Entry(zip: zip, file: file, title: title, id: id, isDatabase: isDatabase))
            notes[file.path] = id
            if isDatabase {
                notes[base + ".csv"] = id
                notes[base + "_all.csv"] = id
                databaseFolders.insert(base)
            }
        }
    }

    /// The note the page or database at `path` becomes.
    func note(at path: String) -> UUID? {
        notes[path]
    }

    /// Whether the page at `path` is a row of a database (its properties written under its title).
    func isDatabaseRow(_ path: String) -> Bool {
        databaseFolders.contains(ArchivePath.folder(path))
    }
}
