import Foundation
import GRDB

/// Live queries: the counterpart of `@FetchRequest` and `NSFetchedResultsController`.
///
/// Each returns an `AsyncThrowingStream` that yields the current value at once, then a new
/// value whenever the data it shows changes — through this store, or through another
/// process sharing the file (the command line while the web app runs, say). Values that
/// did not change are not repeated. Iterate in a task; cancelling the task ends the stream.
///
/// ```swift
/// for try await notes in store.observeNotes(NoteQuery(pinnedOnly: true)) {
///     render(notes)
/// }
/// ```
extension NoteStore {
    /// How often a live query checks whether another process changed the store.
    public static let externalChangeInterval: Duration = .milliseconds(200)

    /// A page of the note list, live.
    public func observeNotes(_ query: NoteQuery = NoteQuery()) -> AsyncThrowingStream<[Note], any Error> {
        observe { db in try Self.fetchNotes(db, query, now: sources.now) }
    }

    /// One note, live; `nil` once it has been purged.
    public func observeNote(id: UUID) -> AsyncThrowingStream<Note?, any Error> {
        observe { db in
            do {
                return try Self.fetchNote(db, id: id.key)
            } catch NoteTakerError.noteNotFound {
                return nil
            }
        }
    }

    /// The folder tree with its counts, live.
    public func observeFolderTree() -> AsyncThrowingStream<[FolderNode], any Error> {
        observe { db in try Self.fetchFolderTree(db) }
    }

    /// The tags with their counts, live.
    public func observeTags() -> AsyncThrowingStream<[TagSummary], any Error> {
        observe { db in try Self.fetchTagSummaries(db) }
    }

    /// The results of a search, live.
    public func observeSearch(_ query: SearchQuery) -> AsyncThrowingStream<[SearchHit], any Error> {
        observe { db in try Self.search(db, query) }
    }

    /// A signal, live: yields once at once, then after every commit that changed notes,
    /// folders, tags, attachments or sync state — here or in another process. For views
    /// that refetch what they show (the web app's server-sent events).
    public func observeChanges() -> AsyncThrowingStream<Date, any Error> {
        let tables = ["note", "folder", "tag", "noteTag", "attachment", "outbox", "sync_state"].map { Table($0) }
        return observe(ValueObservation.tracking(regions: tables) { _ in Date() })
    }

    /// Observes the value `fetch` computes. GRDB's observation sees the changes made
    /// through this store's own connections; a watcher on `PRAGMA data_version` of the
    /// writer connection, which changes only when *another* connection committed, tells
    /// GRDB to refetch when another process wrote.
    func observe<Value: Sendable & Equatable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        observe(ValueObservation.tracking(fetch).removeDuplicates())
    }

    /// Runs an observation, with the watcher for other processes' commits.
    private func observe<Reducer: ValueReducer>(
        _ observation: ValueObservation<Reducer>
    ) -> AsyncThrowingStream<Reducer.Value, any Error> where Reducer.Value: Sendable {
        let writer = self.writer
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    // Read the version before the first fetch, so that a commit landing
                    // between the two is still noticed.
                    let baseline = try await Self.dataVersion(writer)
                    let watcher = Task { try await Self.watchExternalChanges(writer, from: baseline) }
                    defer { watcher.cancel() }
                    for try await value in observation.values(in: writer) {
                        continuation.yield(value)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error is CancellationError ? nil : error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func watchExternalChanges(_ writer: any DatabaseWriter, from baseline: Int?) async throws {
        var lastVersion = baseline
        while !Task.isCancelled {
            try await Task.sleep(for: externalChangeInterval)
            let version = try await dataVersion(writer)
            if version != lastVersion {
                try await writer.write { db in try db.notifyChanges(in: .fullDatabase) }
                lastVersion = version
            }
        }
    }

    /// The writer connection's `PRAGMA data_version`: it changes when another connection commits.
    private static func dataVersion(_ writer: any DatabaseWriter) async throws -> Int? {
        try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
    }
}
