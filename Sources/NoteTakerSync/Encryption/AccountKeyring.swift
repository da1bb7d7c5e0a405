import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// An account's keys, opened (docs/encryption.md §2.2–2.4): the account key, and the private
/// zone's id key and data keys. Made once when an account turns encryption on; opened from the
/// server's key material with the password's key-encryption key or the recovery code; wrapped
/// again for a new password. Every wrap names what it holds and for which account, so material
/// moved, swapped or changed on the server does not open.
public struct AccountKeyring: Sendable {
    /// The zone of the account's own notes.
    public static let privateZone = "private"

    /// The account's name, as the wraps are bound to it (lowercased).
    public let account: String
    // SymmetricKey is not Sendable: the keys' bytes are kept, and keys made from them when used.
    let accountBytes: Data
    let idKeyBytes: Data
    let dataKeyBytes: [Data]
    /// The account's identity key pairs (docs/sharing.md §2); `nil` for an account whose
    /// material has none yet (made before this version, until a device of it logs in).
    public let identityKeys: IdentityKeyPairs?

    /// The account key (it seals the account's device names).
    public var accountKey: SymmetricKey { SymmetricKey(data: accountBytes) }
    /// The private zone's id key (keyed ids and file addresses).
    public var idKey: SymmetricKey { SymmetricKey(data: idKeyBytes) }
    /// The newest data key's version: the one new seals use.
    public var newestVersion: Int { dataKeyBytes.count }

    /// The private zone's data key of `version`, if the account has it.
    public func dataKey(version: Int) -> SymmetricKey? {
        dataKeyBytes.indices.contains(version - 1) ? SymmetricKey(data: dataKeyBytes[version - 1]) : nil
    }

    init(account: String, accountKey: SymmetricKey, idKey: SymmetricKey, dataKeys: [SymmetricKey], identityKeys: IdentityKeyPairs?) {
        self.account = account.lowercased()
        accountBytes = accountKey.withUnsafeBytes { Data($0) }
        idKeyBytes = idKey.withUnsafeBytes { Data($0) }
        dataKeyBytes = dataKeys.map { key in key.withUnsafeBytes { Data($0) } }
        self.identityKeys = identityKeys
    }

    /// New keys for `account`: the keyring, the material to keep on the server (wrapped by
    /// `password`'s key-encryption key, stretched with `parameters`, and by a new recovery
    /// code), and that code, to show its owner once.
    public static func create(
        account: String, password: PasswordKeys, parameters: KDFParameters
    ) throws(EncryptionError) -> (keyring: AccountKeyring, material: AccountKeys, recovery: RecoveryCode) {
        let keyring = AccountKeyring(
            account: account, accountKey: SymmetricKey(size: .bits256), idKey: SymmetricKey(size: .bits256), dataKeys: [SymmetricKey(size: .bits256)],
            identityKeys: .make())
        let recovery = RecoveryCode()
        let accountKey = SymmetricKey(data: keyring.accountBytes)
        let binding = KeyWrap.accountKeyData(account: keyring.account)
        let material = AccountKeys(
            kdf: parameters,
            wrappedByPassword: Base64URL.encode(try KeyWrap.wrap(accountKey, with: password.keyEncryptionKey, data: binding)),
            wrappedByRecovery: Base64URL.encode(try KeyWrap.wrap(accountKey, with: recovery.keyEncryptionKey, data: binding)),
            idKey: Base64URL.encode(try KeyWrap.wrap(keyring.idKey, with: accountKey, data: KeyWrap.idKeyData(zone: privateZone))),
            dataKeys: try keyring.dataKeyBytes.indices.map { index throws(EncryptionError) in
                Base64URL.encode(try KeyWrap.wrap(
                    SymmetricKey(data: keyring.dataKeyBytes[index]), with: accountKey, data: KeyWrap.zoneKeyData(zone: privateZone, version: index + 1)))
            },
            identity: try keyring.identityKeys?.wrapped(by: accountKey, account: keyring.account))
        return (keyring, material, recovery)
    }

    /// Opens `material` with the password's key-encryption key.
    public init(opening material: AccountKeys, account: String, password: PasswordKeys) throws(EncryptionError) {
        try self.init(opening: material, account: account, wrapped: material.wrappedByPassword, with: password.keyEncryptionKey)
    }

    /// Opens `material` with the recovery code, when the password is lost.
    public init(opening material: AccountKeys, account: String, recovery: RecoveryCode) throws(EncryptionError) {
        try self.init(opening: material, account: account, wrapped: material.wrappedByRecovery, with: recovery.keyEncryptionKey)
    }

    private init(opening material: AccountKeys, account: String, wrapped: String, with wrapping: SymmetricKey) throws(EncryptionError) {
        guard let sealedAccountKey = Base64URL.decode(wrapped), let sealedIdKey = Base64URL.decode(material.idKey) else { throw .malformed }
        let accountKey = try KeyWrap.unwrap(sealedAccountKey, with: wrapping, data: KeyWrap.accountKeyData(account: account))
        let idKey = try KeyWrap.unwrap(sealedIdKey, with: accountKey, data: KeyWrap.idKeyData(zone: Self.privateZone))
        var dataKeys: [SymmetricKey] = []
        for (index, text) in material.dataKeys.enumerated() {
            guard let sealed = Base64URL.decode(text) else { throw .malformed }
            dataKeys.append(try KeyWrap.unwrap(sealed, with: accountKey, data: KeyWrap.zoneKeyData(zone: Self.privateZone, version: index + 1)))
        }
        guard !dataKeys.isEmpty else { throw .malformed }
        let identityKeys = try material.identity.map { keys throws(EncryptionError) in try IdentityKeyPairs(opening: keys, with: accountKey, account: account) }
        self.init(account: account, accountKey: accountKey, idKey: idKey, dataKeys: dataKeys, identityKeys: identityKeys)
    }

    /// `material` with the account key wrapped for a new password (stretched with new
    /// `parameters`): a password change, or a recovery. Nothing else changes: the recovery
    /// code, the zone's keys and every sealed record stay as they are.
    public func rewrapped(_ material: AccountKeys, for password: PasswordKeys, parameters: KDFParameters) throws(EncryptionError) -> AccountKeys {
        var changed = material
        changed.kdf = parameters
        changed.wrappedByPassword = Base64URL.encode(
            try KeyWrap.wrap(SymmetricKey(data: accountBytes), with: password.keyEncryptionKey, data: KeyWrap.accountKeyData(account: account)))
        return changed
    }
}
