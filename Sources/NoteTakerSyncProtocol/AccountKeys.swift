import Foundation

/// How a password is stretched before it opens anything (docs/encryption.md §2.1): scrypt's
/// parameters and the account's salt, public, given to any device before it logs in.
public struct KDFParameters: Sendable, Hashable, Codable {
    /// `scrypt`, or `none` for an account that has not turned encryption on (its password is
    /// sent as it is). Only a ``LoginParameters`` answer says `none`.
    public var kdf: String
    /// scrypt's cost, a power of two.
    public var n: Int?
    /// scrypt's block size.
    public var r: Int?
    /// scrypt's parallelism.
    public var p: Int?
    /// 16 random bytes, base64url.
    public var salt: String?

    /// The parameters this version makes: scrypt with N = 2^17, r = 8, p = 1.
    public static func scrypt(salt: Data) -> KDFParameters {
        KDFParameters(kdf: "scrypt", n: 1 << 17, r: 8, p: 1, salt: Base64URL.encode(salt))
    }

    /// The answer for an account without encryption.
    public static let none = KDFParameters(kdf: "none")

    /// Creates parameters.
    public init(kdf: String, n: Int? = nil, r: Int? = nil, p: Int? = nil, salt: String? = nil) {
        self.kdf = kdf
        self.n = n
        self.r = r
        self.p = p
        self.salt = salt
    }

    /// Why these parameters cannot stretch a password, or `nil`: scrypt, `n` a power of two
    /// from `minimumCost` to 2^20, `r` = 8, `p` = 1, a 16-byte salt.
    public func problem(minimumCost: Int = 1 << 14) -> String? {
        guard kdf == "scrypt" else { return "the key derivation function must be scrypt" }
        guard let n, n >= minimumCost, n <= 1 << 20, n & (n - 1) == 0 else {
            return "scrypt's n must be a power of two from \(minimumCost) to 1048576"
        }
        guard r == 8, p == 1 else { return "scrypt's r must be 8 and p 1" }
        guard let salt, salt.utf8.count == 22, Base64URL.decode(salt)?.count == 16 else { return "the salt must be 16 bytes, base64url" }
        return nil
    }
}

/// What `GET /v1/login-parameters?username=NAME` answers: the account's ``KDFParameters``,
/// made-up ones for a name no account has, or `kdf: none` for an account without encryption.
public typealias LoginParameters = KDFParameters

/// An account's key material as the server keeps it (docs/encryption.md §2.4): the password's
/// parameters, the account key wrapped twice, and the private zone's keys wrapped by it. The
/// server checks its shape and reads nothing else. (A shared zone's keys are wrapped for each
/// member, and kept apart.)
public struct AccountKeys: Sendable, Hashable, Codable {
    /// How the password is stretched.
    public var kdf: KDFParameters
    /// The account key, wrapped by the password's key-encryption key (60 bytes, base64url).
    public var wrappedByPassword: String
    /// The account key, wrapped by the recovery key (60 bytes, base64url).
    public var wrappedByRecovery: String
    /// The private zone's id key, wrapped by the account key (never rotated).
    public var idKey: String
    /// The private zone's data keys, wrapped by the account key: version 1 first, then one more
    /// at each rotation (a key's version is its place in the list).
    public var dataKeys: [String]

    /// Creates key material.
    public init(kdf: KDFParameters, wrappedByPassword: String, wrappedByRecovery: String, idKey: String, dataKeys: [String]) {
        self.kdf = kdf
        self.wrappedByPassword = wrappedByPassword
        self.wrappedByRecovery = wrappedByRecovery
        self.idKey = idKey
        self.dataKeys = dataKeys
    }

    /// The most data-key versions an account keeps.
    public static let maximumDataKeys = 1_000
    /// The size of a wrapped 32-byte key: a 12-byte nonce, the key, a 16-byte tag.
    public static let wrappedKeySize = 60

    /// Why the server must refuse this material, or `nil` when its shape is right.
    public func problem() -> String? {
        if let problem = kdf.problem() { return problem }
        guard (1...Self.maximumDataKeys).contains(dataKeys.count) else { return "there must be 1 to \(Self.maximumDataKeys) data keys" }
        guard ([wrappedByPassword, wrappedByRecovery, idKey] + dataKeys).allSatisfy(Self.isWrappedKey) else {
            return "each wrapped key must be \(Self.wrappedKeySize) bytes, base64url"
        }
        return nil
    }

    static func isWrappedKey(_ text: String) -> Bool {
        text.utf8.count == 80 && Base64URL.decode(text)?.count == wrappedKeySize
    }
}

/// base64url without padding (RFC 4648 §5), as the encryption format writes binary values.
public enum Base64URL {
    /// `data` in base64url, unpadded.
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded base64url text, or `nil` for anything else (padding, `+`, `/`, or
    /// bits left over that are not zero: each value has one spelling).
    public static func decode(_ text: String) -> Data? {
        guard text.utf8.allSatisfy({ byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }), text.utf8.count % 4 != 1 else { return nil }
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard let data = Data(base64Encoded: standard + String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)),
              encode(data) == text else { return nil }
        return data
    }
}

/// The secret that lets an account's recovery code set a new password (docs/encryption.md
/// §2.5): derived from the recovery key, 32 bytes in base64url. The server keeps its hash.
public struct RecoverySetup: Sendable, Hashable, Codable {
    /// The recovery secret.
    public var recoverySecret: String

    /// A recovery secret to keep.
    public init(recoverySecret: String) {
        self.recoverySecret = recoverySecret
    }

    /// Whether `text` is 32 bytes in base64url, as a recovery secret is.
    public static func isSecret(_ text: String) -> Bool {
        text.utf8.count == 43 && Base64URL.decode(text)?.count == 32
    }
}

/// A request made with the recovery code instead of the password: the account's key material
/// (no `newPassword`), or a new password with the key material wrapped for it.
public struct RecoveryRequest: Sendable, Hashable, Codable {
    /// The account's name.
    public var username: String
    /// The secret derived from the recovery code.
    public var recoverySecret: String
    /// The new password (its login secret), when setting one.
    public var newPassword: String?
    /// The key material wrapped for the new password, with it.
    public var keys: AccountKeys?

    /// Creates a recovery request.
    public init(username: String, recoverySecret: String, newPassword: String? = nil, keys: AccountKeys? = nil) {
        self.username = username
        self.recoverySecret = recoverySecret
        self.newPassword = newPassword
        self.keys = keys
    }
}
