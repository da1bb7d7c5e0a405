import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// A share as `share list` shows it: a zone this device takes part in, or an invitation.
public struct ShareEntry: Sendable, Equatable, Encodable {
    /// The zone's id.
    public var zone: String
    /// Its owner's account.
    public var owner: String
    /// This account's role.
    public var role: ShareMembers.Role
    /// Whether this account accepted it (an invitation when not).
    public var accepted: Bool
    /// The shared folder's or note's title, once synced here.
    public var title: String
    /// What was shared: `folder` or `note`.
    public var kind: String
    /// The shared folder's or note's id.
    public var root: String
    /// The members and their roles, as the newest members record this device accepted says.
    public var members: [Member]

    /// A member of a share.
    public struct Member: Sendable, Equatable, Encodable {
        /// The member's account.
        public var account: String
        /// Its role.
        public var role: ShareMembers.Role

        /// Describes a member.
        public init(account: String, role: ShareMembers.Role) {
            self.account = account
            self.role = role
        }
    }

    /// Describes a share.
    public init(
        zone: String, owner: String, role: ShareMembers.Role, accepted: Bool, title: String, kind: String, root: String, members: [Member]
    ) {
        (self.zone, self.owner, self.role, self.accepted) = (zone, owner, role, accepted)
        (self.title, self.kind, self.root, self.members) = (title, kind, root, members)
    }
}

/// Sharing a folder or a note with other accounts, as its owner, and taking part in others'
/// shares (docs/sharing.md §3.4): what the command line and the web app both do.
extension NoteStore {
    /// Shares folder `folderId` (with its subfolders, notes and files) with `invitees`: a new
    /// zone whose members record this device signs and whose keys it boxes for each member and
    /// for this account; the folder moves into the zone's store and goes up sealed.
    public func shareFolder(_ folderId: UUID, with invitees: [(account: String, role: ShareMembers.Role)]) async throws(SyncError) -> SharedZoneSync {
        let name: String
        do { name = try folder(id: folderId).name } catch { throw .store(error) }
        return try await share(ShareMembers.Root(kind: "folder", id: folderId), title: name, with: invitees) { store throws(NoteTakerError) in
            try moveFolder(folderId, into: store)
        }
    }

    /// Shares note `noteId` alone with `invitees`, as ``shareFolder(_:with:)`` does a folder.
    public func shareNote(_ noteId: UUID, with invitees: [(account: String, role: ShareMembers.Role)]) async throws(SyncError) -> SharedZoneSync {
        let title: String
        do { title = try note(id: noteId).displayTitle } catch { throw .store(error) }
        return try await share(ShareMembers.Root(kind: "note", id: noteId), title: title, with: invitees) { store throws(NoteTakerError) in
            try moveNote(noteId, into: store, folder: nil)
        }
    }

    private func share(
        _ root: ShareMembers.Root, title: String, with invitees: [(account: String, role: ShareMembers.Role)],
        moving: (NoteStore) throws(NoteTakerError) -> StoreTransfer
    ) async throws(SyncError) -> SharedZoneSync {
        let (account, pairs) = try sharingIdentity()
        let transport = try syncTransport()
        // The whole history goes with the notes: the server drops its versions with them.
        try await completeHistoriesBeforeMoving(root)
        var members = [ShareMembers.Member(account: account, role: .owner, identity: pairs.identity)]
        for (invitee, role) in invitees where invitee.lowercased() != account && role != .owner {
            let identity = try await metIdentity(of: invitee, transport: transport)
            members.append(ShareMembers.Member(account: invitee.lowercased(), role: role, identity: identity))
        }
        let zoneId = UUID()
        let record = ShareMembers(zone: zoneId, epoch: 1, root: root, members: members, keyVersion: 1)
        let keys = ZoneKeys.make(zone: zoneId)
        let signed = try Self.signed(record, by: pairs)
        try await transport.putShareMembers(signed, zone: record.zone)
        try await transport.putZoneKeys(try Self.boxes([keys], for: members, from: account, pairs: pairs), zone: record.zone)
        let zone = SharedZone(zone: record.zone, owner: account, role: .owner, accepted: true, root: root, title: title)
        do { try keepSharedZone(zone, members: (1, signed)) } catch { throw .store(error) }
        let store = try preparedZoneStore(zone.zone, idKey: keys.idKey)
        do { _ = try moving(store) } catch { throw .store(error) }
        return await syncSharedZone(zone, transport: transport)
    }

    /// Accepts the invitation to `zone` after checking its members record against the owner's
    /// keys as this device keeps them and opening this account's key, then syncs the zone.
    public func acceptShare(_ zone: String) async throws(SyncError) -> SharedZoneSync {
        let (account, pairs) = try sharingIdentity()
        let transport = try syncTransport()
        guard let summary = try await transport.shares().first(where: { $0.zone == zone.lowercased() }) else { throw .noSuchShare(zone) }
        // Kept as an invitation once its members record is checked; accepted once a key opens.
        let (invited, members) = try await refreshMembers(of: SharedZone(invitation: summary), transport: transport)
        var shared = invited
        let boxes = try await transport.zoneKeys(zone: summary.zone)
        guard boxes.contains(where: { (try? pairs.open($0, as: account, members: members)) != nil }) else {
            throw .shareRefused(ShareRefusal.keyDoesNotOpen.reason)
        }
        try await transport.acceptShare(zone: summary.zone)
        shared.accepted = true
        do { try keepSharedZone(shared, members: nil) } catch { throw .store(error) }
        return await syncSharedZone(shared, transport: transport)
    }

    /// Leaves `zone` (or declines its invitation); as its owner, stops sharing it: the zone is
    /// deleted for every member, and its notes come back into this store as private notes.
    /// A member's notes with changes not yet sent are kept as private notes.
    public func leaveShare(_ zone: String) async throws(SyncError) -> SharedZoneSync {
        let transport = try syncTransport()
        let kept: SharedZone?
        do { kept = try sharedZone(zone.lowercased()) } catch { throw .store(error) }
        if let kept, kept.role == .owner {
            // What members wrote last comes down first.
            _ = await syncSharedZone(kept, transport: transport)
            try await transport.deleteShare(zone: kept.zone)
        } else {
            try await transport.leaveShare(zone: zone.lowercased())
        }
        guard let kept else {
            return SharedZoneSync(zone: SharedZone(zone: zone.lowercased(), owner: "", role: .viewer, accepted: false,
                                                   root: ShareMembers.Root(kind: "folder", id: UUID()), title: ""), result: .success(SyncReport()), ended: true)
        }
        return await endedZone(kept)
    }

    /// Changes the members of `zone`, as its owner: adds `account` with `role` (or changes its
    /// role; the role it has already changes nothing), or removes it (`role` `nil`). Removing
    /// rotates the zone's key: the member keeps what it had, and nothing written after opens
    /// with its keys (docs/sharing.md §3.4).
    public func setShareMember(_ zone: String, account member: String, role: ShareMembers.Role?) async throws(SyncError) {
        let (account, pairs) = try sharingIdentity()
        let transport = try syncTransport()
        guard let kept = try? sharedZone(zone.lowercased()) else { throw .noSuchShare(zone) }
        guard kept.role == .owner else { throw .notShareOwner }
        let (current, members) = try await refreshMembers(of: kept, transport: transport)
        let sealing = try await zoneSealing(current, newest: members, transport: transport)
        let name = member.lowercased()
        guard name != account, role != .owner else { throw .notShareOwner }
        var next = members
        next.epoch += 1
        var keys = sealing.keys.values.sorted { $0.version < $1.version }
        var boxesFor: [ShareMembers.Member] = []
        if let role {
            if let index = next.members.firstIndex(where: { $0.account == name }) {
                // The role it has already: nothing to write (a new epoch would make every
                // member's device fetch and check a members record that changes nothing).
                guard next.members[index].role != role else { return }
                next.members[index].role = role
            } else {
                let identity = try await metIdentity(of: name, transport: transport)
                let added = ShareMembers.Member(account: name, role: role, identity: identity)
                next.members.append(added)
                boxesFor = [added]
            }
        } else {
            guard next.members.contains(where: { $0.account == name }) else { throw .noSuchShare(zone) }
            next.members.removeAll { $0.account == name }
            guard let newest = keys.last else { throw .shareRefused(ShareRefusal.keyDoesNotOpen.reason) }
            let rotated = ZoneKeys.rotating(newest)
            keys = [rotated]
            next.keyVersion = rotated.version
            boxesFor = next.members
        }
        try await transport.putShareMembers(try Self.signed(next, by: pairs), zone: current.zone)
        if !boxesFor.isEmpty {
            try await transport.putZoneKeys(try Self.boxes(keys, for: boxesFor, from: account, pairs: pairs), zone: current.zone)
        }
        _ = try await refreshMembers(of: current, transport: transport)
    }

    /// The shares this account takes part in, and its invitations, by title, as the server
    /// lists them.
    public func listShares() async throws(SyncError) -> [ShareEntry] {
        let listed = try await syncTransport().shares()
        return listed.map { summary in
            shareEntry(zone: summary.zone, owner: summary.owner, role: summary.role, accepted: summary.accepted)
        }.sorted { ($0.title, $0.zone) < ($1.title, $1.zone) }
    }

    /// The shares this device took part in when it last synced, by title, without asking the
    /// server (offline): no invitation it has not seen.
    public func keptShares() throws(SyncError) -> [ShareEntry] {
        let kept: [SharedZone]
        do { kept = try sharedZones() } catch { throw .store(error) }
        return kept.map { zone in
            shareEntry(zone: zone.zone, owner: zone.owner, role: zone.role, accepted: zone.accepted)
        }.sorted { ($0.title, $0.zone) < ($1.title, $1.zone) }
    }

    private func shareEntry(zone: String, owner: String, role: ShareMembers.Role, accepted: Bool) -> ShareEntry {
        let kept = try? sharedZone(zone)
        let newest = (try? sharedZoneMembers(zone)).flatMap { held in held.keys.max().flatMap { held[$0]?.decoded() } }
        return ShareEntry(
            zone: zone, owner: owner, role: role, accepted: accepted, title: kept?.title ?? "",
            kind: kept?.root.kind ?? newest?.root.kind ?? "folder", root: kept?.root.id ?? newest?.root.id ?? "",
            members: newest?.members.map { ShareEntry.Member(account: $0.account, role: $0.role) } ?? [])
    }

    private static func signed(_ members: ShareMembers, by pairs: IdentityKeyPairs) throws(SyncError) -> SignedShareMembers {
        do { return try pairs.signed(members) } catch { throw .keysRefused("the members list could not be signed") }
    }

    private static func boxes(
        _ keys: [ZoneKeys], for members: [ShareMembers.Member], from owner: String, pairs: IdentityKeyPairs
    ) throws(SyncError) -> [ZoneKeyBox] {
        var boxes: [ZoneKeyBox] = []
        for key in keys {
            for member in members {
                do { boxes.append(try pairs.box(key, for: member, from: owner)) } catch {
                    throw .keysRefused("a key could not be sealed for \(member.account)")
                }
            }
        }
        return boxes
    }
}
