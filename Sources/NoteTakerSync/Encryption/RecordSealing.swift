import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// How a device seals the records it sends and opens those it receives, for an account with
/// end-to-end encryption (docs/encryption.md §3): a pure value over the account's keys; the
/// sync engine keeps the revisions it checks.
public struct RecordSealing: RecordSealer {
    /// The account's keys.
    public let keyring: AccountKeyring
    /// The zone the records are filed in.
    public var zone: String { AccountKeyring.privateZone }

    /// Seals records with `keyring`'s newest data key, and opens them with any of its keys.
    public init(keyring: AccountKeyring) {
        self.keyring = keyring
    }

    /// Why a record from the server was not opened: each is held in quarantine with its
    /// ``reason``, never applied.
    public enum Refusal: Error, Sendable, Equatable {
        /// Sealed by a format version this build does not know.
        case newerFormat
        /// Sealed with a key version (or in a zone) this device does not hold.
        case missingKey
        /// The tag did not verify: changed on the server, or moved from another record.
        case notAuthentic
        /// Authentic, but its padding or content is malformed.
        case unreadable
        /// An older revision than one this device has seen: a replay.
        case replayed(revision: Int, seen: Int)
        /// Plaintext fields, in an account whose records are all sealed.
        case notSealed
        /// Opened, but refused by a shared zone's checks (docs/sharing.md §4).
        indirect case shared(ZoneRecordSealing.Refusal)

        /// Why, as the quarantine keeps it and `sync status` shows it.
        public var reason: String {
            switch self {
            case .newerFormat: "It was sealed by a newer NoteTaker; update this device."
            case .missingKey: "It was sealed with a key this device does not have; a newer version sealed with one it has replaces it."
            case .notAuthentic: "It could not be decrypted: it was changed on the server, or moved from another record."
            case .unreadable: "It could not be read after decryption."
            case .replayed(let revision, let seen):
                "An older version of this record came back from the server (revision \(revision), this device has seen \(seen)); it was not applied."
            case .notSealed: "It was not encrypted, so it could have been written by the server; it was not applied."
            case .shared(let refusal): refusal.reason
            }
        }
    }

    /// The envelope of a change: `fieldsJSON` (the fields as the wire codec writes them, `{}`
    /// for a deletion) at revision `revision`, sealed for the record; as fields, and as the
    /// JSON the wire codec would write for them.
    ///
    /// `salt` is the seal's 32 random bytes, drawn here unless given (a batch draws its
    /// records' at once: ``SealedRecord/randomSalts(_:)``).
    public func seal(
        fieldsJSON: String, recordType: String, recordId: UUID, revision: Int, salt: Data = SealedRecord.randomSalts(1)[0]
    ) throws(EncryptionError) -> (fields: RecordFields, json: String) {
        let plaintext = Data("{\"fields\":\(fieldsJSON),\"rev\":\(revision)}".utf8)
        let version = keyring.newestVersion
        guard let key = keyring.dataKey(version: version) else { throw .malformed }
        return try SealedRecord.seal(plaintext, for: address(recordType, recordId), zoneKey: key, keyVersion: version, salt: salt).envelope
    }

    /// Opens a saved record's fields: its fields and revision, or why not. A revision lower
    /// than `seen` (the highest this device has seen of the record) is a replay.
    public func open(_ fields: RecordFields, recordType: String, recordId: UUID, seen: Int?) -> Result<(fields: RecordFields, revision: Int), Refusal> {
        Self.open(fields, for: address(recordType, recordId), seen: seen) { keyring.dataKey(version: $0) }.flatMap { opened in
            // A private record names no writer: one that does was moved from a shared zone.
            opened.envelope.signed == nil ? .success((opened.fields, opened.revision)) : .failure(.notAuthentic)
        }
    }

    /// Opens sealed `fields` for `address` with the zone's data key of each version `key`
    /// answers (`nil`: not held): the envelope, its fields and revision, and the members epoch
    /// it names (in a shared zone); or why not, a revision below `seen` a replay. The one
    /// opening of a record, for every zone.
    static func open(
        _ fields: RecordFields, for address: SealedRecord.Address, seen: Int?, key: (Int) -> SymmetricKey?
    ) -> Result<(envelope: SealedRecord, fields: RecordFields, revision: Int, epoch: Int?), Refusal> {
        guard fields.isSealed else { return .failure(.notSealed) }
        let envelope: SealedRecord
        let plaintext: Data
        do {
            envelope = try SealedRecord(fields: fields)
            guard envelope.version == 1 else { return .failure(.newerFormat) }
            guard envelope.zone == address.zone, let key = key(envelope.keyVersion) else { return .failure(.missingKey) }
            plaintext = try envelope.open(for: address, zoneKey: key)
        } catch .malformed {
            return .failure(.unreadable)
        } catch {
            return .failure(.notAuthentic)
        }
        guard let (opened, revision, epoch) = read(plaintext) else { return .failure(.unreadable) }
        if let seen, revision < seen { return .failure(.replayed(revision: revision, seen: seen)) }
        return .success((envelope, opened, revision, epoch))
    }

    /// The newest data key's version.
    public var newestKeyVersion: Int { keyring.newestVersion }
    /// None: the private zone has no members.
    public var membersHeld: Int { 0 }
    /// The account's data key of `version`.
    public func dataKey(version: Int) -> SymmetricKey? { keyring.dataKey(version: version) }
    /// The account's id key.
    public var idKey: SymmetricKey? { keyring.idKey }

    private func address(_ recordType: String, _ recordId: UUID) -> SealedRecord.Address {
        SealedRecord.Address(zone: zone, recordType: recordType, recordId: recordId.key)
    }

    /// The fields and revision of a plaintext, `{"fields": …, "rev": n}`, and in a shared zone
    /// the members epoch its writer saw (`"epoch": e`, docs/sharing.md §4); `nil` when malformed.
    static func read(_ plaintext: Data) -> (fields: RecordFields, revision: Int, epoch: Int?)? {
        var fields: RecordFields?
        var revision: Int?
        var epoch: Int?
        do {
            try WireReader.read(Array(plaintext)) { (reader: inout WireReader) throws(WireJSONError) in
                try reader.object { (reader: inout WireReader, name: String) throws(WireJSONError) in
                    switch name {
                    case "fields": fields = try RecordFields(reading: &reader)
                    case "rev": revision = Self.count(try reader.number())
                    case "epoch": epoch = Self.count(try reader.number())
                    default: try reader.skip()
                    }
                }
            }
        } catch {
            return nil
        }
        guard let fields, let revision, !fields.isSealed else { return nil }
        return (fields, revision, epoch)
    }

    /// A whole number from 1 below 10^15, without trapping on outside data.
    private static func count(_ number: Double) -> Int? {
        number.rounded() == number && number >= 1 && number < 1e15 ? Int(number) : nil
    }
}
