import NoteTakerSyncProtocol

/// What happens to one outbox entry while a push batch is built: the decision of what to push,
/// apart from reading the outbox. A pure function; `PushBatch` (in NoteTakerKit) reads the entries and carries
/// the decisions out.
package enum PushAdmission: Equatable {
    /// It goes into this batch.
    case add
    /// The batch is full: it waits for the next one (and so does everything after it).
    case batchFull
    /// It is larger than the server takes: sending it can never succeed.
    case tooLarge(bytes: Int)
    /// Its row is gone and no deletion was queued after it: nothing to send.
    case gone

    /// One outbox entry, as the batch sees it.
    package struct Entry: Equatable {
        /// A deletion (which carries no fields).
        package var isDeletion: Bool
        /// Whether the saved row still exists.
        package var rowExists: Bool
        /// A quick upper bound of its fields' JSON size (`PushBatch.estimatedSize`).
        package var estimate: Int
        /// Its exact JSON size, measured only when the estimate says it may be too large
        /// (``needsMeasuring(estimate:)``).
        package var measured: Int?
    /// An entry of the outbox as the push reads it.
    package init(isDeletion: Bool, rowExists: Bool, estimate: Int, measured: Int?) {
        (self.isDeletion, self.rowExists, self.estimate, self.measured) = (isDeletion, rowExists, estimate, measured)
    }
}

    /// The bytes of record fields a batch may carry: a request's limit, less room for the
    /// ids and tags around each change.
    package static let requestBudget = SyncLimits.maxRequestBytes - SyncLimits.maxBatchSize * 300

    /// Whether an entry's exact size must be measured: only one that may be near the limit.
    package static func needsMeasuring(estimate: Int) -> Bool {
        estimate >= SyncLimits.maxRecordBytes / 2
    }

    /// The decision for `entry`, given the bytes the batch holds so far and whether it is empty.
    /// A batch always takes its first record (one that fits a record fits a request), and a
    /// deletion costs no bytes.
    package static func decide(_ entry: Entry, batchBytes: Int, batchIsEmpty: Bool, budget: Int = requestBudget) -> PushAdmission {
        if entry.isDeletion { return .add }
        guard entry.rowExists else { return .gone }
        if !batchIsEmpty, batchBytes + entry.estimate > budget { return .batchFull }
        if let measured = entry.measured, measured > SyncLimits.maxRecordBytes { return .tooLarge(bytes: measured) }
        return .add
    }
}
