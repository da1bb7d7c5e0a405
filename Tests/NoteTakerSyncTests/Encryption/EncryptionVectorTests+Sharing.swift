import Crypto
import Foundation
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerKit
@testable import NoteTakerSync

/// docs/sharing.md §3.2–3.3 against the vectors: a shared zone's members record signed by its
/// owner, and a version of the zone's keys boxed for a member; then the server's moves against
/// each.
extension EncryptionVectorTests {
    /// Ada's identity key pairs, from the vectors' private halves.
    func ada() throws -> IdentityKeyPairs {
        let ada = try #require(try vector("identity_keys")["ada"] as? [String: Any])
        return try IdentityKeyPairs(agreement: try bytes(ada["agreementPrivate"]), signing: try bytes(ada["signingPrivate"]))
    }

    /// The vectors' members record as it travels, and its zone.
    func signedMembers() throws -> (signed: SignedShareMembers, zone: UUID) {
        let v = try vector("share_members")
        let signed = SignedShareMembers(members: try #require(v["members"] as? String), signature: try #require(v["$sig"] as? String))
        let zone = try #require(v["zone"] as? String)
        return (signed, try #require(UUID(uuidString: zone)))
    }

    @Test func shareMembers() throws {
        let ada = try ada()
        let (signed, zone) = try signedMembers()
        let record = try signed.opened(zone: zone, owner: "Ada", ownerKeys: ada.identity, accepted: nil)
        #expect(record.epoch == 2 && record.keyVersion == 1 && record.root.kind == "folder")
        #expect(record.owner?.account == "ada" && record.member("Bob")?.role == .editor)
        let again = try ada.signed(record)
        #expect(again.members == signed.members, "the same text as the specification writes it")
        #expect(try again.opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: signed) == record, "the same record again is taken")

        // Not the owner's signature: bytes changed, a signature of another key, a cut one.
        let promoted = SignedShareMembers(members: signed.members.replacingOccurrences(of: "editor", with: "owner"), signature: signed.signature)
        var server = try IdentityKeyPairs.make().signed(record)
        let cut = SignedShareMembers(members: signed.members, signature: String(signed.signature.dropLast(2)))
        for (attack, forged) in [("a changed byte", promoted), ("another key", server), ("a cut signature", cut)] {
            #expect(throws: ShareRefusal.notSignedByOwner, "\(attack)") { try forged.opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: nil) }
        }
        // Signed by the owner, but not a record for this share as its owner.
        var other = record
        other.zone = UUID().uuidString.lowercased()
        #expect(throws: ShareRefusal.malformed("it names another share")) {
            try ada.signed(other).opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: nil)
        }
        #expect(throws: ShareRefusal.malformed("it names another owner")) {
            try signed.opened(zone: zone, owner: "bob", ownerKeys: ada.identity, accepted: nil)
        }
        var twoOwners = record
        twoOwners.members[1].role = .owner
        var upper = record
        upper.members[1].account = "Bob"
        var noEpoch = record
        noEpoch.epoch = 0
        for (shape, bad) in [(twoOwners, "a share has exactly one owner"), (upper, "each member's account must be named once, lowercased"),
                             (noEpoch, "the epoch and key version must be from 1 to 9007199254740991")] {
            #expect(throws: ShareRefusal.malformed(bad)) { try ada.signed(shape).opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: nil) }
        }
        let notJSON = SignedShareMembers(members: "[]", signature: Base64URL.encode(try signature(ada, "[]")))
        #expect(throws: ShareRefusal.malformed("it is not a members record")) { try notJSON.opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: nil) }

        // The server replays the record before a change, or forks one epoch.
        var later = record
        later.epoch = 3
        later.members.removeLast()
        let removal = try ada.signed(later)
        #expect(throws: ShareRefusal.replayed(epoch: 2, seen: 3)) { try signed.opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: removal) }
        var fork = later
        fork.keyVersion = 2
        server = try ada.signed(fork)
        #expect(throws: ShareRefusal.forked(epoch: 3)) { try server.opened(zone: zone, owner: "ada", ownerKeys: ada.identity, accepted: removal) }
    }

    /// An Ed25519 signature by `pairs` of the bytes a members record's text is signed as.
    private func signature(_ pairs: IdentityKeyPairs, _ text: String) throws -> Data {
        try Curve25519.Signing.PrivateKey(rawRepresentation: pairs.signingBytes).signature(for: SignedShareMembers.signedBytes(text))
    }

    @Test func zoneKeyBox() throws {
        let v = try vector("zone_key_box")
        let ada = try ada()
        let bob = try IdentityKeyPairs(agreement: try bytes(v["bobAgreementPrivate"]), signing: Data(repeating: 7, count: 32))
        let members = try #require(try signedMembers().signed.decoded())
        let boxJSON = try JSONSerialization.data(withJSONObject: try #require(v["box"]))
        let box = try JSONDecoder().decode(ZoneKeyBox.self, from: boxJSON)
        #expect(box.problem() == nil)
        let info = try #require(v["info"] as? String)
        #expect(ZoneKeyBox.info(zone: box.zone, version: 1, member: "Bob") == Data(info.utf8))
        let keys = try bob.open(box, as: "Bob", members: members)
        let (dataKey, idKey) = (try bytes(v["dataKey"]), try bytes(v["idKey"]))
        #expect(keys.version == 1 && keys.dataKeyBytes == dataKey && keys.idKeyBytes == idKey)

        // Sealed here, opened there; each box draws its own ephemeral key.
        let bobMember = try #require(members.member("bob"))
        let sent = try ada.box(keys, for: bobMember, from: "ada")
        #expect(sent.problem() == nil && sent.enc != box.enc)
        #expect(try bob.open(sent, as: "bob", members: members).dataKeyBytes == dataKey)
        let made = ZoneKeys.make(zone: try #require(UUID(uuidString: members.zone)))
        let opened = try bob.open(try ada.box(made, for: bobMember, from: "ada"), as: "bob", members: members)
        #expect(opened.dataKeyBytes == made.dataKeyBytes && opened.idKeyBytes == made.idKeyBytes && made.dataKeyBytes != made.idKeyBytes)

        // Boxes bob must not take: not from the owner, not for him, a version the record lacks.
        var notFromOwner = box
        notFromOwner.from = "bob"
        var forCarol = box
        forCarol.member = "carol"
        var newer = box
        newer.version = 2
        var otherZone = box
        otherZone.zone = UUID().uuidString.lowercased()
        for (attack, bad) in [("from a member", notFromOwner), ("for another", forCarol), ("a version not in the record", newer), ("another zone", otherZone)] {
            #expect(throws: ShareRefusal.keyNotFromOwner, "\(attack)") { try bob.open(bad, as: "bob", members: members) }
        }
        // Boxes that do not open: a changed byte, another's encapsulation, one the server sealed
        // in the owner's name, one sealed for carol renamed to bob.
        var changedBytes = try bytes(box.sealed)
        changedBytes[3] ^= 1
        var changed = box
        changed.sealed = Base64URL.encode(changedBytes)
        var swapped = box
        swapped.enc = sent.enc
        let byServer = try IdentityKeyPairs.make().box(keys, for: bobMember, from: "ada")
        let carol = IdentityKeyPairs.make()
        var renamed = try ada.box(keys, for: ShareMembers.Member(account: "carol", role: .viewer, identity: carol.identity), from: "ada")
        renamed.member = "bob"
        for (attack, bad) in [("a changed byte", changed), ("another encapsulation", swapped), ("sealed by the server", byServer), ("renamed", renamed)] {
            #expect(throws: ShareRefusal.keyDoesNotOpen, "\(attack)") { try bob.open(bad, as: "bob", members: members) }
        }
        #expect(throws: ShareRefusal.keyDoesNotOpen, "carol's box opened by bob's key") {
            try bob.open(try ada.box(keys, for: ShareMembers.Member(account: "bob", role: .viewer, identity: carol.identity), from: "ada"), as: "bob", members: members)
        }
    }
}
