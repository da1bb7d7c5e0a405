import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// One version of a shared zone's keys (docs/sharing.md §3): the data key its records and files
/// of that version are sealed with, and the zone's id key.
public struct ZoneKeys: Sendable {
    /// The zone's id, lowercase.
    public let zone: String
    /// The data key's version.
    public let version: Int
    // The keys' bytes (keys are made from them when used).
    let dataKeyBytes: Data
    let idKeyBytes: Data

    /// New random keys: a new zone's first version.
    public static func make(zone: UUID) -> ZoneKeys {
        let random = { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } }
        return ZoneKeys(zone: zone.uuidString.lowercased(), version: 1, dataKey: random(), idKey: random())
    }

    /// The next version after `keys`: a new random data key, the same id key (ids made with
    /// it stay the same), when a member is removed.
    static func rotating(_ keys: ZoneKeys) -> ZoneKeys {
        ZoneKeys(zone: keys.zone, version: keys.version + 1, dataKey: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }, idKey: keys.idKeyBytes)
    }

    init(zone: String, version: Int, dataKey: Data, idKey: Data) {
        self.zone = zone
        self.version = version
        dataKeyBytes = dataKey
        idKeyBytes = idKey
    }

    /// The data key, `ZK(zone, version)`.
    var dataKey: SymmetricKey { SymmetricKey(data: dataKeyBytes) }
    /// The id key, `IK(zone)`.
    var idKey: SymmetricKey { SymmetricKey(data: idKeyBytes) }

    /// The suite every box is sealed with: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
    static var boxSuite: HPKE.Ciphersuite { HPKE.Ciphersuite(kem: .Curve25519_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_256) }
}

extension IdentityKeyPairs {
    /// `keys` sealed for `member` by this account, the zone's owner `owner` (docs/sharing.md §3.3).
    public func box(_ keys: ZoneKeys, for member: ShareMembers.Member, from owner: String) throws(EncryptionError) -> ZoneKeyBox {
        let info = ZoneKeyBox.info(zone: keys.zone, version: keys.version, member: member.account)
        guard let recipient = Base64URL.decode(member.agreement),
              let recipientKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: recipient),
              let senderKey = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: agreementBytes),
              var sender = try? HPKE.Sender(recipientKey: recipientKey, ciphersuite: ZoneKeys.boxSuite, info: info, authenticatedBy: senderKey),
              let sealed = try? sender.seal(keys.dataKeyBytes + keys.idKeyBytes)
        else { throw .malformed }
        return ZoneKeyBox(
            zone: keys.zone, version: keys.version, member: member.account, from: owner.lowercased(),
            enc: Base64URL.encode(sender.encapsulatedKey), sealed: Base64URL.encode(sealed))
    }

    /// The keys `box` holds for this account, `account`, under `members`, the zone's members
    /// record this device accepted: only a box from the record's owner, for this account and
    /// zone and a version the record has, sealed with the owner's agreement key it lists.
    public func open(_ box: ZoneKeyBox, as account: String, members: ShareMembers) throws(ShareRefusal) -> ZoneKeys {
        guard box.problem() == nil, box.zone == members.zone, box.member == account.lowercased(), box.version <= members.keyVersion,
              let owner = members.owner, box.from == owner.account,
              let ownerAgreement = Base64URL.decode(owner.agreement),
              let senderKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: ownerAgreement)
        else { throw .keyNotFromOwner }
        let info = ZoneKeyBox.info(zone: box.zone, version: box.version, member: box.member)
        guard let enc = Base64URL.decode(box.enc), let sealed = Base64URL.decode(box.sealed),
              let ownKey = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: agreementBytes),
              var recipient = try? HPKE.Recipient(
                  privateKey: ownKey, ciphersuite: ZoneKeys.boxSuite, info: info, encapsulatedKey: enc, authenticatedBy: senderKey),
              let keys = try? recipient.open(sealed), keys.count == 64
        else { throw .keyDoesNotOpen }
        return ZoneKeys(zone: box.zone, version: box.version, dataKey: Data(keys.prefix(32)), idKey: Data(keys.suffix(32)))
    }
}
