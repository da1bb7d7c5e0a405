import Foundation

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

    /// Creates an empty file readable by its owner only; `false` when it cannot.
    public static func createFile(at url: URL) -> Bool {
        FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: fileMode])
    }

    /// Makes an existing file readable by its owner only.
    public static func restrict(_ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: url.path)
    }
}
