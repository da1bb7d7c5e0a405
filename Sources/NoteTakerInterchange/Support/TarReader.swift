import Foundation
import NoteTakerKit

/// A tar file (Joplin's `.jex` is one) read in place: its headers read one after another and
/// each file's bytes read from where they lie when they are needed, never the archive unpacked
/// to disk.
///
/// Reads ustar headers (with their path prefix), POSIX extended (pax) headers and GNU long
/// names. Opening refuses, before anything is imported, a file that is not a tar, a header whose
/// checksum fails, an entry that runs past the end of the file or an archive that stops without
/// the empty block that ends it (cut short), a path that leaves the archive, a link or a device,
/// and an archive over its ``ArchiveLimits``. Each refusal is
/// ``InterchangeError/badArchive(path:reason:)``.
final class TarReader {
    /// One file of the archive.
    struct File {
        /// Its path inside the archive, `/`-separated, without a leading `/`.
        let path: String
        /// Its size in bytes.
        let size: Int64
        /// Where its bytes start in the archive.
        fileprivate let offset: UInt64
    }

    /// The archive's path, for messages.
    let path: String
    /// Every file, in the archive's order (folders are implied by the paths).
    let files: [File]
    private let index: [String: Int]
    private let handle: FileHandle

    /// The largest extended header or long name read (a path is far shorter).
    static let maximumHeaderData: Int64 = 1 << 20

    /// Opens the tar at `url` and reads its headers, checking them against `limits`.
    init(url: URL, limits: ArchiveLimits = .standard) throws(InterchangeError) {
        path = url.path
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .unreadable(path: url.path, reason: Wording("reasonCannotOpen"))
        }
        self.handle = handle
        let length = (try? handle.seekToEnd()) ?? 0
        var offset: UInt64 = 0, total: Int64 = 0
        var files: [File] = []
        var pending = TarHeader.Overrides()
        var ended = false
        while offset + 512 <= length {
            let block = try Self.read(handle, at: offset, count: 512, path: url.path)
            if block.allSatisfy({ $0 == 0 }) {
                ended = true
                break
            }
            guard let header = TarHeader(block) else {
                throw .badArchive(path: url.path, reason: offset == 0
                    ? Wording("archiveNotTar") : Wording("archiveDamaged", ["entry": pending.path ?? "@\(offset)"]))
            }
            let size = pending.size ?? header.size
            let name = pending.path ?? header.name
            let start = offset + 512
            guard start + UInt64(size) <= length else {
                throw .badArchive(path: url.path, reason: Wording("archiveDamaged", ["entry": name]))
            }
            offset = start + (UInt64(size) + 511) / 512 * 512
            switch header.kind {
            case .extended, .longName:
                guard size <= Self.maximumHeaderData else {
                    throw .badArchive(path: url.path, reason: Wording("archiveDamaged", ["entry": name]))
                }
                let data = try Self.read(handle, at: start, count: Int(size), path: url.path)
                guard pending.take(data, as: header.kind) else {
                    throw .badArchive(path: url.path, reason: Wording("archiveDamaged", ["entry": name]))
                }
                continue
            case .ignored: continue
            case .directory, .file, .link, .special: break
            }
            pending = TarHeader.Overrides()
            guard let contained = ArchivePath.contained(name) else {
                throw .badArchive(path: url.path, reason: Wording("archiveEscapes", ["entry": name]))
            }
            switch header.kind {
            case .link: throw .badArchive(path: url.path, reason: Wording("archiveLink", ["entry": name]))
            case .special: throw .badArchive(path: url.path, reason: Wording("archiveNotFile", ["entry": name]))
            case .directory: continue
            default: break
            }
            total += size
            guard total <= limits.totalBytes, files.count < limits.entries else {
                throw .badArchive(path: url.path, reason: Wording(
                    "archiveTooLarge", ["entries": String(limits.entries), "gigabytes": String(limits.totalBytes >> 30)]))
            }
            files.append(File(path: contained, size: size, offset: start))
        }
        guard ended else {
            throw .badArchive(path: url.path, reason: length < 512 && files.isEmpty ? Wording("archiveNotTar") : Wording("archiveTarEnd"))
        }
        self.files = files
        // A path written twice is read as its last copy, as tar leaves it.
        index = Dictionary(files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { $1 })
    }

    deinit {
        try? handle.close()
    }

    /// Whether the file at `url` starts with a tar header that says it is one (`ustar`).
    static func isTar(_ head: Data) -> Bool {
        head.count >= 263 && head[257..<262].elementsEqual("ustar".utf8)
    }

    /// The file at `path`, if the archive has one.
    func file(_ path: String) -> File? {
        index[path].map { files[$0] }
    }

    /// The bytes of `file`.
    func data(_ file: File) throws(InterchangeError) -> Data {
        try Self.read(handle, at: file.offset, count: Int(file.size), path: path)
    }

    /// The last `count` bytes of `file` (all of it when it is shorter).
    func data(_ file: File, last count: Int64) throws(InterchangeError) -> Data {
        let count = min(count, file.size)
        return try Self.read(handle, at: file.offset + UInt64(file.size - count), count: Int(count), path: path)
    }

    /// Copies `file` into a new file at `destination`, a megabyte at a time.
    func copy(_ file: File, to destination: URL) throws(InterchangeError) {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let output = FileHandle(forWritingAtPath: destination.path) else {
            throw .writeFailed(path: destination.path, reason: Wording("reasonCannotOpen"))
        }
        defer { try? output.close() }
        var done: Int64 = 0
        while done < file.size {
            let chunk = try Self.read(handle, at: file.offset + UInt64(done), count: Int(min(file.size - done, 1 << 20)), path: path)
            do {
                try output.write(contentsOf: chunk)
            } catch {
                throw .writeFailed(path: destination.path, reason: .verbatim(error.localizedDescription))
            }
            done += Int64(chunk.count)
        }
    }

    /// Exactly `count` bytes at `offset`; an archive that has fewer there is cut short.
    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int, path: String) throws(InterchangeError) -> Data {
        do {
            try handle.seek(toOffset: offset)
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw CocoaError(.fileReadCorruptFile) }
            return data
        } catch {
            throw .badArchive(path: path, reason: Wording("archiveTarEnd"))
        }
    }
}
