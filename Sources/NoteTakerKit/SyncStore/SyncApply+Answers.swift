import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The answers to a push, as ``SyncApply`` applies them: each change saved, refused with the
/// server's version (applied as a fetched record would be, with what was sent), or failed.
extension SyncApply {
    /// Applies the server's answer to one change of a pushed batch.
    /// `fieldsJSON` is the change's fields as sent, when the caller has them. `sentBefore`:
    /// the batch was sent in an earlier cycle and its answer never came, so the change may
    /// have been applied then (see ``merge(_:_:_:local:server:sent:policy:)``).
    mutating func applyResult(
        _ db: Database, _ change: RecordChange, sentSequence: Int64, result: RecordResult, fieldsJSON: String? = nil,
        sentBefore: Bool = false
    ) throws {
        guard let type = RecordType(rawValue: change.recordType) else { return }
        let key = change.recordId.key
        let answer: AnswerStep.Answer = switch result.outcome {
        case .saved: .saved
        case .serverRecordChanged: result.serverRecord.map { .refused(serverHoldsSent: Self.holds($0, change)) } ?? .refusedWithoutRecord
        case .error: .error
        }
        // A record refused with the server's own copy of what was sent is saved at its version.
        let tag = result.outcome == .saved ? result.changeTag ?? "" : result.serverRecord?.changeTag ?? ""
        let unchangedSince = try pending(db, type, key)?.seq == sentSequence
        let situation = AnswerStep.Situation(
            answer: answer, operation: change.operation, unchangedSince: unchangedSince,
            exists: try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(type.table) WHERE id = ?"), arguments: [key]) == true,
            staging: try isStaging(db), sentBefore: sentBefore)
        for step in AnswerStep.plan(situation) {
            switch step {
            case .dropStagedVersion:
                try db.cachedStatement(sql: "DELETE FROM sync_inbox WHERE recordType = ? AND recordId = ?").execute(arguments: [type.rawValue, key])
            case .countPushed:
                report.pushed += 1
            case .dropPendingChange:
                try Outbox.remove(db, type, key)
            case .forgetDeletion:
                try forgetDeletion(db, type, key, tombstone: tag)
                try SentDeletions.remember(db, type, key, changeTag: tag, now: now)
            case .markSynced(let unchangedSince):
                try markSynced(db, type, key, tag: tag, base: change.fields ?? [:], baseText: fieldsJSON, stored: unchangedSince, sentHere: true)
            case .markPending:
                try db.execute(sql: "UPDATE \(type.table) SET syncStatus = 'pending' WHERE id = ? AND syncStatus <> 'conflict'", arguments: [key])
            case .releaseHeldVersion:
                if try holdsRecords(db) { try SyncQuarantine.release(db, recordType: type.rawValue, recordId: key) }
            case .deleteAgainstSavedVersion:
                try db.execute(sql: "INSERT OR REPLACE INTO sync_deleted (recordType, recordId, changeTag) VALUES (?, ?, ?)",
                               arguments: [type.rawValue, key, tag])
            case .applyServerRecord(let resent):
                if let record = result.serverRecord {
                    try apply(db, record, refusedDeletion: change.operation == .delete, sent: resent ? change : nil,
                              resentCreation: resent && unchangedSince && Self.isOnlyCreation(db, change))
                }
            case .recordFailure:
                report.errors += 1
                try Self.recordFailure(db, type, key, message: result.message ?? "The server refused this change.")
            }
        }
    }

    /// Whether the server's `record` is what `change` asked for: the deletion it sent, or
    /// the very fields it saved.
    static func holds(_ record: SyncRecord, _ change: RecordChange) -> Bool {
        change.operation == .delete ? record.deleted : !record.deleted && record.fields == (change.fields ?? [:])
    }

    /// Counts a failed attempt of a record; after ``Outbox/maximumAttempts`` (at once
    /// when `final`: trying again cannot help) it is marked `error` with the message and
    /// waits to be retried by hand.
    static func recordFailure(_ db: Database, _ type: RecordType, _ key: String, message: String, final: Bool = false) throws {
        let attempts = final ? Outbox.maximumAttempts : 1
        try Outbox.countFailure(db, type, key, attempts: attempts, message: message)
        try db.execute(sql: """
            UPDATE \(type.table) SET syncRetryCount = MAX(syncRetryCount + 1, ?), syncErrorMessage = ?,
                syncStatus = CASE WHEN MAX(syncRetryCount + 1, ?) >= ? THEN 'error' ELSE 'pending' END
            WHERE id = ?
            """, arguments: [attempts, message, attempts, Outbox.maximumAttempts, key])
    }

    /// Whether `sent` is the save that created its row here: sent against no version by a row
    /// never synced, with an id no other device makes (a tag's follows from its name).
    static func isCreation(_ db: Database, _ sent: RecordChange) throws -> Bool {
        guard sent.operation == .save, sent.baseChangeTag == nil, let type = RecordType(rawValue: sent.recordType), type != .tag
        else { return false }
        return try Bool.fetchOne(db, sql: "SELECT lastSyncedAt IS NULL FROM \(type.table) WHERE id = ?", arguments: [sent.recordId.key]) ?? false
    }

    /// Whether `sent` is a creation (``isCreation(_:_:)``) that alone can have made its record on
    /// the server: no batch this device forgot at a conversion to encryption carried another
    /// creation of it (``PushBatch/forgetKeepingCreations(_:)`` keeps that one's fields as the
    /// row's base), or the one it carried holds exactly these fields. Otherwise the forgotten
    /// one may have made the record, and a deletion of it may not have seen what this one adds
    /// (converting seed 3,004,856: an edit lost).
    static func isOnlyCreation(_ db: Database, _ sent: RecordChange) throws -> Bool {
        guard try isCreation(db, sent), let type = RecordType(rawValue: sent.recordType) else { return false }
        guard let base = try SyncBase.fields(db, type, sent.recordId.key) else { return true }
        return base == sent.fields
    }
}
