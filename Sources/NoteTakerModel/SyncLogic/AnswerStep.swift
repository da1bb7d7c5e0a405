import NoteTakerSyncProtocol

/// One thing `SyncApply` (in NoteTakerKit) does with the server's answer to a change this device pushed.
/// ``plan(_:)`` lists them, in order, for an ``AnswerStep/Situation``: the push's
/// counterpart of ``ApplyStep``, as pure, and tested as a table.
package enum AnswerStep: Equatable {
    /// Drops a version of the record staged by an earlier, unfinished pull: it is older than
    /// the answer's, and applied later it would undo it (the server does not send a device
    /// its own version back to correct that).
    case dropStagedVersion
    /// Counts the change as pushed in the cycle's report.
    case countPushed
    /// Drops the record's change from the outbox: what was sent is still its latest.
    case dropPendingChange
    /// Forgets the deletion made here, done on the server too (at the answer's change tag).
    case forgetDeletion
    /// Marks the row in sync at the answer's change tag, with what was sent as its base;
    /// `unchangedSince`: the row holds just what was sent.
    case markSynced(unchangedSince: Bool)
    /// Leaves the row pending: it changed while the change was in flight, and that goes up next.
    case markPending
    /// Releases a version of the record held because it could not be stored here: the
    /// server now holds a newer one.
    case releaseHeldVersion
    /// The row was deleted here while its save was in flight: the deletion goes up against
    /// the version the save made.
    case deleteAgainstSavedVersion
    /// Applies the server's record, which refused the change, as a pulled one is applied
    /// (``ApplyStep``); `resent`: the change went up in an earlier cycle too, and may have
    /// reached the server then.
    case applyServerRecord(resent: Bool)
    /// Counts a failed attempt, with the server's message (`SyncApply.recordFailure`).
    case recordFailure

    /// What the server answered, and what this device holds of the record now.
    package struct Situation: Equatable {
        /// The server's answer.
        package var answer: Answer
        /// Whether the change sent was a save or a deletion.
        package var operation: RecordChange.Operation
        /// The outbox entry sent is still the record's latest: nothing changed here since.
        package var unchangedSince: Bool
        /// Whether the row exists here.
        package var exists: Bool
        /// Whether an earlier, unfinished pull left records staged.
        package var staging: Bool
        /// The batch went up in an earlier cycle too, and its answer never came.
        package var sentBefore = false
    /// What the server answered, and what this device holds of the record now.
    package init(
        answer: Answer, operation: RecordChange.Operation, unchangedSince: Bool, exists: Bool, staging: Bool, sentBefore: Bool = false
    ) {
        (self.answer, self.operation, self.unchangedSince, self.exists, self.staging) = (answer, operation, unchangedSince, exists, staging)
        self.sentBefore = sentBefore
    }
}

    /// The server's answer to one change.
    package enum Answer: Equatable {
        /// Saved, at a new change tag.
        case saved
        /// Refused with the server's record, which holds just what the change sent (`true`),
        /// or something else.
        case refused(serverHoldsSent: Bool)
        /// Refused as changed on the server, but without its record.
        case refusedWithoutRecord
        /// Refused with a message: nothing was changed.
        case error
    }

    /// The steps that carry out the answer in `situation`.
    package static func plan(_ situation: Situation) -> [AnswerStep] {
        var answer = situation.answer
        // A batch sent again and decided anew (its answer forgotten) meets its own first
        // write: it was saved, at that version. Taken as another device's, it would undo what
        // was changed here since.
        if answer == .refused(serverHoldsSent: true) { answer = .saved }
        var steps: [AnswerStep] = answer != .error && situation.staging ? [.dropStagedVersion] : []
        switch answer {
        case .saved:
            steps.append(.countPushed)
            switch (situation.operation, situation.exists) {
            case (.delete, _):
                steps += (situation.unchangedSince ? [.dropPendingChange] : []) + [.forgetDeletion]
            case (.save, true):
                steps += [.markSynced(unchangedSince: situation.unchangedSince),
                          situation.unchangedSince ? .dropPendingChange : .markPending]
            case (.save, false):
                steps += [.releaseHeldVersion, .deleteAgainstSavedVersion]
            }
        case .refused:
            steps.append(.applyServerRecord(resent: situation.sentBefore && situation.operation == .save))
        case .refusedWithoutRecord:
            break
        case .error:
            steps.append(.recordFailure)
        }
        return steps
    }
}
