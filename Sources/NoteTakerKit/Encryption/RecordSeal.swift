import Crypto
import Foundation

/// A record's fields sealed for the server (docs/encryption.md §3): the envelope that replaces
/// its `fields`, and how it is made and opened.
public struct SealedRecord: Sendable, Hashable {
    /// The format version; 1.
    public var version: Int
    /// The zone the record is filed in.
    public var zone: String
    /// The version of the zone's data key it was sealed with.
    public var keyVersion: Int
    /// The 32 random bytes its key was derived with.
    public var salt: Data
    /// The padded plaintext, sealed: ciphertext ‖ tag.
    public var sealed: Data
    /// In a shared zone (docs/sharing.md §4): the account that wrote the record, lowercased
    /// (`$by`), and its Ed25519 signature of the seal (`$sig`, ``signedBytes(for:)``); `nil`
    /// in the private zone.
    public var signed: (author: String, signature: Data)? {
        get { author.flatMap { author in signature.map { (author, $0) } } }
        set { (author, signature) = (newValue?.author, newValue?.signature) }
    }
    private var author: String?
    private var signature: Data?
    /// For a record signed with its batch (docs/sharing.md §4.1): its place in the batch's
    /// tree and its audit path (`$path`); then `$sig` signs the tree's root.
    public var batchPath: BatchPath?

    /// An envelope's parts, unsigned.
    public init(version: Int, zone: String, keyVersion: Int, salt: Data, sealed: Data) {
        self.version = version
        self.zone = zone
        self.keyVersion = keyVersion
        self.salt = salt
        self.sealed = sealed
    }

    /// The record a seal is for: what its associated data binds.
    public struct Address: Sendable, Hashable {
        /// The zone, the record's kind and its canonical id.
        public var zone: String, recordType: String, recordId: String

        /// Creates an address.
        public init(zone: String, recordType: String, recordId: String) {
            self.zone = zone
            self.recordType = recordType
            self.recordId = recordId
        }

        func associatedData(keyVersion: Int) -> Data {
            Data("notetaker v1 record|\(zone)|\(keyVersion)|\(recordType)|\(recordId)".utf8)
        }
    }

    /// Seals `plaintext` (the JSON of `{"fields": …, "rev": n}`) for `address` under version
    /// `keyVersion` of the zone's data key. The salt is random unless given (for the vectors).
    public static func seal(
        _ plaintext: Data, for address: Address, zoneKey: SymmetricKey, keyVersion: Int, salt: Data = randomSalts(1)[0]
    ) throws(EncryptionError) -> SealedRecord {
        let key = recordKey(zoneKey, salt: salt)
        do {
            let nonce = try AES.GCM.Nonce(data: Data(count: 12))
            let box = try AES.GCM.seal(Padme.pad(plaintext), using: key, nonce: nonce, authenticating: address.associatedData(keyVersion: keyVersion))
            var sealed = Data(capacity: box.ciphertext.count + box.tag.count)
            sealed.append(box.ciphertext)
            sealed.append(box.tag)
            return SealedRecord(version: 1, zone: address.zone, keyVersion: keyVersion, salt: salt, sealed: sealed)
        } catch {
            throw .malformed
        }
    }

    /// `count` salts of 32 random bytes for as many seals, drawn from the system's random
    /// generator at once (``SystemRandom``): one draw for a batch of records, where
    /// `SymmetricKey(size:)` makes four for each.
    public static func randomSalts(_ count: Int) -> [Data] {
        guard count > 0 else { return [] }
        let bytes = SystemRandom.bytes(32 * count)
        return (0..<count).map { bytes.subdata(in: $0 * 32..<($0 + 1) * 32) }
    }

    /// Opens the envelope for `address` with `zoneKey`, which must be version `keyVersion` of
    /// the zone's data key; returns the plaintext. A record moved to another id, kind or zone,
    /// or changed in any byte, is `notAuthentic`.
    public func open(for address: Address, zoneKey: SymmetricKey) throws(EncryptionError) -> Data {
        guard version == 1 else { throw .unknownVersion(version) }
        guard zone == address.zone, salt.count == 32, sealed.count >= 16 else { throw .notAuthentic }
        let padded: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: Data(count: 12)), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            padded = try AES.GCM.open(box, using: Self.recordKey(zoneKey, salt: salt), authenticating: address.associatedData(keyVersion: keyVersion))
        } catch {
            throw .notAuthentic
        }
        return try Padme.unpad(padded)
    }

    /// The key of one seal: HKDF-SHA256 (RFC 5869) of the zone key with the seal's salt and
    /// "notetaker v1 record key", 32 bytes (docs/encryption.md §3.2). Its output is one block,
    /// so it is written as HKDF's two HMACs: extract, `PRK = HMAC(salt, ZK)`, then expand's one
    /// block, `HMAC(PRK, info ‖ 0x01)`; the same bytes as `HKDF<SHA256>.deriveKey` (tested),
    /// at half its cost, which every record sealed or opened pays.
    static func recordKey(_ zoneKey: SymmetricKey, salt: Data) -> SymmetricKey {
        let pseudoRandomKey = zoneKey.withUnsafeBytes { HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: salt)) }
        return SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: recordKeyBlockInfo, using: SymmetricKey(data: pseudoRandomKey)))
    }

    /// HKDF's `info ‖ 0x01` for a record key: its first and only block.
    private static let recordKeyBlockInfo = Array("notetaker v1 record key".utf8) + [1]
}
