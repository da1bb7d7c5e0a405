import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NoteTakerKit

/// One sync cycle at a time per store, across processes: an advisory lock (`flock`) on a
/// file beside the database, held for the whole cycle.
///
/// The command line's `sync`, `serve`'s automatic sync and a second engine in the same
/// process all take it, so two engines never push the same outbox or apply the same pull.
/// The kernel releases the lock when its process ends, so a killed sync never blocks the
/// next one. An in-memory store has no file and no other process: its engine's own queue
/// of cycles is enough.
struct SyncLease {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The lock file of a store: `NoteTaker.sqlite-sync.lock`, readable by its owner only.
    static func lockURL(for databaseURL: URL) -> URL {
        databaseURL.deletingLastPathComponent().appendingPathComponent(databaseURL.lastPathComponent + "-sync.lock")
    }

    /// Takes the lease of the store at `databaseURL`, waiting up to `timeout` for another
    /// process's cycle to end.
    ///
    /// - Throws: `SyncError.busy` when the other cycle does not end in time.
    static func acquire(databaseURL: URL, timeout: Duration) async throws(SyncError) -> SyncLease {
        let path = lockURL(for: databaseURL).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .store(.fileWriteFailed(path: path, reason: String(cString: strerror(errno))))
        }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR, ContinuousClock.now < deadline else {
                close(descriptor)
                if failure == EWOULDBLOCK { throw .busy }
                throw .store(.fileWriteFailed(path: path, reason: String(cString: strerror(failure))))
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                close(descriptor)
                throw .busy
            }
        }
        return SyncLease(descriptor: descriptor)
    }

    /// Ends the lease (closing the file releases the lock).
    func release() {
        close(descriptor)
    }
}
