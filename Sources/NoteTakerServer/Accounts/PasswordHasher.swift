import Crypto
import _CryptoExtras
import Foundation
import NoteTakerSyncProtocol

/// Hashes passwords with scrypt and a random salt; only the hash is ever stored.
///
/// The stored form is `scrypt$N$r$p$salt$hash` (base64), so the cost can grow: a hash made at
/// a lower cost than the hasher's is still checked at its own, and replaced at the next
/// successful log-in (``needsUpgrade(_:)``).
public struct PasswordHasher: Sendable {
    /// scrypt's CPU/memory cost N (a power of two).
    public var rounds: Int
    /// scrypt's block size r.
    public var blockSize: Int
    /// scrypt's parallelization p (computed in turn here: time, not memory).
    public var parallelism: Int

    /// The production cost, at OWASP's current recommendation for scrypt in the form that
    /// needs 64 MiB: N = 2^16, r = 8, p = 2, which its cheat sheet lists as equal in defence
    /// to N = 2^17, r = 8, p = 1 (128 MiB) — the latter would take a server node past its
    /// 200 MB memory budget while it hashes. About 0.7 s a hash on this project's machines.
    public static let standard = PasswordHasher(rounds: 1 << 16, blockSize: 8, parallelism: 2)
    /// A cheap cost for tests, which register many accounts.
    public static let fastForTests = PasswordHasher(rounds: 1 << 10, blockSize: 8, parallelism: 1)

    /// Creates a hasher with the given cost.
    public init(rounds: Int, blockSize: Int, parallelism: Int = 1) {
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// A new salted hash of `password`.
    func hash(_ password: String) throws -> String {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let cost = Cost(rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        let key = try derive(password, salt: salt, cost: cost)
        return ["scrypt", String(rounds), String(blockSize), String(parallelism), salt.base64EncodedString(), key.base64EncodedString()]
            .joined(separator: "$")
    }

    /// Whether `password` matches a stored hash (compared in constant time).
    func verify(_ password: String, against stored: String) -> Bool {
        guard let (cost, salt, expected) = Self.parse(stored),
              let actual = try? derive(password, salt: salt, cost: cost),
              actual.count == expected.count
        else { return false }
        return zip(actual, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether a stored hash was made at a lower cost than this hasher's (or cannot be read),
    /// so that it should be made again from the password at the next successful log-in.
    func needsUpgrade(_ stored: String) -> Bool {
        guard let (cost, _, _) = Self.parse(stored) else { return true }
        return cost.work < Cost(rounds: rounds, blockSize: blockSize, parallelism: parallelism).work
    }

    /// scrypt's three parameters.
    private struct Cost {
        var rounds, blockSize, parallelism: Int

        /// The work a guess costs, in 128-byte block mixes: N · r · p.
        var work: Int { rounds * blockSize * parallelism }
    }

    /// A stored hash's parts, when it is one this hasher can check: within bounds (N up to
    /// 2^20, r up to 32, p up to 16), so a damaged row cannot make a log-in take minutes.
    private static func parse(_ stored: String) -> (Cost, Data, Data)? {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt",
              let rounds = Int(parts[1]), rounds > 1, rounds <= 1 << 20, rounds & (rounds - 1) == 0,
              let blockSize = Int(parts[2]), (1...32).contains(blockSize),
              let parallelism = Int(parts[3]), (1...16).contains(parallelism),
              let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5])
        else { return nil }
        return (Cost(rounds: rounds, blockSize: blockSize, parallelism: parallelism), salt, expected)
    }

    private func derive(_ password: String, salt: Data, cost: Cost) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Data(password.utf8), salt: salt, outputByteCount: 32,
            rounds: cost.rounds, blockSize: cost.blockSize, parallelism: cost.parallelism)
        return key.withUnsafeBytes { Data($0) }
    }
}

/// Session tokens: random, sent once to the client, stored only as SHA-256 hashes.
enum SessionToken {
    /// A new random token (256 bits, base64url).
    static func make() -> String {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        return Base64URL.encode(Data(bytes))
    }

    /// The hash under which a token is stored.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).lowercaseHex
    }
}
