import Foundation
import NoteTakerKit

/// A `.zip` of a Markdown folder (an Obsidian vault zipped to be sent or uploaded, a folder a
/// web browser cannot upload as it is): checked as every archive is, unpacked into a folder
/// only its owner reads, and imported as that folder would be, ids and links included, so that
/// importing the zip and importing the folder it holds add the same notes once.
///
/// When every file lies in one top folder (the vault's name, as a zip of a folder has it),
/// that folder is the root: its name is not made a folder of the store. macOS's `__MACOSX`
/// copies are left out; hidden files and folders (`.obsidian`) are left out by the importer.
struct MarkdownArchive {
    /// The folder the archive was unpacked into; remove it once the import ends.
    let scratch: ScratchFolder
    /// The folder to import: the archive's one top folder, or the unpacked archive itself.
    let root: URL

    /// Whether `url`, found to hold Markdown, is an archive of it rather than a folder or a note.
    static func isArchive(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
            && !["md", "markdown"].contains(url.pathExtension.lowercased())
    }

    /// Whether the zip entry at `path` is a Markdown note, which tells a zip of a Markdown folder.
    static func isNote(_ path: String) -> Bool {
        let name = path.lowercased()
        return (name.hasSuffix(".md") || name.hasSuffix(".markdown")) && !isMacOSCopy(path)
    }

    /// Whether `path` is one of the `__MACOSX/…/._name` copies of macOS's Finder.
    private static func isMacOSCopy(_ path: String) -> Bool {
        path.hasPrefix("__MACOSX/")
    }

    /// Unpacks the zip at `url` after its checks (``ZipReader``).
    init(unpacking url: URL) throws(InterchangeError) {
        let reader = try ZipReader(url: url)
        let files = reader.files.filter { !Self.isMacOSCopy($0.path) }
        scratch = try ScratchFolder(prefix: "notetaker-markdown")
        do throws(InterchangeError) {
            for file in files {
                let destination = scratch.url.appendingPathComponent(file.path)
                do {
                    try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw InterchangeError.writeFailed(path: destination.path, reason: .verbatim(error.localizedDescription))
                }
                try reader.copy(file, to: destination)
            }
        } catch {
            scratch.remove()
            throw error
        }
        let tops = Set(files.map { $0.path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? $0.path })
        let single = tops.count == 1 && files.allSatisfy { $0.path.contains("/") }
        root = single ? scratch.url.appendingPathComponent(tops.first ?? "") : scratch.url
    }
}
