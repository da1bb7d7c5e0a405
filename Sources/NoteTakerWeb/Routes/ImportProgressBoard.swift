import Foundation
import NoteTakerInterchange
import Synchronization

/// How far each running import has got, by the id the page gave it (`?progress=ID`), for the
/// page's progress bar to ask while the upload's request waits for its report.
///
/// An import's last figures stay until they are read once after it ends, so that the page sees
/// it finish; at most ``capacity`` imports are remembered (the oldest forgotten first).
final class ImportProgressBoard: Sendable {
    /// One import's figures, as `GET /api/v1/import/progress` answers them.
    struct Entry: Encodable, Sendable {
        /// Units done: notes, or bytes of the file read (see `total`).
        var done: Int64
        /// Units in all, when known.
        var total: Int64?
        /// Notes read so far.
        var notes: Int
        /// Whether the notes are in and the search index is being built.
        var indexing: Bool
        /// Whether the import has ended (its report is the upload's answer).
        var finished: Bool
    }

    /// The most imports remembered at once.
    static let capacity = 64

    private let entries = Mutex<[(id: String, entry: Entry)]>([])

    /// Notes that the import `id` has begun.
    func start(_ id: String) {
        set(id, Entry(done: 0, total: nil, notes: 0, indexing: false, finished: false))
    }

    /// Records how far the import `id` has got.
    func update(_ id: String, _ progress: InterchangeProgress) {
        set(id, Entry(done: progress.done, total: progress.total, notes: progress.notes, indexing: progress.indexing, finished: false))
    }

    /// Notes that the import `id` has ended.
    func finish(_ id: String) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.id == id }) { entries[index].entry.finished = true }
        }
    }

    /// The figures of the import `id`, if it is known; a finished import's are given once.
    func read(_ id: String) -> Entry? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
            let entry = entries[index].entry
            if entry.finished { entries.remove(at: index) }
            return entry
        }
    }

    private func set(_ id: String, _ entry: Entry) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.id == id }) {
                entries[index].entry = entry
                return
            }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append((id, entry))
        }
    }
}
