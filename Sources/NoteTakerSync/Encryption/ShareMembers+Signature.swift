import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

extension IdentityKeyPairs {
    /// `members` written as JSON text and signed with this account's signing key, as its
    /// owner does (docs/sharing.md §3.2).
    public func signed(_ members: ShareMembers) throws(EncryptionError) -> SignedShareMembers {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(members), let text = String(data: json, encoding: .utf8),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: signingBytes),
              let signature = try? key.signature(for: SignedShareMembers.signedBytes(text))
        else { throw .malformed }
        return SignedShareMembers(members: text, signature: Base64URL.encode(signature))
    }
}

extension SignedShareMembers {
    /// The members record of `zone`, owned by `owner` whose signing key this device keeps,
    /// after the checks of docs/sharing.md §3.2 in their order: the signature, the text's
    /// shape, zone and owner, then its epoch against `accepted`, the last record this device
    /// took for the zone.
    public func opened(zone: UUID, owner: String, ownerKeys: AccountIdentity, accepted: SignedShareMembers?) throws(ShareRefusal) -> ShareMembers {
        guard let signature = Base64URL.decode(self.signature), signature.count == 64,
              let signingKey = Base64URL.decode(ownerKeys.signing),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey),
              key.isValidSignature(signature, for: Self.signedBytes(members))
        else { throw .notSignedByOwner }
        guard let record = decoded() else { throw .malformed("it is not a members record") }
        if let problem = record.problem() { throw .malformed(problem) }
        guard record.zone == zone.uuidString.lowercased() else { throw .malformed("it names another share") }
        guard let named = record.owner, named.account == owner.lowercased(), named.signing == ownerKeys.signing else {
            throw .malformed("it names another owner")
        }
        if let accepted, let seen = accepted.decoded()?.epoch {
            guard record.epoch >= seen else { throw .replayed(epoch: record.epoch, seen: seen) }
            guard record.epoch > seen || members == accepted.members else { throw .forked(epoch: record.epoch) }
        }
        return record
    }
}
