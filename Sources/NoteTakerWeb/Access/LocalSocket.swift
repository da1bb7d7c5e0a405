import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `notetaker serve --socket PATH`: the app on a Unix domain socket beside its TCP port, for
/// scripts on this machine. The socket is the owner's alone (mode 0600: the kernel lets
/// only processes that may write it connect), so requests through it need no key.
///
/// The socket is bound inside a new folder of its own (mode 0700) beside `PATH`, made
/// owner-only there, then renamed to `PATH`: at no moment can another account connect,
/// whatever the process's umask. A socket left at `PATH` by a process that died is
/// replaced; one that still answers, or any other file, is refused.
struct LocalSocket: Sendable {
    /// Where scripts connect.
    let path: String
    /// The private folder the socket is bound in first.
    let folder: String
    /// Where the socket is bound, inside ``folder``.
    var bindPath: String { folder + "/s" }

    /// The longest path a Unix socket address holds (`sun_path`, without its terminating zero).
    private static let maximumPathBytes = 107

    /// Checks `path` and makes the private folder to bind in.
    static func prepare(_ path: String) throws(WebConfigurationError) -> LocalSocket {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let parent = (absolute as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw .unusableSocket(path, "its folder \(parent) does not exist")
        }
        let folder = parent + "/.notetaker-socket-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        guard absolute.utf8.count <= maximumPathBytes, (folder + "/s").utf8.count <= maximumPathBytes else {
            throw .unusableSocket(path, "a socket's path is at most \(maximumPathBytes - 24) bytes long here; choose a shorter one")
        }
        var status = stat()
        if lstat(absolute, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw .unusableSocket(path, "a file that is not a socket is there; choose another path")
            }
            guard !answers(absolute) else {
                throw .unusableSocket(path, "another program is listening there (another notetaker serve?)")
            }
            unlink(absolute)
        }
        guard mkdir(folder, 0o700) == 0 else {
            throw .unusableSocket(path, "its folder cannot be written (\(String(cString: strerror(errno))))")
        }
        return LocalSocket(path: absolute, folder: folder)
    }

    /// Makes the bound socket the owner's alone and moves it to ``path``.
    func publish() throws(WebConfigurationError) {
        guard chmod(bindPath, 0o600) == 0, rename(bindPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            remove()
            throw .unusableSocket(path, reason)
        }
        rmdir(folder)
    }

    /// Removes the socket and the private folder, when the app stops.
    func remove() {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
        unlink(bindPath)
        rmdir(folder)
    }

    /// Whether something accepts connections on the socket at `path`.
    private static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return connected == 0
    }
}
