import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log into the database file on a thread of its own, instead of in
/// the commit that filled the log.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, so an
/// import or a first sync waits, batch after batch, while tens of megabytes are copied and
/// the database file is synced. This does the same copy on a second core while the writer
/// goes on: SQLite's `wal_hook` tells it, after each commit, how many pages the log holds;
/// each time the log has grown by ``NoteStore/walCheckpointPages``, it runs a passive
/// checkpoint on a connection opened for the purpose. A passive checkpoint never blocks a
/// reader or the writer; what it cannot copy yet is copied by the next one. The next write
/// transaction after a complete checkpoint starts the log again from its beginning, as after
/// an automatic one.
///
/// Measured on the store benchmark's import of 100,000 notes, three runs of each in turn:
/// the commits took 2.4–2.7 s (whole import 12.9–13.4 s) with the automatic checkpoint,
/// 1.0 s (11.8–12.2 s) with this one.
///
/// A checkpoint that fails (the disk is full, the file went away) changes nothing: the log
/// keeps every committed page, and the next checkpoint copies them.
final class BackgroundCheckpoint: Sendable {
    private let path: String
    private let pages: Int32
    private let queue = DispatchQueue(label: "NoteTaker.checkpoint", qos: .utility)
    private let state = Mutex(State())

    private struct State {
        /// A checkpoint is waiting to run: commits in the meantime ask for no other.
        var isScheduled = false
        /// How many pages the log held when the last checkpoint was asked for.
        var scheduledAt: Int32 = 0
    }

    /// A checkpointer of the database file at `path`, run when the log holds `pages` pages.
    init(path: String, pages: Int = NoteStore.walCheckpointPages) {
        self.path = path
        self.pages = Int32(clamping: pages)
    }

    /// Hands this connection's commits to the checkpointer, in place of SQLite's automatic
    /// checkpoint. The checkpointer must live as long as the connection: the store's
    /// configuration, which every connection keeps, holds it.
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, frames in
            guard let context else { return SQLITE_OK }
            Unmanaged<BackgroundCheckpoint>.fromOpaque(context).takeUnretainedValue().committed(logPages: frames)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks for a checkpoint once the log has grown by `pages` since the last one was asked
    /// for. Not at every commit past the threshold, as SQLite's own does: a write that begins
    /// while a checkpoint is still copying keeps adding to the log (it starts again only
    /// after a complete one), and a checkpoint per small commit after an import would sync
    /// the database file beside every save.
    private func committed(logPages: Int32) {
        let isDue = state.withLock { state in
            // The log started again from its beginning since the last checkpoint.
            if logPages < state.scheduledAt { state.scheduledAt = 0 }
            guard !state.isScheduled, logPages - state.scheduledAt >= pages else { return false }
            state.isScheduled = true
            state.scheduledAt = logPages
            return true
        }
        guard isDue else { return }
        queue.async { [self] in
            state.withLock { $0.isScheduled = false }
            run()
        }
    }

    private func run() {
        guard let connection = try? DatabaseQueue(path: path) else { return }
        _ = try? connection.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
    }
}
