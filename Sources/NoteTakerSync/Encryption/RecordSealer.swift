import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// What the sync engine seals its records and files with and opens them by: a zone's keys.
/// ``RecordSealing`` for the account's private zone, ``ZoneRecordSealing`` for a shared one
/// (docs/sharing.md §4); the engine keeps the revisions it checks, either way.
public protocol RecordSealer: Sendable {
    /// The zone sealed for, lowercase (the private zone's name for the account's own).
    var zone: String { get }
    /// The newest key version held: a record or answer naming a higher one makes the engine
    /// learn the zone's keys anew.
    var newestKeyVersion: Int { get }
    /// How many members records are held (none in the private zone): a record naming one not
    /// held makes the engine learn the zone's keys anew; holding more, it opens the record again.
    var membersHeld: Int { get }
    /// The zone's data key of `version`; `nil` when not held.
    func dataKey(version: Int) -> SymmetricKey?
    /// The zone's id key, which files are addressed by; `nil` when no key is held.
    var idKey: SymmetricKey? { get }
    /// The envelope of a change, `fieldsJSON` (`{}` for a deletion) at `revision`, sealed for
    /// the record; as fields, and as the JSON the wire codec would write for them.
    func seal(fieldsJSON: String, recordType: String, recordId: UUID, revision: Int, salt: Data) throws -> (fields: RecordFields, json: String)
    /// The envelopes of a batch of changes, in order, each as ``seal(fieldsJSON:recordType:recordId:revision:salt:)``
    /// makes it; in a shared zone signed once for the whole batch (docs/sharing.md §4.1).
    func seal(batch changes: [RecordToSeal]) throws -> [(fields: RecordFields, json: String)]
    /// A saved record's fields, opened: its fields and revision, or why not (a revision below
    /// `seen` is a replay).
    func open(_ fields: RecordFields, recordType: String, recordId: UUID, seen: Int?) -> Result<(fields: RecordFields, revision: Int), RecordSealing.Refusal>
    /// Records from the server, opened in order as ``unseal(_:)`` opens each; in a shared zone
    /// a batch's signature is checked once for all of its records among them (§4.1).
    func unseal(page records: [SyncRecord]) -> [Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal>]
}

/// A change to seal: its fields as JSON (`{}` for a deletion), the record, the revision it is
/// sealed at, and its seal's 32 random bytes.
public struct RecordToSeal: Sendable {
    /// The fields as the wire codec writes them.
    public var fieldsJSON: String
    /// The record's kind and id.
    public var recordType: String, recordId: UUID
    /// The revision sealed in.
    public var revision: Int
    /// The seal's salt.
    public var salt: Data

    /// A change to seal.
    public init(fieldsJSON: String, recordType: String, recordId: UUID, revision: Int, salt: Data) {
        self.fieldsJSON = fieldsJSON
        self.recordType = recordType
        self.recordId = recordId
        self.revision = revision
        self.salt = salt
    }
}

extension RecordSealer {
    /// A record from the server, opened: its fields and revision, or why not. A deletion is
    /// taken as it comes, with the revision of its envelope when it has one that opens.
    public func unseal(_ record: SyncRecord) -> Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal> {
        Self.unsealed(record, opened: open(record.fields, recordType: record.recordType, recordId: record.recordId, seen: nil))
    }

    /// `record` as ``unseal(_:)`` takes it, its fields `opened`.
    static func unsealed(
        _ record: SyncRecord, opened: Result<(fields: RecordFields, revision: Int), RecordSealing.Refusal>
    ) -> Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal> {
        if record.deleted {
            guard case .success(let (_, revision)) = opened else { return .success(([:], nil)) }
            return .success(([:], revision))
        }
        return opened.map { ($0.fields, $0.revision) }
    }

    /// Each change sealed alone.
    public func seal(batch changes: [RecordToSeal]) throws -> [(fields: RecordFields, json: String)] {
        try changes.map { try seal(fieldsJSON: $0.fieldsJSON, recordType: $0.recordType, recordId: $0.recordId, revision: $0.revision, salt: $0.salt) }
    }

    /// Each record opened alone.
    public func unseal(page records: [SyncRecord]) -> [Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal>] {
        records.map(unseal)
    }
}

/// Files (docs/encryption.md §4, §5): the same rules in every zone.
extension RecordSealer {
    /// The address the server keeps a file under: keyed by the zone's id key from its SHA-256
    /// (`hash`, lowercase hex), so that the server cannot test whether the zone holds a known
    /// file; `nil` for a malformed hash.
    public func fileAddress(forHash hash: String) -> String? {
        let digits = Array(hash.utf8)
        guard digits.count == 64, let idKey else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return KeyedIdentity(idKey: idKey).fileAddress(contentSHA256: Data(bytes))
    }

    private func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Seals the file at `source` into `destination` for the server's `address`, with the
    /// newest data key, a chunk at a time.
    public func sealFile(at source: URL, to destination: URL, address: String) throws {
        let version = newestKeyVersion
        guard let key = dataKey(version: version) else { throw EncryptionError.malformed }
        try FileSeal.sealFile(at: source, to: destination, zone: zone, zoneKey: key, keyVersion: version, address: address)
    }

    /// Opens the sealed file at `source` (from the server's `address`) into `destination`,
    /// which must then have the SHA-256 `hash`; ``EncryptionError/notAuthentic`` (and nothing
    /// at `destination`) when it was changed, cut, or is another file.
    public func openFile(at source: URL, to destination: URL, address: String, hash: String) throws {
        let opened = try FileSeal.openFile(at: source, to: destination, zone: zone, address: address) { dataKey(version: $0) }
        guard opened == hash else {
            try? FileManager.default.removeItem(at: destination)
            throw EncryptionError.notAuthentic
        }
    }
}
