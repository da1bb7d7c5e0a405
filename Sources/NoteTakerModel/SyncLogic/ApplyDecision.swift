/// How a record from the server is applied, decided from what this device holds of it: the
/// client's counterpart of the server's `RecordVersioning.decide`. A pure function of a
/// ``Situation``; ``ApplyStep/plan(_:)`` turns it into the steps `SyncApply` (in NoteTakerKit) carries out.
package enum ApplyDecision: Equatable {
    /// The row already is the server's version (same change tag), or a change made here
    /// since goes up against it: nothing to do.
    case keep
    /// The server's record replaces the row, or becomes it (`new`: there was none), synced.
    case take(new: Bool)
    /// An attachment whose note this device does not hold yet: it waits for the note, and is
    /// applied when the note arrives.
    case waitForNote
    /// Deleted elsewhere, not changed here: the row goes (when there is one).
    case delete
    /// Deleted elsewhere, and the change waiting here does not count against the deletion,
    /// which wins as if nothing waited: one the software made only as a consequence of
    /// another (derived), this device's creation of the record, which the deletion followed
    /// (``Situation/resentCreation``), or the row sent again unchanged to heal a restored
    /// server, deleted after the version it holds. The change is dropped and the row goes
    /// (when there is one).
    case deleteOverDerivedChange
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
    package struct Situation: Equatable {
        /// The kind of record.
        package var recordType: RecordType = .note
        /// The server's record is a tombstone.
        package var serverDeleted: Bool
        /// The server's change tag.
        package var serverTag: String
        /// Whether the row exists here.
        package var exists: Bool
        /// The change tag the row was last synced with (`nil`: never).
        package var localTag: String?
        /// A change of this record waiting to go up.
        package var pending: Pending?
        /// The server sent the record as its answer to the deletion this device sent, refusing
        /// it (not to a save sent before the row was deleted here: that deletion has not gone up).
        package var refusedDeletion = false
        /// An attachment's note is not here (looked up only for an attachment the server
        /// saved with no change of it waiting here).
        package var noteMissing = false
        /// The server sent the record refusing the save that created it here (sent against
        /// no version by a row never synced, with an id no other device makes: not a tag's),
        /// sent in an earlier cycle too, whose answer never came, and nothing changed here
        /// since. Only that save can have made the record on the server: a deletion of it
        /// came after it, and wins.
        package var resentCreation = false
        /// The server's tombstone is of a deletion a device sent again to heal a server
        /// restored from an older copy: the change tag the deletion had in the history the
        /// restore lost, which a save sent again from that history compares with.
        package var deletionSentAgainFrom: String?
    /// What this device holds of a record the server sent.
    package init(
        recordType: RecordType = .note, serverDeleted: Bool, serverTag: String, exists: Bool, localTag: String?,
        pending: Pending? = nil, refusedDeletion: Bool = false, noteMissing: Bool = false
    ) {
        (self.recordType, self.serverDeleted, self.serverTag, self.exists, self.localTag) = (recordType, serverDeleted, serverTag, exists, localTag)
        (self.pending, self.refusedDeletion, self.noteMissing) = (pending, refusedDeletion, noteMissing)
    }
}

    /// A change waiting in the outbox.
    package enum Pending: Equatable {
        /// A save; `derived` when this device made it only as a consequence of another change
        /// (a folder deleted, say), not because someone edited the record. `sentAgainFrom`: the
        /// save sends the row again, unchanged since it synced this version, to heal a server
        /// restored from an older copy.
        case save(derived: Bool, sentAgainFrom: String? = nil)
        /// A deletion, of the version with this change tag (`nil`: never synced).
        case delete(deletedTag: String?)
    }

    /// The decision for `situation`.
    package static func decide(_ situation: Situation) -> ApplyDecision {
        let changedElsewhere = situation.localTag != situation.serverTag
        switch situation.pending {
        case nil:
            if situation.serverDeleted { return .delete }
            if situation.recordType == .attachment, situation.noteMissing { return .waitForNote }
            return changedElsewhere || !situation.exists ? .take(new: !situation.exists) : .keep
        case .delete(let deletedTag)?:
            if situation.serverDeleted { return .bothDeleted }
            // Only the server knows whether what changed since was an edit or a change the
            // software made on its own (derived), which a deletion still beats: the deletion
            // goes up, and the record comes back only when the server refuses it.
            return deletedTag != situation.serverTag && situation.refusedDeletion ? .editBeatsLocalDeletion : .keep
        case .save(let derived, let sentAgainFrom)?:
            if situation.serverDeleted {
                if derived || situation.resentCreation || isBefore(sentAgainFrom, situation.deletionSentAgainFrom ?? situation.serverTag) {
                    return .deleteOverDerivedChange
                }
                return situation.exists ? .editBeatsServerDeletion : .deletedEverywhere
            }
            if !situation.exists { return .takeInsteadOfMissingRow }
            return changedElsewhere ? .merge(derivedYields: derived) : .keep
        }
    }

    /// Whether a row sent again to heal a restored server, unchanged since version `sentAgainFrom`,
    /// was deleted after that version (at change `deletion`): this device never learned of it.
    /// A deletion sent again too is compared at the change it had before the restore, as the
    /// row's version is: numbers of the restored server's history do not compare with those.
    private static func isBefore(_ sentAgainFrom: String?, _ deletion: String) -> Bool {
        guard let held = sentAgainFrom.flatMap({ Int64($0) }), let deleted = Int64(deletion) else { return false }
        return held < deleted
    }
}
