import Crypto
import Foundation

/// The Merkle trees of RFC 9162 §2.1 over SHA-256, with which a device signs a batch of
/// records once (docs/sharing.md §4.1): the tree hash of a list of leaf hashes, each leaf's
/// audit path, and the root a path folds into.
public enum MerkleTree {
    /// The most leaves a tree may have (docs/sharing.md §4.1), so at most 16 hashes in a path.
    public static let maxSize = 65_536

    /// `SHA-256(0x01 ‖ left ‖ right)`: an interior node.
    static func node(_ left: Data, _ right: Data) -> Data {
        var hash = SHA256()
        hash.update(data: [1])
        hash.update(data: left)
        hash.update(data: right)
        return Data(hash.finalize())
    }

    /// The tree hash of `leaves` (RFC 9162 §2.1.1) and every leaf's audit path (§2.1.3.1),
    /// nearest the leaf first, in one pass up the tree: each level pairs its nodes from the
    /// left and lifts an odd last node as it is, which builds the same tree as the RFC's split
    /// at the largest power of two below the size. `leaves` must not be empty.
    public static func build(_ leaves: [Data]) -> (root: Data, paths: [[Data]]) {
        var paths = [[Data]](repeating: [], count: leaves.count)
        var level = leaves
        // The leaves under each node of the level, as a range of indices.
        var spans = leaves.indices.map { $0..<$0 + 1 }
        while level.count > 1 {
            var next: [Data] = [], nextSpans: [Range<Int>] = []
            next.reserveCapacity((level.count + 1) / 2)
            for left in stride(from: 0, to: level.count, by: 2) {
                let right = left + 1
                guard right < level.count else {
                    next.append(level[left])
                    nextSpans.append(spans[left])
                    continue
                }
                for leaf in spans[left] { paths[leaf].append(level[right]) }
                for leaf in spans[right] { paths[leaf].append(level[left]) }
                next.append(node(level[left], level[right]))
                nextSpans.append(spans[left].lowerBound..<spans[right].upperBound)
            }
            (level, spans) = (next, nextSpans)
        }
        return (level.first ?? Data(), paths)
    }

    /// The root that leaf `index` of a tree of `size` leaves, with hash `leaf`, folds into
    /// along `path` (RFC 9162 §2.1.3.2); `nil` when the path is not one such a leaf has (too
    /// long or too short for its place) or the place is not in the tree.
    public static func root(ofLeaf leaf: Data, at index: Int, size: Int, path: [Data]) -> Data? {
        guard index >= 0, index < size, size <= maxSize else { return nil }
        var (fn, sn, hash) = (index, size - 1, leaf)
        for sibling in path {
            guard sn > 0 else { return nil }
            if fn & 1 == 1 || fn == sn {
                hash = node(sibling, hash)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                hash = node(hash, sibling)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 ? hash : nil
    }
}
