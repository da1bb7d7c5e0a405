import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// An account's identity key pairs, their private halves held (docs/sharing.md §2): an
/// X25519 agreement key, to which a share's keys are sent, and an Ed25519 signing key. Made
/// once per account; kept in its key material wrapped by the account key, and bound there to
/// the account's name and to each key's use, so that keys moved or swapped on the server do
/// not open.
public struct IdentityKeyPairs: Sendable, Equatable {
    // The private keys' bytes (X25519's scalar, Ed25519's seed); keys are made from them when used.
    let agreementBytes: Data
    let signingBytes: Data
    /// The public halves, as the server tells them to others.
    public let identity: AccountIdentity

    /// New key pairs.
    public static func make() -> IdentityKeyPairs {
        IdentityKeyPairs(agreement: Curve25519.KeyAgreement.PrivateKey(), signing: Curve25519.Signing.PrivateKey())
    }

    init(agreement: Curve25519.KeyAgreement.PrivateKey, signing: Curve25519.Signing.PrivateKey) {
        agreementBytes = agreement.rawRepresentation
        signingBytes = signing.rawRepresentation
        identity = AccountIdentity(
            agreement: Base64URL.encode(agreement.publicKey.rawRepresentation), signing: Base64URL.encode(signing.publicKey.rawRepresentation))
    }

    /// Key pairs from their private halves' bytes; ``EncryptionError/malformed`` unless each is 32 bytes.
    init(agreement: Data, signing: Data) throws(EncryptionError) {
        guard agreement.count == 32, signing.count == 32,
              let agreementKey = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: agreement),
              let signingKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: signing)
        else { throw .malformed }
        self.init(agreement: agreementKey, signing: signingKey)
    }

    /// The pairs as the key material keeps them, the private halves wrapped by `accountKey`.
    func wrapped(by accountKey: SymmetricKey, account: String) throws(EncryptionError) -> IdentityKeys {
        IdentityKeys(
            agreement: identity.agreement, signing: identity.signing,
            agreementKey: Base64URL.encode(try KeyWrap.wrap(SymmetricKey(data: agreementBytes), with: accountKey, data: KeyWrap.identityKeyData(use: "agreement", account: account))),
            signingKey: Base64URL.encode(try KeyWrap.wrap(SymmetricKey(data: signingBytes), with: accountKey, data: KeyWrap.identityKeyData(use: "signing", account: account))))
    }

    /// Opens the pairs the key material keeps; ``EncryptionError/notAuthentic`` when a wrap
    /// does not open, or when a public half is not the one its private half makes (a server
    /// that put keys of its own beside the account's).
    init(opening keys: IdentityKeys, with accountKey: SymmetricKey, account: String) throws(EncryptionError) {
        guard let agreement = Base64URL.decode(keys.agreementKey), let signing = Base64URL.decode(keys.signingKey) else { throw .malformed }
        let agreementKey = try KeyWrap.unwrap(agreement, with: accountKey, data: KeyWrap.identityKeyData(use: "agreement", account: account))
        let signingKey = try KeyWrap.unwrap(signing, with: accountKey, data: KeyWrap.identityKeyData(use: "signing", account: account))
        try self.init(agreement: agreementKey.withUnsafeBytes { Data($0) }, signing: signingKey.withUnsafeBytes { Data($0) })
        guard identity == keys.identity else { throw .notAuthentic }
    }
}

extension AccountKeyring {
    /// The keyring with new identity key pairs, and those pairs as the key material keeps them
    /// (for an account made before identity keys: its first device of this version makes them).
    public func withNewIdentity() throws(EncryptionError) -> (keyring: AccountKeyring, wrapped: IdentityKeys) {
        let pairs = IdentityKeyPairs.make()
        let keyring = AccountKeyring(
            account: account, accountKey: accountKey, idKey: idKey, dataKeys: dataKeyBytes.map { SymmetricKey(data: $0) }, identityKeys: pairs)
        return (keyring, try pairs.wrapped(by: accountKey, account: account))
    }
}
