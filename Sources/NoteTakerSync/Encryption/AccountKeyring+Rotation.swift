import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Rotating the private zone's data key (docs/encryption.md §2.3): a device makes version
/// `n + 1`, wrapped by the account key, and seals with it from then on; the others learn it
/// from the server's key material, which they open with the account key they hold.
extension AccountKeyring {
    /// The keyring with a new data key, one version above the newest, and that key wrapped by
    /// the account key for the server to append (base64url).
    public func rotated() throws(EncryptionError) -> (keyring: AccountKeyring, wrapped: String) {
        let key = SymmetricKey(size: .bits256)
        let version = newestVersion + 1
        let wrapped = try KeyWrap.wrap(key, with: accountKey, data: KeyWrap.zoneKeyData(zone: Self.privateZone, version: version))
        let keys = dataKeyBytes.map { SymmetricKey(data: $0) } + [key]
        return (AccountKeyring(account: account, accountKey: accountKey, idKey: idKey, dataKeys: keys, identityKeys: identityKeys), Base64URL.encode(wrapped))
    }

    /// The keyring with the data keys `material` holds beyond those it has (another device
    /// rotated), and its identity keys when this keyring has none (another device made them),
    /// each opened with the account key and bound to its use: a key the server made up, or
    /// moved from another version, does not open (``EncryptionError``), and the keys already
    /// held are kept as they are whatever the material says of them.
    public func learning(_ material: AccountKeys) throws(EncryptionError) -> AccountKeyring {
        var keys = dataKeyBytes.map { SymmetricKey(data: $0) }
        if material.dataKeys.count > newestVersion {
            for version in (newestVersion + 1)...material.dataKeys.count {
                guard let sealed = Base64URL.decode(material.dataKeys[version - 1]) else { throw .malformed }
                keys.append(try KeyWrap.unwrap(sealed, with: accountKey, data: KeyWrap.zoneKeyData(zone: Self.privateZone, version: version)))
            }
        }
        var identity = identityKeys
        if identity == nil, let held = material.identity {
            identity = try IdentityKeyPairs(opening: held, with: accountKey, account: account)
        }
        return AccountKeyring(account: account, accountKey: accountKey, idKey: idKey, dataKeys: keys, identityKeys: identity)
    }
}
