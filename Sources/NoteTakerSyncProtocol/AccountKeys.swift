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
    /// The account's identity keys (docs/sharing.md §2); `nil` until a device of this version
    /// made them.
    public var identity: IdentityKeys?

    /// Creates key material.
    public init(kdf: KDFParameters, wrappedByPassword: String, wrappedByRecovery: String, idKey: String, dataKeys: [String],
                identity: IdentityKeys? = nil) {
        self.kdf = kdf
        self.wrappedByPassword = wrappedByPassword
        self.wrappedByRecovery = wrappedByRecovery
        self.idKey = idKey
        self.dataKeys = dataKeys
        self.identity = identity
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
        return identity?.problem()
    }

    /// Whether `text` is a wrapped key in form: its bytes in base64url.
    public static func isWrappedKey(_ text: String) -> Bool {
        text.utf8.count == 80 && Base64URL.decode(text)?.count == wrappedKeySize
    }
}

/// base64url without padding (RFC 4648 §5), as the encryption format writes binary values.
/// Written here with tables rather than through Foundation's base64: every sealed record goes
/// through it both ways, and Foundation's on Linux costs more than the sealing itself.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's value as a base64url character, or 0xFF.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// `data` in base64url, unpadded.
    public static func encode(_ data: Data) -> String {
        let count = data.count
        let length = count / 3 * 4 + [0, 2, 3][count % 3]
        return data.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: length) { output in
                var written = 0
                var index = 0
                while index + 3 <= count {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[written] = alphabet[Int(chunk >> 18 & 63)]
                    output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
                    output[written + 2] = alphabet[Int(chunk >> 6 & 63)]
                    output[written + 3] = alphabet[Int(chunk & 63)]
                    written += 4
                    index += 3
                }
                if count - index == 1 {
                    let chunk = UInt32(input[index]) << 16
                    output[written] = alphabet[Int(chunk >> 18 & 63)]
                    output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
                    written += 2
                } else if count - index == 2 {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                    output[written] = alphabet[Int(chunk >> 18 & 63)]
                    output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
                    output[written + 2] = alphabet[Int(chunk >> 6 & 63)]
                    written += 3
                }
                return written
            }
            }
        }
    }

    /// The bytes of unpadded base64url text, or `nil` for anything else (padding, `+`, `/`, or
    /// bits left over that are not zero: each value has one spelling).
    public static func decode(_ text: String) -> Data? {
        var text = text
        return text.withUTF8 { input -> Data? in
            let count = input.count
            guard count % 4 != 1 else { return nil }
            var output = Data(count: count / 4 * 3 + [0, 0, 1, 2][count % 4])
            let decoded = values.withUnsafeBufferPointer { values in output.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) -> Bool in
                var written = 0
                var index = 0
                var chunk: UInt32 = 0
                while index < count {
                    let value = values[Int(input[index])]
                    guard value != 0xFF else { return false }
                    chunk = chunk << 6 | UInt32(value)
                    index += 1
                    if index % 4 == 0 {
                        bytes[written] = UInt8(chunk >> 16 & 0xFF)
                        bytes[written + 1] = UInt8(chunk >> 8 & 0xFF)
                        bytes[written + 2] = UInt8(chunk & 0xFF)
                        written += 3
                        chunk = 0
                    }
                }
                switch count % 4 {
                case 2:
                    // 12 bits for one byte: the last 4 must be zero.
                    guard chunk & 0x0F == 0 else { return false }
                    bytes[written] = UInt8(chunk >> 4 & 0xFF)
                case 3:
                    // 18 bits for two bytes: the last 2 must be zero.
                    guard chunk & 0x03 == 0 else { return false }
                    bytes[written] = UInt8(chunk >> 10 & 0xFF)
                    bytes[written + 1] = UInt8(chunk >> 2 & 0xFF)
                default:
                    break
                }
                return true
            } }
            return decoded ? output : nil
        }
    }
}

/// A new recovery code for the logged-in account (docs/encryption.md §2.5): the secret that
/// lets it set a new password (derived from the recovery key, 32 bytes in base64url; the server
/// keeps its hash) and the account key wrapped for it, for the current password's login secret.
/// The code it replaces no longer opens anything.
public struct RecoverySetup: Sendable, Hashable, Codable {
    /// The recovery secret.
    public var recoverySecret: String
    /// The account key wrapped by the new recovery key, in the key material's place.
    public var wrappedByRecovery: String
    /// The current password's login secret.
    public var password: String

    /// A new recovery code to keep.
    public init(recoverySecret: String, wrappedByRecovery: String, password: String) {
        self.recoverySecret = recoverySecret
        self.wrappedByRecovery = wrappedByRecovery
        self.password = password
    }

    /// Whether `text` is 32 bytes in base64url, as a recovery secret is.
    public static func isSecret(_ text: String) -> Bool {
        text.utf8.count == 43 && Base64URL.decode(text)?.count == 32
    }
}

/// A new data key for the logged-in account's private zone (docs/encryption.md §2.3, rotation):
/// wrapped by the account key, for the current password's login secret. It is appended as
/// `version`, which must be the one after the newest the server holds: two devices rotating at
/// once do not both append.
public struct DataKeyAddition: Sendable, Hashable, Codable {
    /// The new key's version: the number of data keys held now, plus one.
    public var version: Int
    /// The new key, wrapped by the account key (60 bytes in base64url).
    public var dataKey: String
    /// The current password's login secret.
    public var password: String

    /// A data key to append.
    public init(version: Int, dataKey: String, password: String) {
        self.version = version
        self.dataKey = dataKey
        self.password = password
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
