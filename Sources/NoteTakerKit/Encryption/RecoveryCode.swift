import Crypto
import Foundation

/// The recovery key as people write it down (docs/encryption.md §2.2): the 32 key bytes and
/// two checksum bytes in Crockford's base32, 55 characters in groups of five.
public struct RecoveryCode: Sendable, Equatable {
    /// The recovery key's 32 bytes (SymmetricKey is not Sendable).
    private let keyBytes: Data
    /// The recovery key.
    public var key: SymmetricKey { SymmetricKey(data: keyBytes) }
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new random recovery key.
    public init() {
        self.init(key: SymmetricKey(size: .bits256))
    }

    /// The recovery key `key`.
    public init(key: SymmetricKey) {
        keyBytes = key.withUnsafeBytes { Data($0) }
    }

    /// Reads a code as typed: case, spaces and hyphens do not matter, and I, L and O are read
    /// as 1, 1 and 0, as Crockford's base32 says.
    public init(code: String) throws(EncryptionError) {
        var bits = [UInt8]()
        bits.reserveCapacity(55 * 5)
        for character in code.uppercased() where character != "-" && !character.isWhitespace {
            let normalized: Character = switch character { case "I", "L": "1"; case "O": "0"; default: character }
            guard let value = Self.alphabet.firstIndex(of: normalized) else { throw .badRecoveryCode }
            for shift in stride(from: 4, through: 0, by: -1) { bits.append(UInt8((value >> shift) & 1)) }
        }
        guard bits.count == 55 * 5 else { throw .badRecoveryCode }
        var bytes = [UInt8](repeating: 0, count: 34)
        for index in 0..<(34 * 8) where bits[index] == 1 { bytes[index / 8] |= 0x80 >> (index % 8) }
        let key = Array(bytes[0..<32])
        guard Array(SHA256.hash(data: key).prefix(2)) == Array(bytes[32..<34]) else { throw .badRecoveryCode }
        keyBytes = Data(key)
    }

    /// The code to show once: `XXXXX-XXXXX-…`.
    public var code: String {
        let key = self.key.withUnsafeBytes { Array($0) }
        let bytes = key + Array(SHA256.hash(data: key).prefix(2))
        var symbols = [Character]()
        for group in 0..<55 {
            var value = 0
            for bit in 0..<5 {
                let index = group * 5 + bit
                let set = index < bytes.count * 8 && bytes[index / 8] & (0x80 >> (index % 8)) != 0
                value = value << 1 | (set ? 1 : 0)
            }
            symbols.append(Self.alphabet[value])
        }
        return stride(from: 0, to: 55, by: 5).map { String(symbols[$0..<$0 + 5]) }.joined(separator: "-")
    }

    /// The key that wraps the account key for recovery.
    public var keyEncryptionKey: SymmetricKey {
        KeyDerivation.expand(key, "notetaker v1 recovery key-encryption key")
    }

    /// The secret the server checks for a recovery, in the password's place (§2.5): it opens
    /// nothing, and the key-encryption key cannot be had from it.
    public var recoverySecret: SymmetricKey {
        KeyDerivation.expand(key, "notetaker v1 recovery login secret")
    }
}
