import AsyncHTTPClient
import Foundation
import NIOCore
import NoteTakerKit
import NoteTakerSyncProtocol

/// Shared zones on the server (docs/sharing.md §3.4): the account's shares and invitations,
/// a zone's members record and key boxes, accepting, leaving and deleting. A zone's records go
/// through a transport ``inZone(_:)``.
extension HTTPSyncTransport {
    /// The shares the account is a member of, invitations included; one whose id is not a
    /// lowercase UUID is left out (its id goes into the paths of a zone's routes).
    public func shares() async throws(SyncError) -> [ShareSummary] {
        try await json([ShareSummary].self, SyncAPI.shares).filter { ShareMembers.isLowercaseUUID($0.zone) }
    }

    /// Puts the zone's members record, as its owner: a new zone at epoch 1, or the next epoch
    /// (``APIErrorCode/membersChanged`` when another device of the owner wrote one meanwhile).
    public func putShareMembers(_ signed: SignedShareMembers, zone: String) async throws(SyncError) {
        try await inZone(zone).exchange(SyncAPI.putShareMembers, body: try Self.encoded(signed), accepting: [204]) { _ in }
    }

    /// The zone's members record: the current one, or the one of `epoch`.
    public func shareMembers(zone: String, epoch: Int? = nil) async throws(SyncError) -> SignedShareMembers {
        let query = epoch.map { [URLQueryItem(name: "epoch", value: String($0))] } ?? []
        return try await inZone(zone).json(SignedShareMembers.self, SyncAPI.shareMembers, query: query)
    }

    /// Puts key boxes for the zone's members, as its owner.
    public func putZoneKeys(_ boxes: [ZoneKeyBox], zone: String) async throws(SyncError) {
        try await inZone(zone).exchange(SyncAPI.putZoneKeys, body: try Self.encoded(boxes), accepting: [204]) { _ in }
    }

    /// This account's key boxes of the zone.
    public func zoneKeys(zone: String) async throws(SyncError) -> [ZoneKeyBox] {
        try await inZone(zone).json([ZoneKeyBox].self, SyncAPI.zoneKeys)
    }

    /// Accepts the invitation to the zone.
    public func acceptShare(zone: String) async throws(SyncError) {
        try await inZone(zone).exchange(SyncAPI.acceptShare, accepting: [204]) { _ in }
    }

    /// Leaves the zone, or declines its invitation.
    public func leaveShare(zone: String) async throws(SyncError) {
        try await inZone(zone).exchange(SyncAPI.leaveShare, accepting: [204]) { _ in }
    }

    /// Deletes the zone, as its owner, for every member.
    public func deleteShare(zone: String) async throws(SyncError) {
        try await inZone(zone).exchange(SyncAPI.deleteShare, accepting: [204]) { _ in }
    }
}
