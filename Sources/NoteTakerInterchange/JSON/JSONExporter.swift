import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// Writes the NoteTaker JSON export (see ``ExportManifest``): every field of every selected
/// note, folder and tag, and each attachment's bytes once. Exporting the same store twice
/// writes the same bytes.
struct JSONExporter {
    let store: NoteStore

    func export(_ selection: NoteSelection, into folder: URL, progress: InterchangeProgressHandler?) throws(InterchangeError) -> ExportReport {
        let scope = try ExportScope(store: store)
        let encoder = ExportManifest.makeEncoder()
        let notesFile = try BufferedFile(creating: folder.appendingPathComponent(ExportManifest.notesFileName))
        var report = ExportReport(format: .json)
        var copiedHashes = Set<String>()
        var usedFolders = Set<UUID>()
        var usedTags = Set<String>()
        try eachNote(of: store, in: selection) { notes throws(InterchangeError) in
            for note in notes {
                try notesFile.write(Self.encodeLine(ExportedNote(note), encoder))
                for attachment in note.attachments where copiedHashes.insert(attachment.contentHash).inserted {
                    try copyFile(
                        from: store.fileURL(for: attachment),
                        to: folder.appendingPathComponent(ExportManifest.attachmentPath(hash: attachment.contentHash)))
                    report.attachments += 1
                }
                if let folderId = note.folderId { usedFolders.insert(folderId) }
                usedTags.formUnion(note.tags.map(Tag.normalizedName))
            }
            report.notes += notes.count
            progress?(InterchangeProgress(done: Int64(report.notes), total: nil, notes: report.notes))
        }
        try notesFile.close()
        let everything = selection.folderId == nil && selection.tag == nil && selection.noteId == nil
        let tags = try storeCall { () throws(NoteTakerError) in try store.tags() }.map(\.tag)
            .filter { everything || usedTags.contains(Tag.normalizedName($0.name)) }
            .sorted { $0.name < $1.name }
        let folders = scope.folders(for: selection, usedFolderIds: usedFolders)
        report.folders = folders.count
        let manifest = ExportManifest(
            format: ExportManifest.formatName, version: ExportManifest.currentVersion,
            folders: folders.map(ExportedFolder.init), tags: tags.map { ExportedTag(name: $0.name, createdAt: $0.createdAt) },
            notes: ExportManifest.notesFileName, attachments: ExportManifest.attachmentsFolder)
        let pretty = ExportManifest.makeEncoder()
        pretty.outputFormatting.insert(.prettyPrinted)
        do {
            let manifestFile = folder.appendingPathComponent(ExportManifest.fileName)
            guard OwnerOnly.createFile(at: manifestFile, contents: try pretty.encode(manifest)) else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw .writeFailed(path: folder.appendingPathComponent(ExportManifest.fileName).path, reason: .verbatim(error.localizedDescription))
        }
        return report
    }

    private static func encodeLine(_ note: ExportedNote, _ encoder: JSONEncoder) throws(InterchangeError) -> Data {
        do {
            var line = try encoder.encode(note)
            line.append(UInt8(ascii: "\n"))
            return line
        } catch {
            throw .writeFailed(path: ExportManifest.notesFileName, reason: .verbatim(error.localizedDescription))
        }
    }
}

extension ExportedNote {
    init(_ note: Note) {
        self.init(
            id: note.id.key, title: note.title, body: note.body, createdAt: note.createdAt, modifiedAt: note.modifiedAt,
            isPinned: note.isPinned, folderId: note.folderId?.key, tags: note.tags, trashedAt: note.trashedAt,
            attachments: note.attachments.map {
                ExportedAttachment(
                    id: $0.id.key, fileName: $0.fileName, kind: $0.kind, size: $0.fileSize, sha256: $0.contentHash,
                    createdAt: $0.createdAt, path: ExportManifest.attachmentPath(hash: $0.contentHash))
            })
    }
}

extension ExportedFolder {
    init(_ folder: Folder) {
        self.init(
            id: folder.id.key, name: folder.name, parentId: folder.parentId?.key, icon: folder.icon,
            sortOrder: folder.sortOrder, createdAt: folder.createdAt, modifiedAt: folder.modifiedAt)
    }
}
