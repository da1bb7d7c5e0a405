import Foundation

/// A local change waiting in the outbox to go up to the sync server.
public struct PendingChange: Sendable, Hashable {
    /// Whether the record was saved or deleted.
    public enum Operation: String, Sendable, Codable {
        /// The record was created or changed: send its current state.
        case save
        /// The record was deleted: send a tombstone.
        case delete
    }

    /// Grows with every change; a change made during a push has a higher one.
    public var sequence: Int64
    /// What kind of record changed.
    public var recordType: RecordType
    /// The record's id.
    public var recordId: UUID
    /// Save or delete.
    public var operation: Operation
    /// When the change was made.
    public var queuedAt: Date
    /// A change as the outbox holds it.
    package init(sequence: Int64, recordType: RecordType, recordId: UUID, operation: Operation, queuedAt: Date) {
        (self.sequence, self.recordType, self.recordId, self.operation, self.queuedAt) = (sequence, recordType, recordId, operation, queuedAt)
    }
}
