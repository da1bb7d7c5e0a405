/// How a record from the server is applied, decided from what this device holds of it: the
/// client's counterpart of the server's `RecordVersioning.decide`. A pure function of a
/// ``Situation``; ``SyncApply`` reads the situation from the store and carries the decision out.
enum ApplyDecision: Equatable {
    /// The row already is the server's version (same change tag), or a change made here
    /// since goes up against it: nothing to do.
    case keep
    /// The server's record replaces the row, or becomes it (`new`: there was none), synced.
    case take(new: Bool)
    /// Deleted elsewhere, not changed here: the row goes (when there is one).
    case delete
    /// Deleted here and elsewhere: the deletion waiting to go up is dropped.
    case bothDeleted
    /// Deleted here, and the server refused the deletion because the record was edited
    /// elsewhere since: the edit wins over the deletion, which is dropped, and the server's
    /// record comes back.
    case editBeatsLocalDeletion
    /// Deleted elsewhere while changed here: the change wins and goes up again, against the
    /// tombstone (a note with its attachments).
    case editBeatsServerDeletion
    /// Deleted elsewhere, and its row is gone here too though a save waited: the save is dropped.
    case deletedEverywhere
    /// Changed here and elsewhere: the two merge property by property against the last
    /// synced version; a change this device made only as a consequence (`derivedYields`)
    /// yields to the other side on every property both changed.
    case merge(derivedYields: Bool)
    /// A save waits to go up for a row that is gone here: the server's record is taken.
    case takeInsteadOfMissingRow

    /// What this device holds of the record the server sent.
    struct Situation: Equatable {
        /// The server's record is a tombstone.
        var serverDeleted: Bool
        /// The server's change tag.
        var serverTag: String
        /// Whether the row exists here.
        var exists: Bool
        /// The change tag the row was last synced with (`nil`: never).
        var localTag: String?
        /// A change of this record waiting to go up.
        var pending: Pending?
        /// The server sent the record as its answer to a change this device sent, refusing
        /// it; otherwise it was pulled.
        var answered = false
    }

    /// A change waiting in the outbox.
    enum Pending: Equatable {
        /// A save; `derived` when this device made it only as a consequence of another change
        /// (a folder deleted, say), not because someone edited the record.
        case save(derived: Bool)
        /// A deletion, of the version with this change tag (`nil`: never synced).
        case delete(deletedTag: String?)
    }

    /// The decision for `situation`.
    static func decide(_ situation: Situation) -> ApplyDecision {
        let changedElsewhere = situation.localTag != situation.serverTag
        switch situation.pending {
        case nil:
            if situation.serverDeleted { return .delete }
            return changedElsewhere || !situation.exists ? .take(new: !situation.exists) : .keep
        case .delete(let deletedTag)?:
            if situation.serverDeleted { return .bothDeleted }
            // Only the server knows whether what changed since was an edit or a change the
            // software made on its own (derived), which a deletion still beats: the deletion
            // goes up, and the record comes back only when the server refuses it.
            return deletedTag != situation.serverTag && situation.answered ? .editBeatsLocalDeletion : .keep
        case .save(let derived)?:
            if situation.serverDeleted { return situation.exists ? .editBeatsServerDeletion : .deletedEverywhere }
            if !situation.exists { return .takeInsteadOfMissingRow }
            return changedElsewhere ? .merge(derivedYields: derived) : .keep
        }
    }
}
