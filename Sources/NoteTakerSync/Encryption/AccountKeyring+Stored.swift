import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// A keyring as a device keeps it beside its store (docs/encryption.md §7: whoever holds an
/// unlocked device reads its notes): the account's name and its keys, in base64url, as JSON.
extension AccountKeyring {
    private struct Stored: Codable {
        var account: String
        var accountKey: String
        var idKey: String
        var dataKeys: [String]
        /// The identity keys' private halves (X25519's scalar, Ed25519's seed), when held.
        var agreementKey: String?
        var signingKey: String?
    }

    /// The keyring as JSON, to keep in a file only its owner can read.
    public func stored() -> Data {
        let stored = Stored(account: account, accountKey: Base64URL.encode(accountBytes), idKey: Base64URL.encode(idKeyBytes),
                            dataKeys: dataKeyBytes.map(Base64URL.encode),
                            agreementKey: identityKeys.map { Base64URL.encode($0.agreementBytes) },
                            signingKey: identityKeys.map { Base64URL.encode($0.signingBytes) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(stored)) ?? Data()
    }

    /// A keyring kept with ``stored()``; ``EncryptionError/malformed`` for anything else.
    public init(stored data: Data) throws(EncryptionError) {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data),
              let accountKey = Base64URL.decode(stored.accountKey), accountKey.count == 32,
              let idKey = Base64URL.decode(stored.idKey), idKey.count == 32, !stored.dataKeys.isEmpty
        else { throw .malformed }
        var dataKeys: [SymmetricKey] = []
        for text in stored.dataKeys {
            guard let key = Base64URL.decode(text), key.count == 32 else { throw .malformed }
            dataKeys.append(SymmetricKey(data: key))
        }
        var identityKeys: IdentityKeyPairs?
        if let agreement = stored.agreementKey, let signing = stored.signingKey {
            guard let agreement = Base64URL.decode(agreement), let signing = Base64URL.decode(signing) else { throw .malformed }
            identityKeys = try IdentityKeyPairs(agreement: agreement, signing: signing)
        }
        self.init(account: stored.account, accountKey: SymmetricKey(data: accountKey), idKey: SymmetricKey(data: idKey), dataKeys: dataKeys,
                  identityKeys: identityKeys)
    }
}

extension PasswordKeys {
    /// The login secret as the server is sent it in the password's place: base64url.
    public var loginSecretText: String { loginSecret.withUnsafeBytes { Base64URL.encode(Data($0)) } }
}

extension RecoveryCode {
    /// The recovery secret as the server is sent it: base64url.
    public var recoverySecretText: String { recoverySecret.withUnsafeBytes { Base64URL.encode(Data($0)) } }
}
