import Foundation
import NoteTakerSyncProtocol

/// Sealing kept note versions and files again after a rotation (docs/encryption.md §2.3):
/// which a device is handed, and which replacement the server takes. The server reads no more
/// of an envelope, or of a sealed file's header, than its data key's version.
public enum Resealing {
    /// The version of the data key an envelope names; 0 for fields that are not sealed (or
    /// name no whole version), which every key outranks.
    public static func keyVersion(_ fields: RecordFields) -> Int {
        guard fields.isSealed, let number = fields["$key"]?.number, number.rounded() == number, number >= 1, number < 1e9 else { return 0 }
        return Int(number)
    }

    /// Whether a version with `fields` is to be sealed again for a device that asks for those
    /// below key `below`.
    public static func needsSealing(_ fields: RecordFields, below: Int) -> Bool {
        keyVersion(fields) < below
    }

    /// Whether `new` may replace the kept version `old`: sealed, and with a newer data key
    /// than `old`'s. A version sealed with the newest key already is never replaced, so a
    /// replacement sent twice, or a late one, changes nothing.
    public static func accepts(replacing old: RecordFields, with new: RecordFields) -> Bool {
        new.isSealed && keyVersion(new) > keyVersion(old)
    }

    /// The version of the data key a sealed file's header names (`"NTF1"`, then the version
    /// as 4 bytes, big-endian: docs/encryption.md §5); 0 for a file that is not sealed.
    public static func keyVersion(fileHead head: some Collection<UInt8>) -> Int {
        let bytes = Array(head.prefix(8))
        guard bytes.count == 8, bytes.prefix(4).elementsEqual("NTF1".utf8) else { return 0 }
        return bytes.suffix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    /// Whether a sealed file with head `new` and `newSize` bytes may replace the stored one:
    /// sealed with a newer data key, and the same size (the same file sealed again has it).
    public static func acceptsFile(replacing old: some Collection<UInt8>, size oldSize: Int64, with new: some Collection<UInt8>, size newSize: Int64) -> Bool {
        keyVersion(fileHead: new) > keyVersion(fileHead: old) && newSize == oldSize
    }

    /// A place in the account's versions, in their order (note id, then change): where the
    /// next stretch starts.
    public struct Cursor: Sendable, Hashable {
        /// The note's id, as the storage keys it.
        public var recordId: String
        /// The version's change sequence (below zero for a version that moved here from
        /// another zone: ``SyncStorage/addVersions(account:recordId:_:quota:)``).
        public var sequence: Int64

        /// The cursor as a page's `next` spells it: `<id>.<sequence>`.
        public var text: String { "\(recordId).\(sequence)" }

        /// A cursor from its spelling; `nil` for anything a page did not write.
        public init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), id.key == parts[0],
                  parts[1].count <= 19, let sequence = Int64(parts[1]) else { return nil }
            self.init(recordId: id.key, sequence: sequence)
        }

        /// The place of one version.
        public init(recordId: String, sequence: Int64) {
            self.recordId = recordId
            self.sequence = sequence
        }
    }

    /// A kept version as the storage reads it.
    public struct Stored: Sendable {
        /// Where it is in the account's versions.
        public var cursor: Cursor
        /// Its fields, as JSON.
        public var fields: String
    }

    /// What a replacement came to.
    public enum Replacement: Sendable, Equatable {
        /// The version holds the new envelope.
        case replaced
        /// ``accepts(replacing:with:)`` refused it; nothing changed.
        case refused
        /// The account keeps no such version (its note was purged, or the version thinned out).
        case notFound
    }
}
