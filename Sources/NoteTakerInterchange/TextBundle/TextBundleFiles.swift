import Foundation
import NoteTakerKit

/// The files of TextBundles, wherever they are: a `.textbundle` folder on disk, or a zip
/// (a `.textpack` holds one bundle, Bear's `.bear2bk` backup many), read in place.
enum TextBundleFiles {
    case folder(URL, paths: [String])
    case zip(ZipReader)

    /// The files at `url`: a bundle folder's, or a zip's (checked as every archive is).
    init(_ url: URL) throws(InterchangeError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
            self = .zip(try ZipReader(url: url))
            return
        }
        let base = url.standardizedFileURL.path
        let found = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])?.compactMap { item -> String? in
            guard let file = item as? URL, (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { return nil }
            let path = file.standardizedFileURL.path
            return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : nil
        }
        // A folder is one bundle: its paths are given under its own name, as in a zip.
        self = .folder(url, paths: (found ?? []).sorted().map { url.lastPathComponent + "/" + $0 })
    }

    /// Every file's path, `/`-separated.
    var paths: [String] {
        switch self {
        case .folder(_, let paths): paths
        case .zip(let zip): zip.files.map(\.path)
        }
    }

    /// The size of the file at `path`.
    func size(_ path: String) -> Int64 {
        switch self {
        case .folder(let url, _): (try? FileManager.default.attributesOfItem(atPath: location(url, path).path)[.size] as? Int64) ?? 0
        case .zip(let zip): zip.file(path)?.size ?? 0
        }
    }

    /// The bytes of the file at `path`.
    func data(_ path: String) throws(InterchangeError) -> Data {
        switch self {
        case .folder(let url, _):
            guard let data = FileManager.default.contents(atPath: location(url, path).path) else {
                throw .unreadable(path: location(url, path).path, reason: Wording("reasonCannotOpen"))
            }
            return data
        case .zip(let zip):
            guard let file = zip.file(path) else { throw .unreadable(path: path, reason: Wording("reasonNoSuchPath")) }
            return try zip.data(file)
        }
    }

    /// Where the file at `path` can be copied from: the file itself in a folder, a copy
    /// inflated into `scratch` from a zip.
    func source(_ path: String, scratch: ScratchFolder) throws(InterchangeError) -> (url: URL, isCopy: Bool) {
        switch self {
        case .folder(let url, _): return (location(url, path), false)
        case .zip(let zip):
            guard let file = zip.file(path) else { throw .unreadable(path: path, reason: Wording("reasonNoSuchPath")) }
            let copy = scratch.newFile()
            try zip.copy(file, to: copy)
            return (copy, true)
        }
    }

    private func location(_ folder: URL, _ path: String) -> URL {
        folder.deletingLastPathComponent().appendingPathComponent(path)
    }
}
