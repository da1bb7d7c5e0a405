import Foundation
import NoteTakerSyncProtocol

/// Shared zones (docs/sharing.md §3): the owner writes who the members are and sends each the
/// zone's keys in boxes it cannot open; the server keeps both, tells each member its own, and
/// enforces the roles. The devices check the owner's signature themselves (the server could lie).
extension SyncService {
    /// Keeps the share's members record from its owner: a new zone at epoch 1, or the next
    /// epoch of one it owns. Each member named must be an account of this server with the
    /// identity keys the record lists.
    public func putShareMembers(zone: String, _ signed: SignedShareMembers, by account: StoredAccount) async throws(SyncServerError) {
        try Self.validate(zone: zone)
        guard signed.members.utf8.count <= ShareLimits.maxMembersBytes else {
            throw .badRequest("A members record is at most \(ShareLimits.maxMembersBytes) bytes. Nothing was changed.")
        }
        guard Base64URL.decode(signed.signature)?.count == 64 else {
            throw .badRequest("The members record's signature ($sig) must be 64 bytes in base64url. Nothing was changed.")
        }
        guard let record = signed.decoded() else { throw .badRequest("The members text is not a members record (docs/sharing.md §3.2). Nothing was changed.") }
        if let problem = record.problem() { throw .badRequest("The members record is malformed: \(problem). Nothing was changed.") }
        guard record.zone == zone else { throw .badRequest("The members record names another share than the address. Nothing was changed.") }
        guard record.members.count <= ShareLimits.maxMembers else {
            throw .badRequest("A share has at most \(ShareLimits.maxMembers) members. Nothing was changed.")
        }
        guard record.owner?.account == account.username.lowercased() else {
            try await checkMember(zone: zone, account)
            throw Self.notOwner("change who is in it")
        }
        var rows: [ShareMemberRow] = []
        for member in record.members {
            let (named, identity) = try await identifiedAccount(named: member.account)
            guard identity == member.identity else {
                throw SyncServerError(.keysChanged, "\(member.account)'s identity keys on this server are not the ones the share lists: they changed. Nothing was changed: compare safety numbers with \(member.account) again.")
            }
            rows.append(ShareMemberRow(account: named.id, role: member.role))
        }
        let stored = StoredShareMembers(zone: zone, owner: account.id, epoch: record.epoch, signed: signed, members: rows)
        switch try await storing({ try await storage.putShareMembers(stored) }) {
        case .kept: return
        case .staleEpoch(let current):
            throw SyncServerError(.membersChanged, "The share's members are at change \(current) on this server, so this one must be change \(current + 1). Nothing was changed: fetch the members again, then try again.")
        case .notOwner:
            try await checkMember(zone: zone, account)
            throw Self.notOwner("change who is in it")
        }
    }

    /// The share's members record, to a member: the current one, or the one of `epoch`.
    public func shareMembers(zone: String, epoch: Int? = nil, for account: StoredAccount) async throws(SyncServerError) -> SignedShareMembers {
        try Self.validate(zone: zone)
        if let epoch, epoch < 1 { throw .badRequest("epoch must be a whole number from 1.") }
        guard let signed = try await storing({ try await storage.shareMembers(zone: zone, epoch: epoch, account: account.id) }) else {
            guard let epoch else { throw Self.noShare }
            try await checkMember(zone: zone, account)
            throw SyncServerError(.notFound, "This share has had no members record at change \(epoch) yet.")
        }
        return signed
    }

    /// The shares the account is a member of, invitations included.
    public func shares(of account: StoredAccount) async throws(SyncServerError) -> [ShareSummary] {
        try await storing { try await storage.shares(account: account.id) }
    }

    /// Keeps the zone's keys boxed by its owner for members the record names, the owner
    /// itself included (its other devices open its own box).
    public func putZoneKeyBoxes(zone: String, _ boxes: [ZoneKeyBox], by account: StoredAccount) async throws(SyncServerError) {
        try Self.validate(zone: zone)
        guard boxes.count <= ShareLimits.maxBoxes else { throw .badRequest("At most \(ShareLimits.maxBoxes) key boxes go in one request. Nothing was changed.") }
        guard try await checkMember(zone: zone, account).role == .owner else { throw Self.notOwner("send its keys") }
        guard let record = try await shareMembers(zone: zone, for: account).decoded(), let owner = record.owner else { throw Self.noShare }
        var rows: [(account: Int64, version: Int, box: String)] = []
        for box in boxes {
            if let problem = box.problem() { throw .badRequest("A key box is malformed: \(problem). Nothing was changed.") }
            guard box.zone == zone, box.from == owner.account, box.version <= record.keyVersion, record.member(box.member) != nil else {
                throw .badRequest("A key box must be for this share, from its owner, for one of its members, at a key version its members record has. Nothing was changed.")
            }
            let (named, _) = try await identifiedAccount(named: box.member)
            rows.append((named.id, box.version, try Self.storedJSON(box, "The key box")))
        }
        try await storing { try await storage.putZoneKeyBoxes(zone: zone, boxes: rows) }
    }

    /// The zone's key boxes for the account, a member.
    public func zoneKeyBoxes(zone: String, for account: StoredAccount) async throws(SyncServerError) -> [ZoneKeyBox] {
        try await checkMember(zone: zone, account)
        return try await storing { try await storage.zoneKeyBoxes(zone: zone, account: account.id) }
            .compactMap { try? JSONDecoder().decode(ZoneKeyBox.self, from: Data($0.utf8)) }
    }

    /// Notes that the account, invited, accepted the share.
    public func acceptShare(zone: String, by account: StoredAccount) async throws(SyncServerError) {
        try Self.validate(zone: zone)
        guard try await storing({ try await storage.acceptShare(zone: zone, account: account.id) }) else { throw Self.noShare }
    }

    /// Ends the account's membership at once (declining an invitation, or leaving); the owner
    /// deletes the share instead.
    public func leaveShare(zone: String, by account: StoredAccount) async throws(SyncServerError) {
        guard try await checkMember(zone: zone, account).role != .owner else {
            throw SyncServerError(.forbidden, "The owner of a share does not leave it: delete the share instead. Nothing was changed.")
        }
        guard try await storing({ try await storage.leaveShare(zone: zone, account: account.id) }) else { throw Self.noShare }
    }

    /// Deletes the share the account owns, for every member, with its records, versions and
    /// the files no other account holds.
    public func deleteShare(zone: String, by account: StoredAccount) async throws(SyncServerError) {
        guard try await checkMember(zone: zone, account).role == .owner else { throw Self.notOwner("delete it") }
        guard let orphaned = try await storing({ try await storage.deleteShare(zone: zone, owner: account.id) }) else { throw Self.noShare }
        for hash in orphaned {
            // A file left behind is only space: the rows that said whose it was are gone.
            try? await assets.remove(hash)
        }
    }

    /// Sets the share gauges of `/metrics` to how many shares and members the storage holds
    /// now (never which).
    public func countShares() async throws(SyncServerError) {
        let (shares, members) = try await storing { try await storage.shareCounts() }
        metrics.shares(shares, members: members)
    }

    /// What the account may reach of the share; ``noShare`` when it is not a member (whether
    /// the share exists is not told).
    @discardableResult
    func checkMember(zone: String, _ account: StoredAccount) async throws(SyncServerError) -> ZoneAccess {
        try Self.validate(zone: zone)
        guard let access = try await storing({ try await storage.zoneAccess(zone: zone, account: account.id) }) else { throw Self.noShare }
        return access
    }

    private static let noShare = SyncServerError(.notFound, "This account is in no share of this id: it was never invited, left, was removed, or the share was deleted.")

    private static func notOwner(_ action: String) -> SyncServerError {
        SyncServerError(.forbidden, "Only the share's owner may \(action). Nothing was changed.")
    }

    private static func validate(zone: String) throws(SyncServerError) {
        guard ShareMembers.isLowercaseUUID(zone) else {
            throw .badRequest("A share's id is a UUID in lowercase; '\(zone.prefix(40))' is not one.")
        }
    }
}
