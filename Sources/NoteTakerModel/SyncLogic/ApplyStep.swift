/// One thing `SyncApply` (in NoteTakerKit) does to apply a record from the server. ``plan(_:)`` lists them,
/// in order, for a ``ApplyDecision/Situation``: every rule of what a record does is there,
/// and the code that carries the steps out decides nothing.
package enum ApplyStep: Equatable {
    /// Drops the change of the record waiting in the outbox.
    case dropPendingChange
    /// The record is deleted: records that waited for it (a note for its folder or a tag, an
    /// attachment for its note) go up without it, as those that held it do.
    case releaseWaitersOfDeleted
    /// Keeps an attachment aside until its note arrives.
    case waitForNote
    /// Inserts a note this device does not hold, already in sync at the server's version; it
    /// enters the search index with the other notes of the transaction.
    case insertArriving
    /// Writes the server's fields into the row (inserting it when missing) and marks it in
    /// sync with the server's version; a record that cannot be stored is held instead.
    case takeServerVersion
    /// Deletes the row.
    case deleteRow
    /// Forgets the deletion made here; `keepingTombstone`: the server deleted the record too,
    /// at its change tag (a tag remembers it).
    case forgetDeletion(keepingTombstone: Bool)
    /// The row goes up again, against the server's tombstone, as a creation.
    case reopenAgainstTombstone
    /// A note's attachments go up again with it.
    case resendAttachments
    /// Merges the server's record into the row (``RecordMerge``).
    case merge(derivedYields: Bool)
    /// Counts the record as merged in the cycle's report.
    case countMerged

    /// The steps that apply a record in `situation`.
    package static func plan(_ situation: ApplyDecision.Situation) -> [ApplyStep] {
        var steps: [ApplyStep] = situation.serverDeleted ? [.releaseWaitersOfDeleted] : []
        switch ApplyDecision.decide(situation) {
        case .keep:
            break
        case .take(let new):
            steps.append(new && situation.recordType == .note ? .insertArriving : .takeServerVersion)
        case .waitForNote:
            steps.append(.waitForNote)
        case .delete:
            steps += (situation.exists ? [.deleteRow] : []) + [.forgetDeletion(keepingTombstone: true)]
        case .deleteOverDerivedChange:
            steps += [.dropPendingChange] + (situation.exists ? [.deleteRow] : []) + [.forgetDeletion(keepingTombstone: true)]
        case .bothDeleted:
            steps += [.dropPendingChange, .forgetDeletion(keepingTombstone: true)]
        case .editBeatsLocalDeletion:
            steps += [.dropPendingChange, .forgetDeletion(keepingTombstone: false), .takeServerVersion, .countMerged]
        case .editBeatsServerDeletion:
            steps += [.reopenAgainstTombstone] + (situation.recordType == .note ? [.resendAttachments] : []) + [.countMerged]
        case .deletedEverywhere:
            steps += [.dropPendingChange, .countMerged]
        case .merge(let derivedYields):
            steps += [.merge(derivedYields: derivedYields), .countMerged]
        case .takeInsteadOfMissingRow:
            steps += [.dropPendingChange, .takeServerVersion]
        }
        return steps
    }
}
