import Foundation
import GRDB

/// A sync server restored from an older copy of its data.
///
/// The server then holds older versions of records than this device synced, or none of
/// them, and numbers its next changes from where the copy stopped. It notices a device's
/// change token from the history it lost and refuses it (``SyncError/serverRestored``);
/// the device then heals:
///
/// 0. When the server still holds the change token this device last fetched with (only the
///    token of a batch answered after the backup is unknown to it), this device first
///    fetches what changed since that token, as any pull does, with no authored token
///    (``catchUpBeforeHeal()``): changes other devices made before the backup, which this
///    device never fetched, merge against its bases instead of losing to its older copies
///    in the heal. A record this device synced after its last fetch (by its own batch,
///    answered then, perhaps after the backup: ``SyncedThrough``) is left for the heal,
///    whatever version arrives.
/// 1. Everything here is queued to go up again, against no change tag and no merge base
///    (``adoptRestoredServer()``): nothing here is taken to be on the server any more. So
///    are the deletions the server saved lately (``SentDeletions``), which the copy may have
///    lost, each naming the tag it had: each applies unless another device edited the record
///    since.
/// 2. Everything is fetched again and merged with what is here, this device's side winning
///    wherever the two differ (``healsRestoredServer()``): the server's copy may be older
///    than what this device synced, and an older version never replaces a newer one. A
///    note's text the server holds differently is kept in a conflict copy, so nothing
///    another device wrote since the restore is lost either.
/// 3. What is then still different goes up; ``finishRestoredServerHeal()`` counts it for
///    `sync status`, which tells the user.
///
/// An end-to-end encrypted account's server restored from a copy made while the account was
/// converted to encryption holds records, note versions and files in plain text again. A
/// device that follows keyed ids then starts a conversion's pass (unless a pass is under way
/// here): each record it had seen sealed (``SealedBeforeRestore``) and sends again, refused
/// with a version in plain text it cannot open, goes up sealed against it (``SyncEngine``);
/// one it never saw sealed waits for another device to seal it. The pass seals the plain-text
/// versions, and its last step has the server delete what is left in plain text
/// (docs/encryption.md §2.4).
extension NoteStore {
    /// Starts catching up with a server restored from an older copy before the heal: the
    /// next pull fetches from this device's change token without its authored token (the
    /// one the server refused, perhaps). False, and nothing changed, when this device
    /// fetched nothing yet: the heal then starts at once (``adoptRestoredServer()``).
    package func catchUpBeforeHeal() throws(NoteTakerError) -> Bool {
        try write { db in
            guard try SyncState.get(db, .inboxToken) ?? SyncState.get(db, .changeToken) != nil else { return false }
            try SyncState.set(db, .catchingUpBeforeHeal, String(try SyncedThrough.fetched(db)))
            try SyncState.set(db, .authoredToken, nil)
            return true
        }
    }

    /// Whether this device catches up with a restored server before healing.
    package func catchesUpBeforeHeal() throws(NoteTakerError) -> Bool {
        try read { db in try SyncState.get(db, .catchingUpBeforeHeal) != nil }
    }

    /// Queues everything here to go up again to a server restored from an older copy, and
    /// starts the heal; deletions waiting here stay.
    package func adoptRestoredServer() throws(NoteTakerError) {
        try write { db in
            try SyncState.set(db, .catchingUpBeforeHeal, nil)
            try SealedBeforeRestore.keep(db)
            try Self.requeueEverything(db, keepingDeletions: true)
            try SentDeletions.queueAgain(db, now: sources.now)
            try SyncState.set(db, .healingRestoredServer, String(sources.now.storageValue))
            if try DerivedIdentity.current(db).keyed != nil, try Self.pass(db) == nil { try Self.keep(ResealingPass(below: 1), db) }
        }
    }

    /// Whether this device is healing from a restored server: its fetches then merge with
    /// this device's side winning.
    package func healsRestoredServer() throws(NoteTakerError) -> Bool {
        try read { db in try SyncState.get(db, .healingRestoredServer) != nil }
    }

    /// Ends the heal once everything was fetched and merged: records what still has to go
    /// up, which ``SyncSummary/restoredServer`` reports.
    package func finishRestoredServerHeal() throws(NoteTakerError) {
        try write { db in
            guard let started = try SyncState.get(db, .healingRestoredServer).flatMap(Double.init) else { return }
            let counts = try Outbox.countsByKind(db)
            let notice = RestoredServerNotice(noticedAt: Date(timeIntervalSince1970: started), notesSentAgain: counts.notes,
                                              otherRecordsSentAgain: counts.others)
            try SyncState.set(db, .restoredServer, String(decoding: try JSONEncoder().encode(notice), as: UTF8.self))
            try SyncState.set(db, .healingRestoredServer, nil)
        }
    }

    static func fetchRestoredServerNotice(_ db: Database) throws -> RestoredServerNotice? {
        try SyncState.get(db, .restoredServer).flatMap { try? JSONDecoder().decode(RestoredServerNotice.self, from: Data($0.utf8)) }
    }
}

/// The last time the sync server turned out to be restored from an older copy, and what
/// this device sent up again.
public struct RestoredServerNotice: Sendable, Equatable, Codable {
    /// When this device noticed.
    public var noticedAt: Date
    /// Notes this device held newer than (or missing from) the server's copy, sent again.
    public var notesSentAgain: Int
    /// Folders, tags and attachments sent again.
    public var otherRecordsSentAgain: Int
}
