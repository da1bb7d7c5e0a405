import Foundation
import NoteTakerKit

/// Imports notes from a file or folder, telling the kind from what is there: a NoteTaker
/// JSON export, a folder of Markdown files (or one `.md` file, or a `.zip` of the folder), an Evernote `.enex` file, a
/// Google Keep export from Google Takeout, a Simplenote export, a Standard Notes backup, a
/// Joplin `.jex` export, TextBundles (a `.textbundle` folder, a `.textpack`, Bear's `.bear2bk`),
/// or Notion's Markdown & CSV export.
///
/// Notes go in whole or not at all, in batches; one bad note is skipped and named in the
/// report, never ending the import. Importing the same input twice adds each note once.
public struct Importer: Sendable {
    /// The store written to.
    public let store: NoteStore

    /// Creates an importer for a store.
    public init(store: NoteStore) {
        self.store = store
    }

    /// Imports everything at `url` and reports what was found, imported and skipped.
    public func importItems(at url: URL, progress: InterchangeProgressHandler? = nil) throws(InterchangeError) -> ImportReport {
        let (kind, location) = try Self.detect(url)
        let batcher = ImportBatcher(store: store, kind: kind, progress: progress)
        do {
            // The ids an import derives from paths and contents follow the store's rule.
            let identity = try storeCall { () throws(NoteTakerError) in try store.derivedIdentity() }
            switch kind {
            case .notetakerJSON: try JSONImporter(store: store, folder: location).run(batcher)
            case .markdown: try MarkdownImporter(store: store, identity: identity, input: location).run(batcher)
            case .evernote: try EvernoteImporter(store: store, identity: identity, file: location).run(batcher)
            case .googleKeep: try KeepImporter(store: store, identity: identity, archive: location).run(batcher)
            case .simplenote: try SimplenoteImporter(store: store, identity: identity, input: location).run(batcher)
            case .standardNotes: try StandardNotesImporter(store: store, identity: identity, input: location).run(batcher)
            case .notion: try NotionImporter(store: store, identity: identity, archive: location).run(batcher)
            case .textBundle: try TextBundleImporter(store: store, identity: identity, input: location).run(batcher)
            case .joplin: try JoplinImporter(store: store, identity: identity, archive: location).run(batcher)
            }
        } catch {
            // What went in before the failure stays, and is found by search like the rest.
            try? batcher.indexWhatWentIn()
            throw error
        }
        return try batcher.finish()
    }

    /// What kind of input is at `url`, and the file or folder to read.
    public static func detect(_ url: URL) throws(InterchangeError) -> (ImportReport.Kind, URL) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw .unreadable(path: url.path, reason: Wording("reasonNoSuchPath"))
        }
        if isFolder.boolValue {
            if url.pathExtension.lowercased() == "textbundle" { return (.textBundle, url) }
            if TakeoutParts.isPartsFolder(url) { return (.googleKeep, url) }
            let manifest = url.appendingPathComponent(ExportManifest.fileName)
            return FileManager.default.fileExists(atPath: manifest.path) ? (.notetakerJSON, url) : (.markdown, url)
        }
        if url.lastPathComponent == ExportManifest.fileName { return (.notetakerJSON, url.deletingLastPathComponent()) }
        switch url.pathExtension.lowercased() {
        case "enex": return (.evernote, url)
        case "jex": return (.joplin, url)
        case "textpack", "bear2bk": return (.textBundle, url)
        case "md", "markdown": return (.markdown, url)
        default: break
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .unreadable(path: url.path, reason: Wording("reasonPermissionDenied"))
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        if TarReader.isTar(head) { return (.joplin, url) }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return (try archiveKind(url), url)
        }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<en-export") { return (.evernote, url) }
        if text.contains("\"activeNotes\"") || text.contains("\"trashedNotes\"") { return (.simplenote, url) }
        if text.contains("\"items\""), text.contains("\"content_type\"") || text.contains("\"keyParams\"") || text.contains("\"auth_params\"") {
            return (.standardNotes, url)
        }
        throw .unknownKind(path: url.path)
    }

    /// What the zip at `url` is an export of, told by the first file in it that only one
    /// kind of export has. (The importer checks the whole archive before it imports anything.)
    private static func archiveKind(_ url: URL) throws(InterchangeError) -> ImportReport.Kind {
        let telling = try ZipReader.firstPath(in: url) {
            $0 == SimplenoteImporter.notesPath || StandardNotesImporter.isBackup($0) || TextBundleImporter.isBundleFile($0)
                || NotionImporter.isTelling($0) || KeepImporter.isNote($0)
        }
        switch telling {
        case SimplenoteImporter.notesPath: return .simplenote
        case let path? where StandardNotesImporter.isBackup(path): return .standardNotes
        case let path? where TextBundleImporter.isBundleFile(path): return .textBundle
        case let path? where NotionImporter.isTelling(path): return .notion
        case .some: return .googleKeep
        // A later part of a Takeout may hold only pictures: its notes are in the other parts.
        case nil where TakeoutParts.isPartName(url.lastPathComponent): return .googleKeep
        // No other export's mark, and Markdown notes: a zipped Markdown folder.
        case nil where try ZipReader.firstPath(in: url, where: MarkdownFiles.isZippedNote) != nil: return .markdown
        case nil: throw .unknownKind(path: url.path)
        }
    }
}
