import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSyncProtocol

/// Several uploads imported as one, as `notetaker import FOLDER` imports a folder: the files
/// of a Markdown selection, or of a whole folder (an Obsidian vault, a Joplin or NoteTaker
/// export, with its attachments), kept one request at a time under their relative paths in
/// a private folder until the last one, so that links between the notes are kept.
///
/// A batch is named by the page (a UUID). One not finished within an hour is removed when the
/// next batch starts.
struct ImportBatch {
    /// How long an unfinished batch is kept.
    static let lifetime: TimeInterval = 60 * 60
    /// The most folders a relative path may go down.
    static let maximumDepth = 32
    private static let prefix = "notetaker-import-batch-"

    /// The batch's private folder.
    let folder: URL

    /// The batch named `name`, its folder made when it is the first file's (removing batches
    /// left unfinished).
    init(named name: String) throws(WebAPIError) {
        guard let id = UUID(uuidString: name) else {
            throw WebAPIError.invalid("The import batch '\(name)' is not a UUID. Nothing was imported.")
        }
        let temporary = FileManager.default.temporaryDirectory
        folder = temporary.appendingPathComponent(Self.prefix + id.uuidString.lowercased())
        guard !FileManager.default.fileExists(atPath: folder.path) else { return }
        Self.removeAbandoned(in: temporary)
        do {
            try OwnerOnly.createDirectory(at: folder)
        } catch {
            throw WebAPIError(.fileWriteFailed(path: folder.path, reason: error.localizedDescription))
        }
    }

    /// Where the upload with relative path `path` goes: each folder and the name made safe,
    /// nothing hidden, no `..`; `nil` for a path that cannot be kept.
    func destination(of path: String) -> URL? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty, components.count <= Self.maximumDepth else { return nil }
        var url = folder
        for component in components {
            guard !component.hasPrefix(".") else { return nil }
            let safe = String(Attachment.safeFileName(component).unicodeScalars.prefix(200))
            guard !safe.isEmpty else { return nil }
            url.appendPathComponent(safe)
        }
        return url
    }

    /// The bytes the batch holds so far.
    func size() -> Int64 {
        files().reduce(0) { $0 + Int64((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }

    /// How many files the batch holds so far.
    func fileCount() -> Int {
        files().count
    }

    private func files() -> [URL] {
        (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey])?.compactMap { $0 as? URL } ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    /// Makes the folders above `file`, owner only.
    func makeFolders(above file: URL) throws(WebAPIError) {
        var missing: [URL] = []
        var parent = file.deletingLastPathComponent()
        while parent.path != folder.path, !FileManager.default.fileExists(atPath: parent.path) {
            missing.append(parent)
            parent = parent.deletingLastPathComponent()
        }
        for directory in missing.reversed() {
            do {
                try OwnerOnly.createDirectory(at: directory)
            } catch {
                throw WebAPIError(.fileWriteFailed(path: directory.path, reason: error.localizedDescription))
            }
        }
    }

    /// Removes the batch and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes batches started more than ``lifetime`` ago.
    private static func removeAbandoned(in temporary: URL) {
        let entries = (try? FileManager.default.contentsOfDirectory(at: temporary, includingPropertiesForKeys: [.creationDateKey, .contentModificationDateKey])) ?? []
        let limit = Date().addingTimeInterval(-lifetime)
        for entry in entries where entry.lastPathComponent.hasPrefix(prefix) {
            let values = try? entry.resourceValues(forKeys: [.contentModificationDateKey])
            if let changed = values?.contentModificationDate, changed < limit { try? FileManager.default.removeItem(at: entry) }
        }
    }
}
