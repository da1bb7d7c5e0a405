import Crypto
import Foundation
import NoteTakerKit
import _CryptoExtras

/// The account's public key-derivation parameters (docs/encryption.md §2.1).
public struct KDFParameters: Sendable, Hashable, Codable {
    /// The function: `scrypt`.
    public var kdf: String
    /// scrypt's cost, block size and parallelism.
    public var n: Int, r: Int, p: Int
    /// 16 random bytes, made again at every password change.
    public var salt: Data

    /// The parameters for a new account or a new password: N = 2^17, r = 8, p = 1, a new salt.
    public static func fresh() -> KDFParameters {
        KDFParameters(kdf: "scrypt", n: 1 << 17, r: 8, p: 1, salt: Data(SymmetricKey(size: .init(bitCount: 128)).withUnsafeBytes { Array($0) }))
    }

    /// Creates parameters.
    public init(kdf: String, n: Int, r: Int, p: Int, salt: Data) {
        self.kdf = kdf
        self.n = n
        self.r = r
        self.p = p
        self.salt = salt
    }
}

/// What a password gives: the key that wraps the account key, and the secret the server checks
/// at log-in instead of the password. Neither can be had from the other (§2.1).
public struct PasswordKeys: Sendable {
    // SymmetricKey is not Sendable: the keys' bytes are kept, and keys made from them when used.
    private let keyEncryptionBytes: Data
    private let loginBytes: Data
    /// Wraps and unwraps the account key.
    public var keyEncryptionKey: SymmetricKey { SymmetricKey(data: keyEncryptionBytes) }
    /// Sent to the server in the password's place.
    public var loginSecret: SymmetricKey { SymmetricKey(data: loginBytes) }

    /// Stretches `password` (taken in Unicode NFC) with `parameters`.
    public init(password: String, parameters: KDFParameters) throws(EncryptionError) {
        guard parameters.kdf == "scrypt", parameters.n >= 1 << 10, parameters.n <= 1 << 22, parameters.n & (parameters.n - 1) == 0,
              (1...32).contains(parameters.r), (1...16).contains(parameters.p), parameters.salt.count >= 16 else {
            throw .badParameters("scrypt with N a power of two from 2^10 to 2^22, r ≤ 32, p ≤ 16 and a 16-byte salt")
        }
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(
                from: Array(password.precomposedStringWithCanonicalMapping.utf8), salt: parameters.salt, outputByteCount: 64,
                rounds: parameters.n, blockSize: parameters.r, parallelism: parameters.p)
        } catch {
            throw .badParameters("scrypt refused them: \(error)")
        }
        keyEncryptionBytes = KeyDerivation.expand(stretched, "notetaker v1 key-encryption key").withUnsafeBytes { Data($0) }
        loginBytes = KeyDerivation.expand(stretched, "notetaker v1 login secret").withUnsafeBytes { Data($0) }
    }
}
