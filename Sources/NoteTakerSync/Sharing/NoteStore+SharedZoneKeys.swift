import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// A shared zone's keys as a device makes them before each cycle of the zone (docs/sharing.md
/// §3.2–3.3, §3.6): the newest members record, checked against the owner's kept keys and the
/// last one accepted, kept with the others; the key boxes opened. The keys themselves are
/// kept nowhere but in the ``ZoneRecordSealing`` made of them.
extension NoteStore {
    /// This device's account, its identity key pairs, and the keys it kept for others: what
    /// sharing needs; ``SyncError/identityNeedsEncryption`` or ``SyncError/noIdentityKeys``
    /// when the account cannot share.
    func sharingIdentity() throws(SyncError) -> (account: String, pairs: IdentityKeyPairs) {
        guard let keyring = try syncKeyring() else { throw .identityNeedsEncryption }
        guard let pairs = keyring.identityKeys else { throw .noIdentityKeys }
        return (keyring.account.lowercased(), pairs)
    }

    /// `account`'s identity keys as the server gives them, met by this device: kept when met
    /// first, refused as ``SyncError/memberKeysChanged(_:)`` when they differ from the ones kept.
    func metIdentity(of account: String, transport: HTTPSyncTransport) async throws(SyncError) -> AccountIdentity {
        let identity = try await transport.identity(of: account)
        let sighting: IdentitySighting
        do { sighting = try meetIdentity(of: account, identity) } catch { throw .store(error) }
        if case .changed = sighting { throw .memberKeysChanged(account.lowercased()) }
        return identity
    }

    /// The zone's members record on the server, checked (§3.2) and kept when newer than the
    /// ones accepted; with the zone as it now stands for this account (its role, and the root
    /// the checked record names). ``SyncError/noSuchShare(_:)``
    /// when the record no longer names this account.
    func refreshMembers(of zone: SharedZone, transport: HTTPSyncTransport) async throws(SyncError) -> (SharedZone, ShareMembers) {
        let (account, pairs) = try sharingIdentity()
        guard let zoneId = UUID(uuidString: zone.zone) else { throw .noSuchShare(zone.zone) }
        let held: [Int: SignedShareMembers]
        let kept: AccountIdentity?
        do { (held, kept) = (try sharedZoneMembers(zone.zone), try knownIdentities()[zone.owner]) } catch { throw .store(error) }
        let signed = try await transport.shareMembers(zone: zone.zone)
        let accepted = held.keys.max().flatMap { held[$0] }
        // Checked with the owner's keys as this device kept them; when those do not open it
        // (or none are kept), with the server's, which answers that they changed if they did.
        let members: ShareMembers
        if zone.owner != account, let kept, let opened = try? signed.opened(zone: zoneId, owner: zone.owner, ownerKeys: kept, accepted: accepted) {
            members = opened
        } else {
            let ownerKeys = zone.owner == account ? pairs.identity : try await metIdentity(of: zone.owner, transport: transport)
            do {
                members = try signed.opened(zone: zoneId, owner: zone.owner, ownerKeys: ownerKeys, accepted: accepted)
            } catch {
                throw .shareRefused(error.reason)
            }
        }
        guard let me = members.member(account) else { throw .noSuchShare(zone.zone) }
        var updated = zone
        (updated.role, updated.root) = (me.role, members.root)
        do { try keepSharedZone(updated, members: (members.epoch, signed)) } catch { throw .store(error) }
        return (updated, members)
    }

    /// The sealing of `zone` for this device: every members record it accepted (with those
    /// of `epochs` fetched first, older ones a record names, checked by the owner's signature),
    /// and every key box of the zone this account holds, opened.
    func zoneSealing(
        _ zone: SharedZone, newest members: ShareMembers, fetching epochs: Set<Int> = [], transport: HTTPSyncTransport
    ) async throws(SyncError) -> ZoneRecordSealing {
        let (account, pairs) = try sharingIdentity()
        guard let zoneId = UUID(uuidString: zone.zone) else { throw .noSuchShare(zone.zone) }
        let kept: [String: AccountIdentity]
        do { kept = try knownIdentities() } catch { throw .store(error) }
        let ownerKeys = zone.owner == account ? pairs.identity : kept[zone.owner]
        var held: [Int: SignedShareMembers]
        do { held = try sharedZoneMembers(zone.zone) } catch { throw .store(error) }
        for epoch in epochs.sorted() where held[epoch] == nil && epoch < members.epoch {
            guard let ownerKeys else { break }
            let signed = try await transport.shareMembers(zone: zone.zone, epoch: epoch)
            guard let older = try? signed.opened(zone: zoneId, owner: zone.owner, ownerKeys: ownerKeys, accepted: nil), older.epoch == epoch else {
                continue
            }
            do { try keepSharedZone(zone, members: (epoch, signed)) } catch { throw .store(error) }
            held[epoch] = signed
        }
        let records = held.values.compactMap { $0.decoded() }
        var keys: [ZoneKeys] = []
        for box in try await transport.zoneKeys(zone: zone.zone) {
            do { keys.append(try pairs.open(box, as: account, members: members)) } catch { throw .shareRefused(error.reason) }
        }
        var identities = kept
        identities[account] = pairs.identity
        return ZoneRecordSealing(zone: zone.zone, account: account, identity: pairs, keys: keys, members: records, kept: identities)
    }
}

extension ShareRefusal {
    /// Why, in a few words, for ``SyncError/shareRefused(_:)``.
    var reason: String {
        switch self {
        case .notSignedByOwner: "its signature is not the owner's"
        case .malformed(let problem): problem
        case .replayed(let epoch, let seen): "it is an older list (change \(epoch)) than one already accepted (change \(seen))"
        case .forked(let epoch): "it differs from the list accepted for the same change (\(epoch))"
        case .keyNotFromOwner: "a key was not sent by the owner"
        case .keyDoesNotOpen: "a key does not open"
        }
    }
}

extension SharedZone {
    /// A share as the server lists it, before its members record is checked (its root is
    /// taken from that record: ``NoteStore/refreshMembers(of:transport:)``).
    init(invitation summary: ShareSummary) {
        self.init(zone: summary.zone, owner: summary.owner, role: summary.role, accepted: summary.accepted,
                  root: ShareMembers.Root(kind: "folder", id: UUID()), title: "")
    }
}
