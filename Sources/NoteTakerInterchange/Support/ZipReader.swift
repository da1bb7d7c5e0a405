import Foundation
import NoteTakerKit
import ZIPFoundation

/// A `.zip` file read in place: its files listed, each inflated into memory or into a
/// temporary file as it is needed, never the whole archive unpacked to disk.
///
/// Opening refuses, before anything is imported, a file that is not a zip or is cut short, an
/// entry whose path leaves the archive (`..`, an absolute path) or that is a link, and an archive
/// over its ``ArchiveLimits``. Reading refuses an entry that inflates to more than it declared or whose
/// checksum does not match. Each refusal is ``InterchangeError/badArchive(path:reason:)``.
final class ZipReader {
    /// One file of the archive.
    struct File {
        /// Its path inside the archive, `/`-separated, without a leading `/`.
        let path: String
        /// The size it declares, inflated.
        let size: Int64
        fileprivate let entry: Entry

        /// When it was last modified, as the archive says.
        var modified: Date? { entry.fileAttributes[.modificationDate] as? Date }
    }

    /// The archive's path, for messages.
    let path: String
    /// Every file, in the archive's order (folders are implied by the paths).
    let files: [File]
    private let index: [String: Int]
    private let archive: Archive

    /// Opens the archive at `url` and checks its directory against `limits`.
    init(url: URL, limits: ArchiveLimits = .standard) throws(InterchangeError) {
        path = url.path
        archive = try Self.open(url)
        var files: [File] = []
        var total: Int64 = 0
        var seen = 0
        for entry in archive {
            seen += 1
            let name = entry.path
            guard let path = ArchivePath.contained(name) else {
                throw .badArchive(path: url.path, reason: Wording("archiveEscapes", ["entry": name]))
            }
            switch entry.type {
            case .directory: continue
            case .symlink: throw .badArchive(path: url.path, reason: Wording("archiveLink", ["entry": name]))
            case .file: break
            }
            let size = Int64(clamping: entry.uncompressedSize), packed = Int64(clamping: entry.compressedSize)
            if size > limits.ratioFloor, size / max(packed, 1) > limits.ratio {
                throw .badArchive(path: url.path, reason: Wording("archiveRatio", ["entry": name, "ratio": String(limits.ratio)]))
            }
            total = total.addingReportingOverflow(size).partialValue
            guard total >= 0, total <= limits.totalBytes, files.count < limits.entries else {
                throw .badArchive(path: url.path, reason: Wording(
                    "archiveTooLarge", ["entries": String(limits.entries), "gigabytes": String(limits.totalBytes >> 30)]))
            }
            files.append(File(path: path, size: size, entry: entry))
        }
        // A writer may state the count modulo 65,536 when it has more entries.
        if let declared = Self.declaredEntryCount(url), declared != seen % 65_536 {
            throw .badArchive(path: url.path, reason: Wording("archiveCutShort"))
        }
        self.files = files
        // A path written twice is read as its last copy, as unzip leaves it.
        index = Dictionary(files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { $1 })
    }

    /// The first path in the zip at `url` that `matches`, read from its directory as far as
    /// needed, without the checks ``init(url:limits:)`` makes (an import makes them before it
    /// reads anything): for telling what an archive is an export of.
    static func firstPath(in url: URL, where matches: (String) -> Bool) throws(InterchangeError) -> String? {
        for entry in try open(url) {
            if let path = ArchivePath.contained(entry.path), matches(path) { return path }
        }
        return nil
    }

    /// The archive at `url`, opened for reading.
    private static func open(_ url: URL) throws(InterchangeError) -> Archive {
        do {
            return try Archive(url: url, accessMode: .read)
        } catch {
            throw .badArchive(path: url.path, reason: Wording("archiveNotZip"))
        }
    }

    /// The file at `path`, if the archive has one.
    func file(_ path: String) -> File? {
        index[path].map { files[$0] }
    }

    /// The bytes of `file`, inflated in memory.
    func data(_ file: File) throws(InterchangeError) -> Data {
        var data = Data()
        data.reserveCapacity(Int(clamping: min(file.size, 64 << 20)))
        try inflate(file) { data.append($0) }
        return data
    }

    /// Inflates `file` into a new file at `destination`.
    func copy(_ file: File, to destination: URL) throws(InterchangeError) {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: destination.path) else {
            throw .writeFailed(path: destination.path, reason: Wording("reasonCannotOpen"))
        }
        defer { try? handle.close() }
        try inflate(file) { try handle.write(contentsOf: $0) }
    }

    /// Streams `file`'s bytes to `consumer`, stopping at the first byte past its declared size.
    private func inflate(_ file: File, into consumer: (Data) throws -> Void) throws(InterchangeError) {
        var written: Int64 = 0
        do {
            // ZIPFoundation computes the checksum of what it inflates; comparing it is ours to do.
            let checksum = try archive.extract(file.entry, skipCRC32: false) { chunk in
                written += Int64(chunk.count)
                guard written <= file.size else { throw Overrun() }
                try consumer(chunk)
            }
            guard checksum == file.entry.checksum else { throw Archive.ArchiveError.invalidCRC32 }
        } catch is Overrun {
            throw .badArchive(path: path, reason: Wording("archiveOverrun", ["entry": file.path]))
        } catch let error as Archive.ArchiveError where error == .invalidCRC32 {
            throw .badArchive(path: path, reason: Wording("archiveChecksum", ["entry": file.path]))
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw .badArchive(path: path, reason: Wording("archiveDamaged", ["entry": file.path]))
        }
        guard written == file.size else {
            throw .badArchive(path: path, reason: Wording("archiveDamaged", ["entry": file.path]))
        }
    }

    private struct Overrun: Error {}

    /// The number of entries the end of central directory record declares, or `nil` when it
    /// cannot be read or the archive is ZIP64 (which states it elsewhere).
    private static func declaredEntryCount(_ url: URL) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { return nil }
        // The record is 22 bytes and may be followed by a comment of up to 65,535.
        let window = min(end, 22 + 65_535)
        guard (try? handle.seek(toOffset: end - window)) != nil, let tail = try? handle.readToEnd(), tail.count >= 22 else {
            return nil
        }
        let bytes = [UInt8](tail)
        var index = bytes.count - 22
        while index >= 0 {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x05, bytes[index + 3] == 0x06 {
                let count = Int(bytes[index + 10]) | Int(bytes[index + 11]) << 8
                return count == 0xFFFF ? nil : count
            }
            index -= 1
        }
        return nil
    }
}
