import Crypto
import Foundation
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerKit
@testable import NoteTakerSync

/// docs/sharing.md §4.1 against the vectors: RFC 9162 trees and their audit paths, then a
/// batch of three notes Bob wrote, signed once; then what a server or a member might send
/// instead, each refused.
extension EncryptionVectorTests {
    @Test func merkleTrees() throws {
        let trees = try #require(vectors["merkle_trees"] as? [[String: Any]])
        #expect(trees.count == 9)
        for tree in trees {
            let size = try #require(tree["size"] as? Int)
            let leaves = (0..<size).map { Data(SHA256.hash(data: Data([0, UInt8($0)]))) }
            let expected = try (try #require(tree["paths"] as? [[String]])).map { try $0.map { try bytes($0) } }
            let (root, paths) = MerkleTree.build(leaves)
            #expect(root == (try bytes(tree["root"])), "the root of \(size)")
            #expect(paths == expected, "the paths of \(size)")
            for index in 0..<size {
                #expect(MerkleTree.root(ofLeaf: leaves[index], at: index, size: size, path: paths[index]) == root)
                // A path one hash short or long, or at another place, does not fold into the root.
                // (For another size it may: the signature covers the size, `zoneBatchRefused`.)
                #expect(MerkleTree.root(ofLeaf: leaves[index], at: index, size: size, path: paths[index] + [root]) == nil)
                if !paths[index].isEmpty {
                    #expect(MerkleTree.root(ofLeaf: leaves[index], at: index, size: size, path: paths[index].dropLast()) == nil)
                }
                if size > 1 {
                    #expect(MerkleTree.root(ofLeaf: leaves[index], at: (index + 1) % size, size: size, path: paths[index]) != root)
                }
            }
            #expect(MerkleTree.root(ofLeaf: leaves[0], at: size, size: size, path: paths[0]) == nil, "a place outside the tree")
        }
        #expect(MerkleTree.root(ofLeaf: Data(count: 32), at: 0, size: MerkleTree.maxSize + 1, path: []) == nil)
    }

    /// The vector's batch: its records' ids, envelopes and salts, and Ada's sealing.
    private func batchParties() throws -> (records: [(id: UUID, fields: RecordFields, salt: Data, plaintext: String)], ada: ZoneRecordSealing, bob: ZoneRecordSealing) {
        let (members, keys, bob) = try zoneParties()
        let records = try (try #require(try vector("zone_batch")["records"] as? [[String: Any]])).map { record in
            let id = try #require(record["recordId"] as? String)
            return (try #require(UUID(uuidString: id)), try recordFields(record["envelope"]), try bytes(record["salt"]),
                    try #require(record["plaintext"] as? String))
        }
        let ada = ZoneRecordSealing(zone: members.zone, account: "ada", identity: try ada(), keys: [keys], members: [members], kept: ["bob": bob.identity])
        let bobs = ZoneRecordSealing(zone: members.zone, account: "bob", identity: bob, keys: [keys], members: [members], kept: [:])
        return (records, ada, bobs)
    }

    @Test func zoneBatch() throws {
        let v = try vector("zone_batch")
        let (records, ada, bob) = try batchParties()
        let wire = try (try #require(v["records"] as? [[String: Any]]))

        // Each record's leaf, and the bytes the one signature signs.
        let address = { (id: UUID) in SealedRecord.Address(zone: ada.zone, recordType: "note", recordId: id.key) }
        for (record, vector) in zip(records, wire) {
            #expect(try SealedRecord(fields: record.fields).leafHash(for: address(record.id)) == (try bytes(vector["leaf"])))
            #expect(try SealedRecord(fields: record.fields).signatureMessage(for: address(record.id)) == (try bytes(v["signed"])))
        }

        // Opened by Ada, one Ed25519 check for the three.
        var verified = ZoneRecordSealing.VerifiedBatches()
        for record in records {
            let opened = try ada.check(record.fields, recordType: "note", recordId: record.id, seen: nil, verified: &verified).get()
            #expect(opened.author == "bob" && opened.epoch == 2 && opened.revision == 1)
            #expect(verified.signatures.count == 1)
        }
        #expect(try ada.check(records[1].fields, recordType: "note", recordId: records[1].id, seen: nil).get().fields["title"] == .string("Food"))

        // Sealed by Bob with the same salts: the same envelopes, byte for byte.
        let changes = try records.map { record in
            let fieldsJSON = String(try #require(record.plaintext.split(separator: "\"fields\":", maxSplits: 1).last).dropLast(",\"rev\":1}".count))
            return RecordToSeal(fieldsJSON: fieldsJSON, recordType: "note", recordId: record.id, revision: 1, salt: record.salt)
        }
        let sealed = try bob.seal(batch: changes)
        #expect(sealed.map(\.fields) == records.map(\.fields))
        for (envelope, vector) in zip(sealed, wire) {
            let expected = try JSONSerialization.data(withJSONObject: try #require(vector["envelope"]), options: [.sortedKeys, .withoutEscapingSlashes])
            #expect(envelope.json == String(decoding: expected, as: UTF8.self))
        }
        // A batch of one is signed the same way, and opens.
        let one = try bob.seal(batch: [changes[0]])
        #expect(one[0].fields["$path"] != nil)
        #expect(try ada.check(one[0].fields, recordType: "note", recordId: records[0].id, seen: nil).get().revision == 1)
    }

    @Test func zoneBatchRefused() throws {
        let v = try vector("zone_batch")
        let (records, ada, bob) = try batchParties()
        let refusedVectors = try #require(v["refused"] as? [String: Any])
        func refusal(_ fields: RecordFields, _ index: Int, by reader: ZoneRecordSealing? = nil) -> ZoneRecordSealing.Refusal? {
            guard case .failure(let refusal) = (reader ?? ada).check(fields, recordType: "note", recordId: records[index].id, seen: nil) else { return nil }
            return refusal
        }

        // The vectors: a path that does not fold; a path that folds into the signed root in a
        // batch of four, where the signature is of a batch of three.
        #expect(refusal(try recordFields(refusedVectors["pathDoesNotFold"]), 2) == .badSignature)
        let anotherSize = try recordFields(refusedVectors["anotherSize"])
        let claimed = try SealedRecord(fields: anotherSize)
        let claimedPath = try #require(claimed.batchPath)
        let folded = MerkleTree.root(ofLeaf: claimed.leafHash(for: SealedRecord.Address(zone: ada.zone, recordType: "note", recordId: records[0].id.key)),
                                     at: 0, size: 4, path: claimedPath.hashes)
        let signedRoot = try bytes(v["root"])
        #expect(claimedPath.size == 4 && folded == signedRoot, "the path folds into the signed root")
        #expect(refusal(anotherSize, 0) == .badSignature)

        // Another record's path, or the batch's signature on a record Bob did not sign with it.
        var swapped = records[0].fields
        swapped["$path"] = records[1].fields["$path"]
        #expect(refusal(swapped, 0) == .badSignature)
        let stranger = try bob.seal(fieldsJSON: "{}", recordType: "note", recordId: records[0].id, revision: 2)
        var grafted = stranger.fields
        grafted["$sig"] = records[0].fields["$sig"]
        grafted["$path"] = records[0].fields["$path"]
        #expect(refusal(grafted, 0) == .badSignature, "a record joined to a batch it is not in")

        // Passed off as another member's: Ada's name on Bob's batch.
        var renamed = records[0].fields
        renamed["$by"] = .string("ada")
        #expect(refusal(renamed, 0) == .badSignature)

        // Moved to another record: the seal does not open there.
        #expect(refusal(records[0].fields, 1) == .record(.notAuthentic))

        // Paths of the wrong shape: not authentic before anything is checked.
        let path = try bytes(records[0].fields["$path"]?.string)
        let shapes: [(String, Data)] = [
            ("15 bytes", path.prefix(15)), ("a hash cut short", path.dropLast()), ("17 hashes", path + Data(count: 32 * 15)),
            ("index 3 of 3", Data(count: 7) + [3] + path.dropFirst(8)), ("size 0", path.prefix(8) + Data(count: 8) + path.dropFirst(16)),
        ]
        for (shape, bad) in shapes {
            var fields = records[0].fields
            fields["$path"] = .string(Base64URL.encode(Data(bad)))
            #expect(throws: EncryptionError.notAuthentic, "\(shape)") { try SealedRecord(fields: fields) }
            #expect(refusal(fields, 0) == .record(.notAuthentic), "\(shape)")
        }
        var unsigned = records[0].fields
        unsigned["$by"] = nil
        unsigned["$sig"] = nil
        #expect(throws: EncryptionError.notAuthentic, "a path without a writer") { try SealedRecord(fields: unsigned) }

        // A record joined to the batch among a page of its records: the batch's signature,
        // verified for the others, does not let it in.
        let page = [(records[1].id, records[1].fields), (records[2].id, records[2].fields), (records[0].id, grafted)].map { id, fields in
            SyncRecord(recordType: "note", recordId: id, changeTag: "1", deleted: false, fields: fields)
        }
        let opened = ada.unseal(page: page)
        #expect(opened.prefix(2).allSatisfy { if case .success = $0 { true } else { false } })
        guard case .failure(.shared(.badSignature)) = opened[2] else {
            Issue.record("a record grafted onto a verified batch was taken: \(opened[2])")
            return
        }
    }
}
