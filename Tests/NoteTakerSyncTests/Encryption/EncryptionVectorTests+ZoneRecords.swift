import Foundation
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerKit
@testable import NoteTakerSync

/// docs/sharing.md §4 against the vectors: a note Bob, an editor, wrote in Ada's shared zone,
/// sealed with the zone's key and signed by him; then what a server, a viewer or a removed
/// member might send instead, each held with its reason.
extension EncryptionVectorTests {
    /// The zone's members at epoch 2 (Ada owner, Bob editor), its keys, and Bob's key pairs.
    func zoneParties() throws -> (members: ShareMembers, keys: ZoneKeys, bob: IdentityKeyPairs) {
        let box = try vector("zone_key_box")
        let members = try #require(try signedMembers().signed.decoded())
        let keys = ZoneKeys(zone: members.zone, version: 1, dataKey: try bytes(box["dataKey"]), idKey: try bytes(box["idKey"]))
        let bob = try IdentityKeyPairs(agreement: try bytes(box["bobAgreementPrivate"]), signing: try bytes(vector("zone_record")["bobSigningPrivate"]))
        return (members, keys, bob)
    }

    /// The vector's envelope as a record's fields.
    private func zoneEnvelope() throws -> RecordFields { try recordFields(try vector("zone_record")["envelope"]) }

    /// A vector's envelope (a JSON object) as a record's fields.
    func recordFields(_ object: Any?) throws -> RecordFields {
        let json = try JSONSerialization.data(withJSONObject: try #require(object), options: [.sortedKeys])
        return try JSONDecoder().decode(RecordFields.self, from: json)
    }

    @Test func zoneRecord() throws {
        let v = try vector("zone_record")
        let (members, keys, bob) = try zoneParties()
        #expect(members.member("bob")?.identity == bob.identity, "the vectors' Bob")
        let idText = try #require(v["recordId"] as? String)
        let recordId = try #require(UUID(uuidString: idText))
        let ada = ZoneRecordSealing(zone: members.zone, account: "ada", identity: try ada(), keys: [keys], members: [members], kept: ["bob": bob.identity])
        let fields = try zoneEnvelope()

        // Opened by Ada: Bob's note, at his revision, with the epoch he saw.
        let opened = try ada.check(fields, recordType: "note", recordId: recordId, seen: nil).get()
        #expect(opened.author == "bob" && opened.epoch == 2 && opened.revision == 3)
        #expect(opened.fields["title"] == .string("Packing list ⛺"))
        let envelope = try SealedRecord(fields: fields)
        let address = SealedRecord.Address(zone: members.zone, recordType: "note", recordId: recordId.key)
        #expect(envelope.signedBytes(for: address) == (try bytes(v["signed"])), "the bytes §4 signs")

        // Sealed by Bob with the same salt: the same envelope, byte for byte (Ed25519 is deterministic).
        let plaintext = try #require(v["plaintext"] as? String)
        let fieldsJSON = String(try #require(plaintext.split(separator: "\"fields\":", maxSplits: 1).last).dropLast(",\"rev\":3}".count))
        let bobs = ZoneRecordSealing(zone: members.zone, account: "Bob", identity: bob, keys: [keys], members: [members], kept: [:])
        let sealed = try bobs.seal(fieldsJSON: fieldsJSON, recordType: "note", recordId: recordId, revision: 3, salt: try bytes(v["salt"]))
        #expect(sealed.fields == fields)
        let expected = try JSONSerialization.data(withJSONObject: try #require(v["envelope"]), options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(sealed.json == String(decoding: expected, as: UTF8.self))
        #expect(try ada.check(bobs.seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 4).fields,
                             recordType: "note", recordId: recordId, seen: 3).get().revision == 4, "a fresh salt opens too")
    }

    @Test func zoneRecordRefused() throws {
        let (members, keys, bob) = try zoneParties()
        let adaPairs = try ada()
        let idText = try #require(try vector("zone_record")["recordId"] as? String)
        let recordId = try #require(UUID(uuidString: idText))
        let fields = try zoneEnvelope()
        func sealing(_ account: String, _ pairs: IdentityKeyPairs, _ records: [ShareMembers], kept: [String: AccountIdentity] = [:]) -> ZoneRecordSealing {
            ZoneRecordSealing(zone: members.zone, account: account, identity: pairs, keys: [keys], members: records, kept: kept)
        }
        let ada = sealing("ada", adaPairs, [members], kept: ["bob": bob.identity])
        func refusal(_ fields: RecordFields, by reader: ZoneRecordSealing? = nil, seen: Int? = nil) -> ZoneRecordSealing.Refusal? {
            guard case .failure(let refusal) = (reader ?? ada).check(fields, recordType: "note", recordId: recordId, seen: seen) else { return nil }
            return refusal
        }

        // The server renames the writer, changes the signature, or strips it.
        var renamed = fields
        renamed["$by"] = .string("ada")
        var changed = fields
        var signature = try bytes(fields["$sig"]?.string)
        signature[10] ^= 1
        changed["$sig"] = .string(Base64URL.encode(signature))
        var stripped = fields
        stripped["$by"] = nil
        stripped["$sig"] = nil
        #expect(refusal(renamed) == .badSignature, "passed off as the owner's")
        #expect(refusal(changed) == .badSignature)
        #expect(refusal(stripped) == .badSignature, "an envelope with no writer")
        #expect(refusal(fields, seen: 4) == .record(.replayed(revision: 3, seen: 4)))

        // Bob a viewer at epoch 2 (in the record Ada holds), or Carol, who is no member, writing.
        var viewerRecord = members
        viewerRecord.members[1].role = .viewer
        #expect(refusal(fields, by: sealing("ada", adaPairs, [viewerRecord])) == .notAnEditor("bob"))
        let carol = IdentityKeyPairs.make()
        var withCarol = members
        withCarol.members.append(ShareMembers.Member(account: "carol", role: .editor, identity: carol.identity))
        let carols = try sealing("carol", carol, [withCarol]).seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 1)
        #expect(refusal(carols.fields) == .notAnEditor("carol"), "named an editor only in a record Ada never accepted")

        // A members epoch Ada does not hold yet: the record waits for it.
        var later = members
        later.epoch = 3
        let fromLater = try sealing("bob", bob, [later]).seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 4)
        #expect(refusal(fromLater.fields) == .waitingForMembers(epoch: 3))
        #expect(refusal(fromLater.fields, by: sealing("ada", adaPairs, [members, later])) == nil, "taken once it is held")

        // Bob's keys in the members record are not those Ada kept for him.
        #expect(refusal(fields, by: sealing("ada", adaPairs, [members], kept: ["bob": IdentityKeyPairs.make().identity])) == .authorKeysChanged("bob"))

        // A viewer's device does not seal; nor does one without the zone's keys.
        #expect(throws: ZoneRecordSealing.WriteRefusal.mayNotWrite) {
            try sealing("bob", bob, [viewerRecord]).seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 1)
        }
        #expect(throws: ZoneRecordSealing.WriteRefusal.noKey) {
            try ZoneRecordSealing(zone: members.zone, account: "bob", identity: bob, keys: [], members: [members], kept: [:])
                .seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 1)
        }
        // After a removal the members record names the next key: a device that did not get it
        // writes nothing, rather than seal with the old key, which the removed member holds.
        var rotated = members
        rotated.epoch += 1
        rotated.keyVersion += 1
        #expect(throws: ZoneRecordSealing.WriteRefusal.noKey) {
            try sealing("bob", bob, [members, rotated]).seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 1)
        }

        // Envelopes of the wrong shape: a writer without a signature, one not lowercased, a
        // short signature; and a shared record sent as a private one.
        var halfSigned = fields
        halfSigned["$sig"] = nil
        var upper = fields
        upper["$by"] = .string("Bob")
        var short = fields
        short["$sig"] = .string(Base64URL.encode(Data(count: 63)))
        for (shape, bad) in [("$by alone", halfSigned), ("in uppercase", upper), ("a short signature", short)] {
            #expect(throws: EncryptionError.notAuthentic, "\(shape)") { try SealedRecord(fields: bad) }
            #expect(refusal(bad) == .record(.notAuthentic), "\(shape)")
        }
        let keyring = AccountKeyring(account: "ada", accountKey: .init(size: .bits256), idKey: keys.idKey, dataKeys: [keys.dataKey], identityKeys: nil)
        let privateSeal = try SealedRecord(fields: try RecordSealing(keyring: keyring).seal(fieldsJSON: "{}", recordType: "note", recordId: recordId, revision: 1).fields)
        let privateAddress = SealedRecord.Address(zone: "private", recordType: "note", recordId: recordId.key)
        let asPrivate = try privateSeal.signed(by: "bob", signingKey: bob.signingBytes, for: privateAddress).fields
        guard case .failure(let privately) = RecordSealing(keyring: keyring).open(asPrivate, recordType: "note", recordId: recordId, seen: nil) else {
            Issue.record("a shared record opened as a private one")
            return
        }
        #expect(privately == .notAuthentic, "a private record names no writer")
    }
}
