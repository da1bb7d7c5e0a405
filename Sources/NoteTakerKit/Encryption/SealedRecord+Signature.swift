import Crypto
import Foundation

/// A record of a shared zone signed by the account that wrote it (docs/sharing.md §4): the
/// zone's members check who wrote each version, since anyone holding the zone's key (a member
/// removed since, with the server) could seal one.
extension SealedRecord {
    /// What `$sig` signs: `"notetaker v1 record signature|" ‖ aad ‖ 0x00 ‖ sealed`, with `aad`
    /// the seal's associated data for `address`, so that a signature moved to another record,
    /// zone, key version or ciphertext does not verify.
    public func signedBytes(for address: Address) -> Data {
        var bytes = Data("notetaker v1 record signature|".utf8)
        bytes.append(address.associatedData(keyVersion: keyVersion))
        bytes.append(0)
        bytes.append(sealed)
        return bytes
    }

    /// This seal, signed by `author` with the Ed25519 private key whose 32-byte seed is
    /// `signingKey`.
    public func signed(by author: String, signingKey: Data, for address: Address) throws(EncryptionError) -> SealedRecord {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: signingKey),
              let signature = try? key.signature(for: signedBytes(for: address))
        else { throw .malformed }
        var signed = self
        signed.signed = (author.lowercased(), signature)
        return signed
    }

    /// Whether `$sig` verifies for `address` with the Ed25519 public key `signingKey` (32
    /// bytes): over the record alone, or over its batch's root (§4.1) when its path folds.
    public func signatureVerifies(for address: Address, signingKey: Data) -> Bool {
        guard let (_, signature) = signed, let message = signatureMessage(for: address),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
