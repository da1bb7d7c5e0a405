import Foundation

/// A shared zone as the server lists it to one of its members (docs/sharing.md §3.4): what
/// `GET /v1/zones` answers, invitations not yet accepted among them.
public struct ShareSummary: Sendable, Hashable, Codable {
    /// The zone's id, lowercase.
    public var zone: String
    /// The owner's account name.
    public var owner: String
    /// This account's role in it.
    public var role: ShareMembers.Role
    /// Whether this account accepted it (the owner always has).
    public var accepted: Bool
    /// The epoch of the members record the server holds.
    public var epoch: Int

    /// A share as listed.
    public init(zone: String, owner: String, role: ShareMembers.Role, accepted: Bool, epoch: Int) {
        self.zone = zone
        self.owner = owner
        self.role = role
        self.accepted = accepted
        self.epoch = epoch
    }
}

/// The limits the server keeps for shares.
public enum ShareLimits {
    /// The most members a share has, its owner included.
    public static let maxMembers = 100
    /// The most bytes a members record's text takes.
    public static let maxMembersBytes = 64 * 1024
    /// The most key boxes one request puts.
    public static let maxBoxes = 1_000
}
