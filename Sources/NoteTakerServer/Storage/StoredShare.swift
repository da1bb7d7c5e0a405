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
