/// When imported notes enter the search index.
public enum SearchIndexing: Sendable {
    /// In the transaction that adds them: searchable as soon as the import call returns.
    case immediately
    /// Later, by ``NoteStore/indexPendingNotes(progress:)``, once for a whole import of
    /// many batches: faster in all (about a fifth for 100,000 notes), and the notes are not
    /// found by search until then.
    case deferred
}
