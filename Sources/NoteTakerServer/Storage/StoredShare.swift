import Foundation
import NoteTakerSyncProtocol

/// A shared zone's members record as the server keeps it (docs/sharing.md §3.2): the signed
/// record as it came, and the accounts it names resolved to their ids, with their roles.
public struct StoredShareMembers: Sendable {
    /// The zone's id, lowercase.
    public var zone: String
    /// The owner's account.
    public var owner: Int64
    /// The record's epoch.
    public var epoch: Int
    /// The record as its owner signed it.
    public var signed: SignedShareMembers
    /// Every member's account and role, the owner's included.
    public var members: [ShareMemberRow]

    /// A members record to keep.
    public init(zone: String, owner: Int64, epoch: Int, signed: SignedShareMembers, members: [ShareMemberRow]) {
        self.zone = zone
        self.owner = owner
        self.epoch = epoch
        self.signed = signed
        self.members = members
    }
}

/// One member of a share as the server enforces it: its account and role.
public struct ShareMemberRow: Sendable, Hashable {
    /// The member's account.
    public var account: Int64
    /// What it may do.
    public var role: ShareMembers.Role

    /// A member.
    public init(account: Int64, role: ShareMembers.Role) {
        self.account = account
        self.role = role
    }
}

/// What became of a members record put in the storage.
public enum ShareWrite: Sendable, Equatable {
    /// Kept: the zone is made at epoch 1, or its record replaced at the next epoch.
    case kept
    /// Not kept: the zone's record is at `current`, and the one put is not the next.
    case staleEpoch(current: Int)
    /// Not kept: another account owns a zone of this id.
    case notOwner
}

/// What one account may reach of a shared zone, as the server enforces it (docs/sharing.md
/// §3.1): its role, whether it accepted, and where the zone's records are kept.
public struct ZoneAccess: Sendable, Hashable {
    /// The account's role in the share.
    public var role: ShareMembers.Role
    /// Whether it accepted the invitation (the owner always has).
    public var accepted: Bool
    /// The account row that holds the zone's records, files and versions (its holder).
    public var holder: Int64
    /// The zone's owner, whose quota the holder's bytes count in.
    public var owner: Int64
    /// The owner's own quota, when its operator set one.
    public var ownerQuotaBytes: Int64?

    /// An account's access to a zone.
    public init(role: ShareMembers.Role, accepted: Bool, holder: Int64, owner: Int64, ownerQuotaBytes: Int64?) {
        self.role = role
        self.accepted = accepted
        self.holder = holder
        self.owner = owner
        self.ownerQuotaBytes = ownerQuotaBytes
    }

    /// The name of a zone's holder: no user name can be it (a colon is not allowed in one).
    static func holderName(zone: String) -> String { "zone:" + zone }
}
