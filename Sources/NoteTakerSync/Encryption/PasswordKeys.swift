import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import _CryptoExtras

extension KDFParameters {
    /// The parameters for a new account or a new password: N = 2^17, r = 8, p = 1, a new
    /// random salt.
    public static func fresh() -> KDFParameters {
        .scrypt(salt: SymmetricKey(size: .init(bitCount: 128)).withUnsafeBytes { Data($0) })
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

    /// Stretches `password` (taken in Unicode NFC) with `parameters`, refusing any weaker than
    /// `minimumCost` (a server's parameters must be this version's, 2^17; the known-answer
    /// vectors use 2^10 to stay quick).
    public init(password: String, parameters: KDFParameters, minimumCost: Int = 1 << 17) throws(EncryptionError) {
        if let problem = parameters.problem(minimumCost: minimumCost) { throw .badParameters(problem) }
        guard let n = parameters.n, let r = parameters.r, let p = parameters.p,
              let salt = parameters.salt.flatMap(Base64URL.decode) else { throw .badParameters("scrypt's parameters are incomplete") }
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(
                from: Array(password.precomposedStringWithCanonicalMapping.utf8), salt: salt, outputByteCount: 64,
                rounds: n, blockSize: r, parallelism: p)
        } catch {
            throw .badParameters("scrypt refused them: \(error)")
        }
        keyEncryptionBytes = KeyDerivation.expand(stretched, "notetaker v1 key-encryption key").withUnsafeBytes { Data($0) }
        loginBytes = KeyDerivation.expand(stretched, "notetaker v1 login secret").withUnsafeBytes { Data($0) }
    }
}
