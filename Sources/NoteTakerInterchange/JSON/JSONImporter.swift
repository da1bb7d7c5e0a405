import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Reads a NoteTaker JSON export back: folders and tags first, then `notes.jsonl` one line
/// at a time. Ids are kept, so importing an export twice adds its notes once.
struct JSONImporter {
    /// The longest line read: a 10 MB body with every character escaped, and room to spare.
    static let maximumLineLength = 64 << 20

    let store: NoteStore
    let folder: URL

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let manifest = try readManifest()
        let folderIds = importFolders(manifest.folders, batcher)
        try storeCall { () throws(NoteTakerError) in
            try store.importTags(manifest.tags.map { Tag(id: Tag.id(forName: $0.name), name: $0.name, createdAt: $0.createdAt) })
        }
        let notesURL = folder.appendingPathComponent(ExportManifest.notesFileName)
        let total = (try? FileManager.default.attributesOfItem(atPath: notesURL.path)[.size] as? NSNumber)?.int64Value
        var reader = try LineReader(url: notesURL, maximumLineLength: Self.maximumLineLength)
        defer { reader.close() }
        let decoder = ExportManifest.makeDecoder()
        while let line = try reader.next() {
            switch line {
            case .tooLong(let number):
                batcher.skip("\(ExportManifest.notesFileName):\(number)", reason: Wording("skipLineTooLong"))
            case .text(let data, let number):
                guard !data.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) else { continue }
                let label = "\(ExportManifest.notesFileName):\(number)"
                do {
                    let note = try decoder.decode(ExportedNote.self, from: data)
                    try add(note, label: label, folderIds: folderIds, batcher)
                } catch let error as DecodingError {
                    batcher.skip(label, reason: Wording("skipInvalidNote", ["reason": error.readableDescription]))
                } catch let error as InterchangeError {
                    throw error
                } catch {
                    batcher.skip(label, reason: Wording("skipInvalidJSON"))
                }
            }
            batcher.reportProgress(done: reader.bytesRead, total: total)
        }
    }

    private func readManifest() throws(InterchangeError) -> ExportManifest {
        let url = folder.appendingPathComponent(ExportManifest.fileName)
        let manifest: ExportManifest
        do {
            manifest = try ExportManifest.makeDecoder().decode(ExportManifest.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw .badExport(path: url.path, reason: .verbatim(error.readableDescription))
        } catch {
            throw .unreadable(path: url.path, reason: .verbatim(error.localizedDescription))
        }
        guard manifest.format == ExportManifest.formatName else {
            throw .badExport(path: url.path, reason: Wording("reasonExportFormat", ["format": manifest.format, "expected": ExportManifest.formatName]))
        }
        guard manifest.version <= ExportManifest.currentVersion else {
            throw .badExport(path: url.path, reason: Wording("reasonExportNewer", ["version": String(manifest.version)]))
        }
        return manifest
    }

    /// Creates the folders, parents first (whatever order the file lists them in), and
    /// returns which store folder stands for each exported id.
    private func importFolders(_ folders: [ExportedFolder], _ batcher: ImportBatcher) -> [String: UUID] {
        var ids: [String: UUID] = [:]
        var waiting = folders
        while !waiting.isEmpty {
            var next: [ExportedFolder] = []
            for folder in waiting {
                if let parent = folder.parentId, ids[parent] == nil, waiting.contains(where: { $0.id == parent }) {
                    next.append(folder)
                    continue
                }
                guard let id = UUID(uuidString: folder.id) else {
                    batcher.report.warnings.append(.init(item: folder.name, wording: Wording("folderIdNotUUID", ["id": folder.id])))
                    continue
                }
                var icon = folder.icon
                if let long = icon, long.utf8.count > NoteStore.maximumIconBytes {
                    batcher.report.warnings.append(.init(item: folder.name, wording: Wording("folderIconDropped", [
                        "size": long.utf8.count, "maximum": NoteStore.maximumIconBytes])))
                    icon = nil
                }
                let candidate = Folder(
                    id: id, name: folder.name, icon: icon, sortOrder: folder.sortOrder,
                    createdAt: folder.createdAt, modifiedAt: folder.modifiedAt, parentId: folder.parentId.flatMap { ids[$0] })
                do {
                    ids[folder.id] = try store.importFolder(candidate)
                } catch {
                    batcher.report.warnings.append(.init(item: folder.name, wording: Wording("folderRefused", ["reason": error.wording])))
                }
            }
            if next.count == waiting.count {
                for folder in next {
                    batcher.report.warnings.append(.init(item: folder.name, wording: Wording("folderLoop")))
                }
                break
            }
            waiting = next
        }
        return ids
    }

    private func add(_ note: ExportedNote, label: String, folderIds: [String: UUID], _ batcher: ImportBatcher) throws(InterchangeError) {
        let label = note.title.isEmpty ? label : "\(label) '\(note.title)'"
        guard let noteId = UUID(uuidString: note.id) else {
            return batcher.skip(label, reason: Wording("skipNoteIdNotUUID", ["id": note.id]))
        }
        var files: [NoteImport.File] = []
        for attachment in note.attachments {
            guard let attachmentId = UUID(uuidString: attachment.id) else {
                return batcher.skip(label, reason: Wording("skipAttachmentIdNotUUID", ["name": attachment.fileName]))
            }
            guard attachment.sha256.utf8.count == 64, attachment.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                return batcher.skip(label, reason: Wording("skipAttachmentNoSHA", ["name": attachment.fileName]))
            }
            files.append(NoteImport.File(
                id: attachmentId, fileName: attachment.fileName,
                source: folder.appendingPathComponent(ExportManifest.attachmentPath(hash: attachment.sha256)),
                createdAt: attachment.createdAt, expectedSHA256: attachment.sha256))
        }
        let draft = NoteDraft(
            title: note.title, body: note.body, isPinned: note.isPinned, folderId: note.folderId.flatMap { folderIds[$0] },
            tags: note.tags, id: noteId, createdAt: note.createdAt, modifiedAt: note.modifiedAt, trashedAt: note.trashedAt)
        try batcher.add(NoteImport(draft: draft, files: files, followsSource: true), label: label)
    }
}
