import Foundation

/// How long the server keeps a deleted record's tombstone (its id, marked deleted), which
/// tells devices that have not heard of the deletion yet to delete it too.
///
/// A tombstone is purged once it is older than ``seconds`` and every live session of its
/// account (see ``SessionLifetime``) has fetched past it: each fetch records the position the
/// device asked from, which it has applied. A device that comes back from before a purge —
/// its session had ended, or it kept an older token — is answered
/// ``APIErrorCode/tombstonesPurged``: it fetches everything again and deletes what it
/// synced, did not change, and no longer finds. The window is configurable
/// (`--tombstone-days`).
///
/// An end-to-end encrypted account that still holds a tag under its unkeyed id (a conversion
/// to encryption not finished: its last step deletes them all) keeps its tombstones: a device
/// taking the conversion up gives its tags their keyed ids and sends them, and must meet the
/// deletions of those ids made since (converting seed 3,002,257: a tag deleted by the
/// converting device came back once its deletion was purged).
public struct TombstoneRetention: Sendable, Hashable {
    /// The least time a tombstone is kept, in seconds.
    public var seconds: TimeInterval

    /// 90 days: longer than a session may go unused (60 days), so a device that was away
    /// for a while still learns deletions one by one.
    public static let standard = TombstoneRetention(seconds: 90 * 86_400)

    /// How often a server process looks for tombstones to purge.
    static let purgeInterval: Duration = .seconds(3_600)
    /// How long after it starts a server process first looks.
    static let firstPurgeDelay: Duration = .seconds(60)

    /// Creates a retention.
    public init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// What a purge at `now` may remove, for sessions that live as long as `sessions` says.
    func horizon(now: Double, sessions: SessionLifetime) -> PurgeHorizon {
        PurgeHorizon(deletedBefore: now - seconds, usedSince: now - sessions.idle, createdSince: now - sessions.absolute,
                     markedBefore: now - BatchPlan.markerRetention)
    }
}

/// The tombstones a purge removes: those deleted before ``deletedBefore`` whose change every
/// live session of the account has fetched past. A session is live when it was used since
/// ``usedSince`` and made since ``createdSince``; an account without one has no device
/// waiting for anything.
public struct PurgeHorizon: Sendable, Hashable {
    /// Tombstones made before this time (seconds since 1970) may go.
    public var deletedBefore: Double
    /// Sessions used before this are no longer live.
    public var usedSince: Double
    /// Sessions made before this are no longer live.
    public var createdSince: Double
    /// The marks of batches whose answers were forgotten (``BatchPlan/markerRetention``) made
    /// before this go too.
    public var markedBefore: Double
}

/// What one purge removed.
public struct PurgeSummary: Sendable, Hashable {
    /// Tombstones removed, over every account.
    public var tombstones = 0
    /// Accounts that had some removed.
    public var accounts = 0

    /// Creates an empty summary.
    public init() {}
}
