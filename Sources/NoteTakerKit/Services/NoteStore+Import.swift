import Foundation
import GRDB

/// What a bulk import did: the notes it added, and the ones it skipped with the reason.
public struct ImportOutcome: Sendable {
    /// A draft that was not imported, by its position in the input, with the reason.
    public struct Skipped: Sendable {
        /// The draft's position in the batch given to ``NoteStore/importNotes(_:)``.
        public var index: Int
        /// Why it was skipped.
        public var error: NoteTakerError
    }

    /// The ids of the notes added, in input order.
    public var imported: [UUID] = []
    /// The drafts that were skipped.
    public var skipped: [Skipped] = []
}

extension NoteStore {
    /// Adds many notes in one transaction: the fast path for imports. Each note is indexed
    /// for search as it goes in, so the batch is searchable when this returns.
    ///
    /// A draft that cannot be added (a bad title, an unknown folder, an id already taken) is
    /// skipped and reported; it never leaves half a note behind, and the others go in.
    /// Callers feed large imports in batches of a few thousand drafts.
    public func importNotes(_ drafts: [NoteDraft]) throws(NoteTakerError) -> ImportOutcome {
        try write { db in
            var outcome = ImportOutcome()
            let before = try SearchIndexSchema.lastSearchSeq(db)
            var cache = InsertCache()
            for (index, draft) in drafts.enumerated() {
                do {
                    let id = try Self.insertNote(db, draft, cache: &cache)
                    outcome.imported.append(UUID(key: id) ?? UUID())
                } catch let error as NoteTakerError {
                    outcome.skipped.append(.init(index: index, error: error))
                }
            }
            try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
            try Metrics.increment(db, .notesCreated, by: outcome.imported.count)
            return outcome
        }
    }
}
