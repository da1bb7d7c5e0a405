import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders that only their owner may read: notes, attachment files, a server's
/// data. Folders are made 0700 and files 0600 (SQLite gives a database's WAL and SHM files
/// the database file's mode).
public enum OwnerOnly {
    /// A folder's mode.
    public static let folderMode = 0o700
    /// A file's mode.
    public static let fileMode = 0o600

    /// Creates a folder (and missing parents) readable by its owner only.
    public static func createDirectory(at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: folderMode])
    }

    /// Creates a file (empty, or holding `contents`) readable by its owner only, replacing one
    /// already there; `false` when it cannot.
    public static func createFile(at url: URL, contents: Data? = nil) -> Bool {
        FileManager.default.createFile(atPath: url.path, contents: contents, attributes: [.posixPermissions: fileMode])
    }

    /// Writes `data` to `url` readable by its owner only, whole or not at all: into a new
    /// 0600 file beside it, flushed to disk, then renamed over whatever was there.
    ///
    /// - Throws: `CocoaError(.fileWriteUnknown)` with the system's reason when any step fails;
    ///   the file at `url` is then as it was.
    public static func write(_ data: Data, to url: URL) throws {
        let temporary = url.path + ".new-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(fileMode))
        guard descriptor >= 0 else { throw failure(errno, url) }
        var written = 0
        let result: Int32 = data.withUnsafeBytes { bytes in
            while let base = bytes.baseAddress, written < bytes.count {
                let count = systemWrite(descriptor, base + written, bytes.count - written)
                if count < 0 { if errno == EINTR { continue }; return errno }
                written += count
            }
            return fsync(descriptor) == 0 ? 0 : errno
        }
        close(descriptor)
        guard result == 0, rename(temporary, url.path) == 0 else {
            let code = result == 0 ? errno : result
            unlink(temporary)
            throw failure(code, url)
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func failure(_ code: Int32, _ url: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: String(cString: strerror(code)),
        ])
    }

    /// Makes an existing file readable by its owner only.
    public static func restrict(_ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: url.path)
    }
}
