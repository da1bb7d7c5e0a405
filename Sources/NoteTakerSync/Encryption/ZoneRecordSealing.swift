import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// How a member's device seals the records it writes in a shared zone and checks those it
/// receives (docs/sharing.md §4): sealed as the private zone's are, with the zone's keys,
/// signed by the writing account, and taken only from an owner or editor of the members
/// record its writer saw, whose signing key is the one this device keeps. A pure value; the
/// sync engine keeps the revisions, members records and keys it is made from.
public struct ZoneRecordSealing: RecordSealer {
    /// The zone, lowercase.
    public let zone: String
    /// This device's account, lowercased, and its identity key pairs (it signs with them).
    let account: String
    let identity: IdentityKeyPairs
    /// The zone's keys this device holds, by version.
    let keys: [Int: ZoneKeys]
    /// The members records this device accepted, by epoch.
    let members: [Int: ShareMembers]
    /// Each account's public keys as this device first met them (§2), by account.
    let kept: [String: AccountIdentity]

    /// A zone's sealing for `account`, with the keys and members records this device holds.
    public init(
        zone: String, account: String, identity: IdentityKeyPairs, keys: [ZoneKeys], members: [ShareMembers], kept: [String: AccountIdentity]
    ) {
        self.zone = zone
        self.account = account.lowercased()
        self.identity = identity
        self.keys = Dictionary(keys.filter { $0.zone == zone }.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        self.members = Dictionary(members.filter { $0.zone == zone }.map { ($0.epoch, $0) }, uniquingKeysWith: { first, _ in first })
        self.kept = kept
    }

    /// Why a record of the zone was not applied.
    public enum Refusal: Error, Sendable, Equatable {
        /// Not opened, as a private record would not be (``RecordSealing/Refusal``).
        case record(RecordSealing.Refusal)
        /// Its writer saw a members record this device does not hold yet: it waits, unapplied,
        /// until the device has fetched it.
        case waitingForMembers(epoch: Int)
        /// Its writer was not an owner or editor in the members record it names.
        case notAnEditor(String)
        /// Its writer's signing key in that record is not the one this device keeps.
        case authorKeysChanged(String)
        /// It has no signature, or one that does not verify.
        case badSignature

        /// Why, as the quarantine keeps it and `sync status` shows it.
        public var reason: String {
            switch self {
            case .record(let refusal): refusal.reason
            case .waitingForMembers(let epoch): "It waits for the share's members at change \(epoch), which this device has not fetched yet."
            case .notAnEditor(let author): "It was written by \(author), who may not edit this shared folder; it was not applied."
            case .authorKeysChanged(let author): "Its author's keys changed (\(author)): compare safety numbers with them again; it was not applied."
            case .badSignature: "Its signature does not verify: it was not written by the member it names; it was not applied."
            }
        }
    }

    /// A record of the zone, opened and checked.
    public struct Opened: Sendable, Equatable {
        /// Its fields and revision.
        public var fields: RecordFields, revision: Int
        /// The account that wrote it, and the members epoch it saw then.
        public var author: String, epoch: Int
    }

    /// Why this device may not write in the zone now: it is no owner or editor of the newest
    /// members record it holds, or holds no key.
    public enum WriteRefusal: Error, Sendable, Equatable {
        /// This account is a viewer of the zone, or no longer a member.
        case mayNotWrite
        /// This device holds none of the zone's keys.
        case noKey
    }

    /// The envelope of a change by this account: `fieldsJSON` at revision `revision`, sealed
    /// with the key version the newest members record names, naming its epoch, signed. Never
    /// with an older key: after a removal, a device that did not get the new key writes
    /// nothing (``WriteRefusal/noKey``) rather than seal for the removed member too. `salt` as
    /// ``RecordSealing/seal(fieldsJSON:recordType:recordId:revision:salt:)``.
    public func seal(
        fieldsJSON: String, recordType: String, recordId: UUID, revision: Int, salt: Data = SealedRecord.randomSalts(1)[0]
    ) throws(WriteRefusal) -> (fields: RecordFields, json: String) {
        let change = RecordToSeal(fieldsJSON: fieldsJSON, recordType: recordType, recordId: recordId, revision: revision, salt: salt)
        let (sealed, address) = try unsigned(change, writing: try writing())
        do {
            return try sealed.signed(by: account, signingKey: identity.signingBytes, for: address).envelope
        } catch {
            throw .noKey
        }
    }

    /// The envelopes of a batch of changes by this account, each sealed as
    /// ``seal(fieldsJSON:recordType:recordId:revision:salt:)`` seals one, signed once for the
    /// batch (docs/sharing.md §4.1).
    public func seal(batch changes: [RecordToSeal]) throws(WriteRefusal) -> [(fields: RecordFields, json: String)] {
        guard !changes.isEmpty else { return [] }
        let writing = try writing()
        var sealed: [(record: SealedRecord, address: SealedRecord.Address)] = []
        sealed.reserveCapacity(changes.count)
        for change in changes { sealed.append(try unsigned(change, writing: writing)) }
        do {
            return try SealedRecord.signedBatch(sealed, by: account, signingKey: identity.signingBytes).map(\.envelope)
        } catch {
            throw .noKey
        }
    }

    /// The members epoch and zone key this account writes with: the newest members record's,
    /// where it must be an owner or editor.
    private func writing() throws(WriteRefusal) -> (epoch: Int, version: Int, key: ZoneKeys) {
        guard let newest = members.keys.max(), let record = members[newest],
              let role = record.member(account)?.role, role == .owner || role == .editor else { throw .mayNotWrite }
        guard let key = keys[record.keyVersion] else { throw .noKey }
        return (newest, record.keyVersion, key)
    }

    /// `change` sealed (not signed) at the epoch and with the key of `writing`.
    private func unsigned(
        _ change: RecordToSeal, writing: (epoch: Int, version: Int, key: ZoneKeys)
    ) throws(WriteRefusal) -> (record: SealedRecord, address: SealedRecord.Address) {
        let plaintext = Data("{\"epoch\":\(writing.epoch),\"fields\":\(change.fieldsJSON),\"rev\":\(change.revision)}".utf8)
        let address = address(change.recordType, change.recordId)
        do {
            return (try SealedRecord.seal(plaintext, for: address, zoneKey: writing.key.dataKey, keyVersion: writing.version, salt: change.salt), address)
        } catch {
            throw .noKey
        }
    }

    /// A saved record of the zone, opened and checked, in the order of docs/sharing.md §4:
    /// the seal (as the private zone's, a revision below `seen` a replay), then the members
    /// record of the epoch it names, its writer's role there, the signature with the key
    /// that record lists, and that key against the one this device keeps.
    public func check(_ fields: RecordFields, recordType: String, recordId: UUID, seen: Int?) -> Result<Opened, Refusal> {
        var verified = VerifiedBatches()
        return check(fields, recordType: recordType, recordId: recordId, seen: seen, verified: &verified)
    }

    /// Batch signatures that verified (§4.1), each the signing key, the signature and the bytes
    /// it signs: a batch's other records need no Ed25519 check of their own.
    public struct VerifiedBatches: Sendable {
        var signatures: Set<Data> = []

        /// None yet.
        public init() {}
    }

    /// ``check(_:recordType:recordId:seen:)``, a batch's signature verified once for every
    /// record of it checked with the same `verified`.
    public func check(
        _ fields: RecordFields, recordType: String, recordId: UUID, seen: Int?, verified: inout VerifiedBatches
    ) -> Result<Opened, Refusal> {
        let address = address(recordType, recordId)
        let (envelope, opened, revision, named): (SealedRecord, RecordFields, Int, Int?)
        switch RecordSealing.open(fields, for: address, seen: seen, key: { keys[$0]?.dataKey }) {
        case .success(let result): (envelope, opened, revision, named) = result
        case .failure(let refusal): return .failure(.record(refusal))
        }
        guard let epoch = named else { return .failure(.record(.unreadable)) }
        guard let (author, _) = envelope.signed else { return .failure(.badSignature) }
        guard let record = members[epoch] else { return .failure(.waitingForMembers(epoch: epoch)) }
        guard let writer = record.member(author), writer.role == .owner || writer.role == .editor else { return .failure(.notAnEditor(author)) }
        guard let signing = Base64URL.decode(writer.signing), Self.verifies(envelope, for: address, signingKey: signing, verified: &verified) else {
            return .failure(.badSignature)
        }
        // The members record is its owner's word; a key kept from before must agree with it.
        if let known = kept[author], known.signing != writer.signing { return .failure(.authorKeysChanged(author)) }
        return .success(Opened(fields: opened, revision: revision, author: author, epoch: epoch))
    }

    /// Whether `envelope`'s signature verifies for `address` with `signingKey`; a batch's
    /// (its path folded into the root) remembered in `verified` once it has.
    private static func verifies(_ envelope: SealedRecord, for address: SealedRecord.Address, signingKey: Data, verified: inout VerifiedBatches) -> Bool {
        guard envelope.batchPath != nil, let (_, signature) = envelope.signed, let message = envelope.signatureMessage(for: address) else {
            return envelope.signatureVerifies(for: address, signingKey: signingKey)
        }
        let known = signingKey + signature + message
        if verified.signatures.contains(known) { return true }
        guard envelope.signatureVerifies(for: address, signingKey: signingKey) else { return false }
        verified.signatures.insert(known)
        return true
    }

    // MARK: As the sync engine's sealer

    /// The key version new records and files are sealed with: the one the newest members
    /// record names (held or not: without it, nothing is sealed), else the newest held.
    public var newestKeyVersion: Int { members.keys.max().flatMap { members[$0]?.keyVersion } ?? keys.keys.max() ?? 0 }

    /// How many members records are held.
    public var membersHeld: Int { members.count }

    /// A record of the zone, opened and checked (``check(_:recordType:recordId:seen:)``), as
    /// the engine takes it: a refusal of the seal as the private zone's, the zone's own as
    /// ``RecordSealing/Refusal/shared(_:)``.
    public func open(_ fields: RecordFields, recordType: String, recordId: UUID, seen: Int?) -> Result<(fields: RecordFields, revision: Int), RecordSealing.Refusal> {
        opened(check(fields, recordType: recordType, recordId: recordId, seen: seen))
    }

    /// Records from the server, opened in order, a batch's signature checked once for all of
    /// its records among them (§4.1).
    public func unseal(page records: [SyncRecord]) -> [Result<(fields: RecordFields, revision: Int?), RecordSealing.Refusal>] {
        var verified = VerifiedBatches()
        return records.map { record in
            Self.unsealed(record, opened: opened(check(record.fields, recordType: record.recordType, recordId: record.recordId, seen: nil, verified: &verified)))
        }
    }

    /// A record checked, as the engine takes it.
    private func opened(_ checked: Result<Opened, Refusal>) -> Result<(fields: RecordFields, revision: Int), RecordSealing.Refusal> {
        switch checked {
        case .success(let opened): .success((Self.naming(opened.author, in: opened.fields, for: account), opened.revision))
        case .failure(.record(let refusal)): .failure(refusal)
        case .failure(let refusal): .failure(.shared(refusal))
        }
    }

    /// `fields` naming `author`, the account whose signature was checked, when it is not
    /// `account` (this device's): whatever the writer put under that name inside is replaced.
    static func naming(_ author: String, in fields: RecordFields, for account: String) -> RecordFields {
        var named = fields
        named[RecordFields.writerKey] = author == account ? nil : .string(author)
        return named
    }

    /// The zone's data key of `version`.
    public func dataKey(version: Int) -> SymmetricKey? { keys[version]?.dataKey }

    /// The zone's id key.
    public var idKey: SymmetricKey? { keys.keys.max().flatMap { keys[$0]?.idKey } }

    private func address(_ recordType: String, _ recordId: UUID) -> SealedRecord.Address {
        SealedRecord.Address(zone: zone, recordType: recordType, recordId: recordId.key)
    }
}
