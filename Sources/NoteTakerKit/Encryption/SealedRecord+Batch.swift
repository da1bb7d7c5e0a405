import Crypto
import Foundation

/// Records of a shared zone signed a batch at a time (docs/sharing.md §4.1): one Ed25519
/// signature of the root of a Merkle tree of the batch's records, and in each record the way
/// from its leaf to that root, so that a device checks one signature for a whole batch.
extension SealedRecord {
    /// A record's place in its batch's tree and its audit path (`$path`).
    public struct BatchPath: Sendable, Hashable {
        /// The record's index in the batch, and the batch's number of records.
        public var index: Int, size: Int
        /// The audit path (RFC 9162 §2.1.3.1), nearest the leaf first.
        public var hashes: [Data]

        /// A path; ``MerkleTree/root(ofLeaf:at:size:path:)`` tells whether it folds.
        public init(index: Int, size: Int, hashes: [Data]) {
            self.index = index
            self.size = size
            self.hashes = hashes
        }

        /// `uint64be(index) ‖ uint64be(size) ‖ hashes`.
        public var bytes: Data {
            var bytes = Data(capacity: 16 + 32 * hashes.count)
            bytes.appendBigEndian(index)
            bytes.appendBigEndian(size)
            for hash in hashes { bytes.append(hash) }
            return bytes
        }

        /// Reads a path's bytes: 16 + 32·m of them with m ≤ 16, an index below the size, a
        /// size from 1 to ``MerkleTree/maxSize``; else `nil`.
        public init?(bytes: Data) {
            let bytes = [UInt8](bytes)
            guard bytes.count >= 16, (bytes.count - 16) % 32 == 0, (bytes.count - 16) / 32 <= 16 else { return nil }
            func number(at start: Int) -> UInt64 { bytes[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) } }
            let (index, size) = (number(at: 0), number(at: 8))
            guard size >= 1, size <= UInt64(MerkleTree.maxSize), index < size else { return nil }
            self.init(index: Int(index), size: Int(size), hashes: stride(from: 16, to: bytes.count, by: 32).map { Data(bytes[$0..<$0 + 32]) })
        }
    }

    /// The record's leaf in its batch's tree:
    /// `SHA-256(0x00 ‖ "notetaker v1 record leaf|" ‖ aad ‖ 0x00 ‖ sealed)`.
    public func leafHash(for address: Address) -> Data {
        var hash = SHA256()
        hash.update(data: Self.leafPrefix)
        hash.update(data: address.associatedData(keyVersion: keyVersion))
        hash.update(data: [0])
        hash.update(data: sealed)
        return Data(hash.finalize())
    }

    private static let leafPrefix = [UInt8](repeating: 0, count: 1) + Array("notetaker v1 record leaf|".utf8)

    /// What a batch's `$sig` signs: `"notetaker v1 batch signature|" ‖ root ‖ uint64be(size)`.
    public static func batchSignedBytes(root: Data, size: Int) -> Data {
        var bytes = Data("notetaker v1 batch signature|".utf8)
        bytes.append(root)
        bytes.appendBigEndian(size)
        return bytes
    }

    /// `records`, a batch in the order it is sent, each with its address, signed once by
    /// `author` with the Ed25519 private key whose 32-byte seed is `signingKey`: the same
    /// `$sig` in each, and each its own `$path`. A batch of one is signed the same way.
    public static func signedBatch(
        _ records: [(record: SealedRecord, address: Address)], by author: String, signingKey: Data
    ) throws(EncryptionError) -> [SealedRecord] {
        guard !records.isEmpty, records.count <= MerkleTree.maxSize else { throw .malformed }
        let (root, paths) = MerkleTree.build(records.map { $0.record.leafHash(for: $0.address) })
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: signingKey),
              let signature = try? key.signature(for: batchSignedBytes(root: root, size: records.count))
        else { throw .malformed }
        return records.enumerated().map { index, item in
            var signed = item.record
            signed.signed = (author.lowercased(), signature)
            signed.batchPath = BatchPath(index: index, size: records.count, hashes: paths[index])
            return signed
        }
    }

    /// The bytes this record's `$sig` must verify over for `address`: the batch's, from the
    /// root its `$path` folds into, or ``signedBytes(for:)`` for a record signed alone; `nil`
    /// when its path does not fold.
    public func signatureMessage(for address: Address) -> Data? {
        guard let batchPath else { return signedBytes(for: address) }
        return MerkleTree.root(ofLeaf: leafHash(for: address), at: batchPath.index, size: batchPath.size, path: batchPath.hashes)
            .map { Self.batchSignedBytes(root: $0, size: batchPath.size) }
    }
}

extension Data {
    /// Appends `value` as 8 bytes, big-endian (`uint64be` in docs/sharing.md §4.1).
    fileprivate mutating func appendBigEndian(_ value: Int) {
        Swift.withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).bigEndian) { append(contentsOf: $0) }
    }
}
