/// Why a device did not take a shared zone's members record or key box (docs/sharing.md
/// §3.2–3.3): each is held, and the device keeps acting on what it accepted before.
public enum ShareRefusal: Error, Sendable, Equatable {
    /// The members record's signature does not verify with the owner's kept signing key.
    case notSignedByOwner
    /// The members record is not well formed, or names another zone or owner.
    case malformed(String)
    /// A members record older than one accepted: a replay.
    case replayed(epoch: Int, seen: Int)
    /// A members record other than the one accepted at the same epoch.
    case forked(epoch: Int)
    /// A key box from someone who is not the zone's owner, or not for this account or zone.
    case keyNotFromOwner
    /// A key box that does not open.
    case keyDoesNotOpen
}
