import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Where an export is written: into a hidden folder beside the destination, moved into place
/// when complete, so the destination never holds half an export.
struct OutputLocation {
    /// The path the user asked for.
    let destination: URL
    /// The work folder (or file) written first.
    let staging: URL

    /// Checks that `destination` is free (missing, or an empty folder) and prepares a staging path.
    init(destination: URL, isDirectory: Bool) throws(InterchangeError) {
        let manager = FileManager.default
        var existsAsFolder: ObjCBool = false
        if manager.fileExists(atPath: destination.path, isDirectory: &existsAsFolder) {
            let empty = existsAsFolder.boolValue && isDirectory
                && ((try? manager.contentsOfDirectory(atPath: destination.path))?.isEmpty ?? false)
            guard empty else { throw .outputExists(path: destination.path) }
        }
        let parent = destination.deletingLastPathComponent()
        do {
            try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: parent.path, reason: .verbatim(error.localizedDescription))
        }
        self.destination = destination
        staging = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        if isDirectory {
            do {
                try manager.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: OwnerOnly.folderMode])
            } catch {
                throw .writeFailed(path: staging.path, reason: .verbatim(error.localizedDescription))
            }
        }
    }

    /// Moves the finished export into place.
    func commit() throws(InterchangeError) {
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
            try manager.moveItem(at: staging, to: destination)
        } catch {
            throw .writeFailed(path: destination.path, reason: .verbatim(error.localizedDescription))
        }
    }

    /// Removes the staging copy after a failure.
    func discard() {
        try? FileManager.default.removeItem(at: staging)
    }
}

/// Appends bytes to a file through a buffer, so many small writes cost few system calls.
final class BufferedFile {
    private let handle: FileHandle
    private let path: String
    private var buffer = Data()

    init(creating url: URL) throws(InterchangeError) {
        path = url.path
        guard OwnerOnly.createFile(at: url),
              let handle = FileHandle(forWritingAtPath: url.path)
        else { throw .writeFailed(path: url.path, reason: Wording("reasonFileNotCreated")) }
        self.handle = handle
    }

    func write(_ data: Data) throws(InterchangeError) {
        buffer.append(data)
        if buffer.count >= 1 << 20 { try drain() }
    }

    func write(_ text: String) throws(InterchangeError) {
        try write(Data(text.utf8))
    }

    /// Writes what is buffered and closes the file.
    func close() throws(InterchangeError) {
        try drain()
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .writeFailed(path: path, reason: .verbatim(error.localizedDescription))
        }
    }

    private func drain() throws(InterchangeError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw .writeFailed(path: path, reason: .verbatim(error.localizedDescription))
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Copies a file, creating the folders on its way.
func copyFile(from source: URL, to destination: URL) throws(InterchangeError) {
    do {
        try OwnerOnly.createDirectory(at: destination.deletingLastPathComponent())
        try FileManager.default.copyItem(at: source, to: destination)
        try OwnerOnly.restrict(destination)
    } catch {
        throw .writeFailed(path: destination.path, reason: .verbatim(error.localizedDescription))
    }
}
