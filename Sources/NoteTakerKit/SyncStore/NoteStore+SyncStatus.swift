import Foundation
import GRDB

/// Where this device stands with the sync server, as `sync status` shows it.
public struct SyncSummary: Sendable, Equatable, Codable {
    /// Local changes waiting to go up.
    public var pending: Int
    /// Notes in conflict (see ``NoteStore/conflicts()``).
    public var conflicts: Int
    /// Changes the server refused three times, with its reasons.
    public var failures: [SyncFailure]
    /// Changes from the server this device could not apply, held as they came.
    public var held: [HeldRecord]
    /// When the last sync completed.
    public var lastSyncedAt: Date?
    /// The last time the server turned out to be restored from an older copy, if ever.
    public var restoredServer: RestoredServerNotice?
    /// The last sync that failed, when none has completed since.
    public var failedCycle: FailedSyncCycle?

    /// Encodes every field, `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pending, forKey: .pending)
        try container.encode(conflicts, forKey: .conflicts)
        try container.encode(failures, forKey: .failures)
        try container.encode(held, forKey: .held)
        try container.encode(lastSyncedAt, forKey: .lastSyncedAt)
        try container.encode(restoredServer, forKey: .restoredServer)
        try container.encode(failedCycle, forKey: .failedCycle)
    }
}

/// A change that failed to sync and waits to be retried by hand.
/// A sync that failed as a whole (not one change): when, and the message it ended with.
///
/// Encoded with its message in English, or in the ``Language`` an encoder's `userInfo` names.
public struct FailedSyncCycle: Sendable, Equatable, Codable {
    /// When it failed.
    public var at: Date
    /// Why, in English (as a store written before wordings were kept has it).
    public var message: String
    /// Why, to be worded in the reader's language.
    public var wording: Wording?

    /// Why, in `language`.
    public func message(in language: Language) -> String {
        wording.map { Catalog.errors.text($0, in: language) } ?? message
    }

    /// Encodes when and why, worded in the encoder's language.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encode(message(in: Language.of(encoder)), forKey: .message)
    }

    /// What the store keeps: when, and why both as English and as a wording.
    struct Stored: Codable {
        var at: Date
        var message: String
        var wording: Wording?
    }
}

public struct SyncFailure: Sendable, Equatable, Codable {
    /// The record's type.
    public var recordType: String
    /// The record's id.
    public var recordId: UUID
    /// The note's title or the folder's or tag's name, when the record still exists.
    public var label: String?
    /// Why the server refused it.
    public var message: String
    /// How many times it was tried.
    public var attempts: Int

    /// Encodes every field, `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordType, forKey: .recordType)
        try container.encode(recordId.key, forKey: .recordId)
        try container.encode(label, forKey: .label)
        try container.encode(message, forKey: .message)
        try container.encode(attempts, forKey: .attempts)
    }
}

extension NoteStore {
    /// Pending changes, conflicts and failures.
    public func syncSummary() throws(NoteTakerError) -> SyncSummary {
        try read { db in try Self.fetchSyncSummary(db) }
    }

    /// The sync summary, live.
    public func observeSyncSummary() -> AsyncThrowingStream<SyncSummary, any Error> {
        observe { db in try Self.fetchSyncSummary(db) }
    }

    /// The outbox's newest sequence, live: it grows with every local change.
    public func observeLocalChanges() -> AsyncThrowingStream<Int64, any Error> {
        observe { db in try Outbox.lastSequence(db) }
    }

    /// Puts changes that failed to sync back in line; returns how many.
    @discardableResult
    public func retryFailedSync() throws(NoteTakerError) -> Int {
        try write { db in
            let failed = try Outbox.resetFailures(db)
            for (type, id) in failed {
                try db.execute(sql: """
                    UPDATE \(type.table) SET syncStatus = 'pending', syncRetryCount = 0, syncErrorMessage = NULL WHERE id = ?
                    """, arguments: [id])
            }
            return failed.count
        }
    }

    static func fetchSyncSummary(_ db: Database) throws -> SyncSummary {
        let pending = try Outbox.pushableCount(db)
        let conflicts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_conflict") ?? 0
        let failures = try Outbox.failures(db)
        let last = try SyncState.get(db, .lastSyncedAt).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        let failedCycle = try SyncState.get(db, .failedCycle)
            .flatMap { try? JSONDecoder().decode(FailedSyncCycle.Stored.self, from: Data($0.utf8)) }
            .map { FailedSyncCycle(at: $0.at, message: $0.message, wording: $0.wording) }
        return SyncSummary(pending: pending, conflicts: conflicts, failures: failures, held: try SyncQuarantine.fetchAll(db), lastSyncedAt: last,
                           restoredServer: try fetchRestoredServerNotice(db), failedCycle: failedCycle)
    }
}
