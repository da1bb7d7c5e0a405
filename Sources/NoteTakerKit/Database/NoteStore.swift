import Foundation
import NoteTakerSyncProtocol
import GRDB

/// The local store of notes, folders, tags and attachments: one SQLite file (WAL mode)
/// and a folder of attachment files beside it.
///
/// A `NoteStore` is a small `Sendable` value around a GRDB database writer, so it can be
/// passed to any task. Several processes may open the same store at once: writers wait for
/// each other (busy timeout), and live queries notice changes made by other processes.
///
/// ```swift
/// let store = try NoteStore.open(at: NoteStore.defaultLocation())
/// let note = try store.createNote(NoteDraft(title: "Groceries", body: "- milk"))
/// ```
public struct NoteStore: Sendable {
    /// The database connection: a `DatabasePool` on disk, a `DatabaseQueue` in memory or for
    /// a short-lived process (see ``open(at:reindexProgress:concurrentReads:)``).
    let writer: any DatabaseWriter
    /// Where attachment files are kept, named by the SHA-256 of their content.
    public let attachmentsDirectory: URL
    /// The database file, or `nil` for an in-memory store.
    public let databaseURL: URL?
    /// Where the time and the randomness of new ids come from.
    public let sources: StoreSources
    /// An in-memory store's folder of attachment files, removed when its last copy is released.
    private let temporaryFolder: TemporaryFolder?
    /// The stores of shared zones opened through this one, kept open for its copies to share.
    let sharedZoneStores = SharedZoneStores()

    /// How long a writer waits for another process's write before giving up.
    static let busyTimeout: TimeInterval = 10

    init(
        writer: any DatabaseWriter, attachmentsDirectory: URL, databaseURL: URL?, reindexProgress: ReindexProgress? = nil,
        sources: StoreSources = .system
    ) throws(NoteTakerError) {
        self.writer = writer
        self.attachmentsDirectory = attachmentsDirectory
        self.databaseURL = databaseURL
        self.sources = sources
        temporaryFolder = databaseURL == nil ? TemporaryFolder(url: attachmentsDirectory) : nil
        // A store opened read-only was found up to date (see `openForReading`).
        if writer.configuration.readonly { return }
        do {
            try Self.makeMigrator(reindexProgress: reindexProgress).migrate(writer)
        } catch {
            throw NoteTakerError(databaseError: error)
        }
        // An import that was interrupted left notes out of the search index.
        try indexPendingNotes(progress: reindexProgress)
    }

    /// Opens the store at `url`, creating it (and its folder) when it does not exist.
    ///
    /// A file that is not a NoteTaker store, that is corrupt, or that a newer version wrote
    /// is refused with a clear error, and left byte-for-byte untouched. A store made by an
    /// earlier version is upgraded; when that means rebuilding its search index,
    /// `reindexProgress` hears how far the rebuild got.
    ///
    /// With `concurrentReads` (a long-running process: the web app, a server of requests),
    /// reads run beside a write on connections of their own. Without it, one connection does
    /// everything, which opens faster: a command-line process that does one thing and exits
    /// spends a good part of its life opening connections. Other processes read and write the
    /// store alike either way.
    public static func open(
        at url: URL, reindexProgress: ReindexProgress? = nil, concurrentReads: Bool = true
    ) throws(NoteTakerError) -> NoteStore {
        let path = url.path
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: path) {
            try StoreInspection.check(path: path, migrator: migrator)
        } else {
            do {
                // Only the owner may read the notes: the folder 0700, the database (and so
                // its WAL and SHM) 0600.
                try OwnerOnly.createDirectory(at: url.deletingLastPathComponent())
            } catch {
                throw .fileWriteFailed(path: url.deletingLastPathComponent().path, reason: error.localizedDescription)
            }
            guard OwnerOnly.createFile(at: url) else {
                throw .fileWriteFailed(path: path, reason: "cannot create the store file there")
            }
        }
        let writer: any DatabaseWriter
        do {
            if concurrentReads {
                writer = try DatabasePool(path: path, configuration: configuration())
            } else {
                let queue = try DatabaseQueue(path: path, configuration: configuration())
                // A pool puts a new store in WAL mode; a single connection does it here, so
                // that other processes can read while this one writes.
                try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
                writer = queue
            }
        } catch {
            throw .storeUnreadable(path: path, reason: NoteTakerError(databaseError: error).message)
        }
        return try NoteStore(
            writer: writer, attachmentsDirectory: attachmentsDirectory(of: url), databaseURL: url, reindexProgress: reindexProgress)
    }

    /// Opens the store at `url` for reading only, as commands that only show what is there do:
    /// nothing is written to the file (writing through this store fails). A store that does
    /// not exist yet or needs an upgrade is opened as by ``open(at:reindexProgress:concurrentReads:)``.
    public static func openForReading(at url: URL, reindexProgress: ReindexProgress? = nil) throws(NoteTakerError) -> NoteStore {
        guard FileManager.default.fileExists(atPath: url.path),
              let queue = try StoreInspection.check(path: url.path, migrator: migrator, readingWith: configuration())
        else { return try open(at: url, reindexProgress: reindexProgress) }
        return try NoteStore(writer: queue, attachmentsDirectory: attachmentsDirectory(of: url), databaseURL: url)
    }

    /// The folder of attachment files beside the store file at `url`.
    private static func attachmentsDirectory(of url: URL) -> URL {
        url.deletingLastPathComponent()
            .appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".attachments", isDirectory: true)
    }

    /// Creates an empty store in memory, for tests and demos. Attachment files go to a
    /// fresh temporary folder. A simulation passes `sources` that follow from its seed.
    public static func inMemory(sources: StoreSources = .system) throws(NoteTakerError) -> NoteStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw NoteTakerError(databaseError: error)
        }
        let attachments = FileManager.default.temporaryDirectory
            .appendingPathComponent("NoteTaker-\(UUID().uuidString)", isDirectory: true)
        return try NoteStore(writer: queue, attachmentsDirectory: attachments, databaseURL: nil, sources: sources)
    }

    /// A folder removed with the last reference to it: an in-memory store's attachments, which
    /// nothing else would remove (a simulation makes thousands of stores).
    private final class TemporaryFolder: Sendable {
        let url: URL

        init(url: URL) {
            self.url = url
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// How many pages the write-ahead log grows to before it is copied into the database
    /// (SQLite's default is 1,000, 4 MB): a pull or an import writes a few megabytes per
    /// transaction, and pages written again before a checkpoint are copied once. Measured on
    /// a first sync of 100,000 notes: 46.7 s with the default, 41.3 s with this.
    static let walCheckpointPages = 16_384

    /// The page cache of the connection that writes, and of each that reads, in KiB.
    static let writerCacheKiB = 65_536
    static let readerCacheKiB = 16_384

    /// The connection settings: durable commits, foreign keys, waiting on other writers.
    static func configuration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(busyTimeout)
        config.prepareDatabase { db in
            // A committed note survives a power loss, not only a crash.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A large page cache for the writer (imports touch many pages), a smaller one
            // for each reader.
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -readerCacheKiB : -writerCacheKiB)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(walCheckpointPages)")
            // After a large import the log file shrinks back to that size once it is copied.
            try db.execute(sql: "PRAGMA journal_size_limit = \(walCheckpointPages * 4096)")
            // Statement journals and temporary tables in memory: SQLite's default spills a
            // statement journal over 64 KB to a new file in /var/tmp, which a sync of 200
            // notes a batch did for every batch.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            db.add(tokenizer: SearchTokenizer.self)
            SearchRank.register(db)
            SubstringMatch.register(db)
            NoteLinks.register(db)
        }
        return config
    }
}

/// Told how far the one-time rebuild of an upgraded store's search index got: notes done,
/// of how many. Searches from other connections keep answering from the old index meanwhile.
public typealias ReindexProgress = @Sendable (_ done: Int, _ total: Int) -> Void

extension NoteStore {
    /// Runs `body` in one write transaction, translating database errors.
    func write<T>(_ body: (Database) throws -> T) throws(NoteTakerError) -> T {
        do {
            return try writer.write(body)
        } catch {
            throw NoteTakerError(databaseError: error)
        }
    }

    /// Runs `body` in a read-only snapshot, translating database errors.
    func read<T>(_ body: (Database) throws -> T) throws(NoteTakerError) -> T {
        do {
            return try writer.read(body)
        } catch {
            throw NoteTakerError(databaseError: error)
        }
    }
}

extension NoteTakerError {
    /// Keeps a `NoteTakerError` as it is; turns anything else into ``NoteTakerError/database(_:)``.
    package init(databaseError error: any Error) {
        switch error {
        case let error as NoteTakerError:
            self = error
        case let error as DatabaseError:
            self = .database(error.message ?? error.description)
        default:
            self = .database(String(describing: error))
        }
    }
}
