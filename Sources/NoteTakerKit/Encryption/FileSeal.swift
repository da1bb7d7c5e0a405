import Crypto
import Foundation

/// A file sealed in chunks with the STREAM construction (docs/encryption.md §5): a 40-byte
/// header, then each chunk sealed with its index and a last-chunk flag in the nonce, so that
/// reordered, dropped or truncated chunks and a file swapped for another are all caught. Works
/// a chunk at a time: a 250 MB file is never in memory.
public struct FileSeal: Sendable {
    /// The plaintext bytes of each chunk but the last.
    public static let chunkSize = 65_536
    /// The header's length: "NTF1", the key version, the salt.
    public static let headerSize = 40

    // SymmetricKey is not Sendable: its bytes are kept, and the key made from them when used.
    private let keyBytes: Data
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }
    private let associatedData: Data
    /// The header to store before the sealed chunks.
    public let header: Data

    /// A sealer for a new file at `address`, under version `keyVersion` of the zone's data key
    /// (the salt is random unless given, for the vectors).
    public init(zone: String, zoneKey: SymmetricKey, keyVersion: Int, address: String,
                salt: Data = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })) {
        keyBytes = Self.fileKey(zoneKey, salt: salt).withUnsafeBytes { Data($0) }
        associatedData = Data("notetaker v1 file|\(zone)|\(keyVersion)|\(address)".utf8)
        header = Data("NTF1".utf8) + withUnsafeBytes(of: UInt32(keyVersion).bigEndian) { Data($0) } + salt
    }

    /// An opener for a stored file whose `header` was read: the key version it names, which
    /// the caller's `zoneKey` must be.
    public init(opening header: Data, zone: String, zoneKey: SymmetricKey, address: String) throws(EncryptionError) {
        guard header.count == Self.headerSize, header.prefix(4) == Data("NTF1".utf8) else { throw .notAuthentic }
        let version = header.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | Int($1) }
        self.init(zone: zone, zoneKey: zoneKey, keyVersion: version, address: address, salt: Data(header.suffix(32)))
    }

    /// The key version the header names.
    public var keyVersion: Int { header.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | Int($1) } }

    /// Seals chunk `index` (at most `chunkSize` bytes); `last` for the final one, which may be empty.
    public func seal(_ chunk: Data, index: UInt64, last: Bool) throws(EncryptionError) -> Data {
        do {
            let box = try AES.GCM.seal(chunk, using: key, nonce: try Self.nonce(index, last: last), authenticating: associatedData)
            return Data(box.ciphertext) + Data(box.tag)
        } catch {
            throw .malformed
        }
    }

    /// Opens sealed chunk `index`; `last` must say whether the stored file ends with it.
    public func open(_ sealed: Data, index: UInt64, last: Bool) throws(EncryptionError) -> Data {
        guard sealed.count >= 16 else { throw .notAuthentic }
        do {
            let box = try AES.GCM.SealedBox(nonce: try Self.nonce(index, last: last), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            return Data(try AES.GCM.open(box, using: key, authenticating: associatedData))
        } catch {
            throw .notAuthentic
        }
    }

    private static func nonce(_ index: UInt64, last: Bool) throws -> AES.GCM.Nonce {
        try AES.GCM.Nonce(data: withUnsafeBytes(of: index.bigEndian) { Data($0) } + withUnsafeBytes(of: UInt32(last ? 1 : 0).bigEndian) { Data($0) })
    }

    private static func fileKey(_ zoneKey: SymmetricKey, salt: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: zoneKey, salt: salt, info: Data("notetaker v1 file key".utf8), outputByteCount: 32)
    }
}
