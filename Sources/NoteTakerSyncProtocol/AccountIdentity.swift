import Foundation

/// An account's public identity keys (docs/sharing.md §2): the X25519 key zone keys are sent
/// to and the Ed25519 key it signs with, 32 bytes each in base64url. What
/// `GET /v1/users/{name}/identity` answers, to any logged-in account.
public struct AccountIdentity: Sendable, Hashable, Codable {
    /// The agreement (X25519) public key.
    public var agreement: String
    /// The signing (Ed25519) public key.
    public var signing: String

    /// Public identity keys.
    public init(agreement: String, signing: String) {
        self.agreement = agreement
        self.signing = signing
    }

    /// Whether both keys are 32 bytes in base64url.
    public var isWellFormed: Bool {
        [agreement, signing].allSatisfy { $0.utf8.count == 43 && Base64URL.decode($0)?.count == 32 }
    }
}

/// An account's identity keys as its key material keeps them (docs/sharing.md §2): the public
/// halves, and the private halves wrapped by the account key.
public struct IdentityKeys: Sendable, Hashable, Codable {
    /// The agreement (X25519) public key.
    public var agreement: String
    /// The signing (Ed25519) public key.
    public var signing: String
    /// The agreement private key, wrapped by the account key (60 bytes, base64url).
    public var agreementKey: String
    /// The signing private key, wrapped by the account key (60 bytes, base64url).
    public var signingKey: String

    /// Identity keys to keep.
    public init(agreement: String, signing: String, agreementKey: String, signingKey: String) {
        self.agreement = agreement
        self.signing = signing
        self.agreementKey = agreementKey
        self.signingKey = signingKey
    }

    /// The public halves.
    public var identity: AccountIdentity { AccountIdentity(agreement: agreement, signing: signing) }

    /// Why the server must refuse these keys, or `nil` when their shape is right.
    public func problem() -> String? {
        guard identity.isWellFormed else { return "each public identity key must be 32 bytes, base64url" }
        guard [agreementKey, signingKey].allSatisfy(AccountKeys.isWrappedKey) else {
            return "each wrapped identity key must be \(AccountKeys.wrappedKeySize) bytes, base64url"
        }
        return nil
    }
}

/// Identity keys for the logged-in account, which has none yet (an account made before this
/// version: its first device to start this version makes them, once), for the current
/// password's login secret.
public struct IdentityAddition: Sendable, Hashable, Codable {
    /// The keys to keep in the account's key material.
    public var identity: IdentityKeys
    /// The current password's login secret.
    public var password: String

    /// Identity keys to add.
    public init(identity: IdentityKeys, password: String) {
        self.identity = identity
        self.password = password
    }
}
