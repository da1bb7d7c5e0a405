import Crypto
import _CryptoExtras
import Foundation

/// Hashes passwords with scrypt and a random salt; only the hash is ever stored.
///
/// The stored form is `scrypt$N$r$p$salt$hash` (base64), so the cost can grow later
/// without breaking existing accounts.
public struct PasswordHasher: Sendable {
    /// scrypt's CPU/memory cost N (a power of two).
    public var rounds: Int
    /// scrypt's block size r.
    public var blockSize: Int

    /// The production cost: N = 2^15, r = 8 (32 MB, tens of milliseconds a hash).
    public static let standard = PasswordHasher(rounds: 1 << 15, blockSize: 8)
    /// A cheap cost for tests, which register many accounts.
    public static let fastForTests = PasswordHasher(rounds: 1 << 10, blockSize: 8)

    /// Creates a hasher with the given cost.
    public init(rounds: Int, blockSize: Int) {
        self.rounds = rounds
        self.blockSize = blockSize
    }

    /// A new salted hash of `password`.
    func hash(_ password: String) throws -> String {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let key = try derive(password, salt: salt, rounds: rounds, blockSize: blockSize)
        return ["scrypt", String(rounds), String(blockSize), "1", salt.base64EncodedString(), key.base64EncodedString()]
            .joined(separator: "$")
    }

    /// Whether `password` matches a stored hash (compared in constant time).
    func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt",
              let rounds = Int(parts[1]), let blockSize = Int(parts[2]),
              let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
              let actual = try? derive(password, salt: salt, rounds: rounds, blockSize: blockSize),
              actual.count == expected.count
        else { return false }
        return zip(actual, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func derive(_ password: String, salt: Data, rounds: Int, blockSize: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Data(password.utf8), salt: salt, outputByteCount: 32,
            rounds: rounds, blockSize: blockSize, parallelism: 1)
        return key.withUnsafeBytes { Data($0) }
    }
}

/// Session tokens: random, sent once to the client, stored only as SHA-256 hashes.
enum SessionToken {
    /// A new random token (256 bits, base64url).
    static func make() -> String {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The hash under which a token is stored.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
