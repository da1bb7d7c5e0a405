import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// A shared zone end to end through the real server on loopback, with real keys
/// (docs/sharing.md §3–4): the owner signs its members and boxes its keys; members open both,
/// write notes sealed and signed, read each other's; a viewer's write is refused by its own
/// device and by the server; a member removed reads nothing written after the key rotates.
@Suite struct SharedZoneProtocolTests {
    /// A member's device: its store, transport, account and identity key pairs.
    private struct Member {
        let name: String
        let store: NoteStore
        let transport: HTTPSyncTransport
        let pairs: IdentityKeyPairs

        init(_ name: String, on server: LiveServer) async throws {
            self.name = name
            store = try EncryptedAccountTests.device()
            _ = try await store.registerEncryptedSyncAccount(
                server: server.url, username: name, password: "the password", allowInsecure: false, parameters: EncryptedAccountTests.cheap(),
                minimumCost: 1 << 14)
            transport = try store.syncTransport()
            pairs = try #require(try store.syncKeyring()?.identityKeys)
        }

        func member(_ role: ShareMembers.Role) -> ShareMembers.Member { .init(account: name, role: role, identity: pairs.identity) }

        /// Sends `notes` (id and title) to the zone, sealed and signed under `sealing`.
        func write(_ notes: [(UUID, String, base: String?)], revision: Int, with sealing: ZoneRecordSealing) async throws -> ModifyResponse {
            var changes: [RecordChange] = []
            var written: [String?] = []
            for (id, title, base) in notes {
                let (fields, json) = try sealing.seal(
                    fieldsJSON: "{\"body\":\"\",\"title\":\"\(title)\"}", recordType: "note", recordId: id, revision: revision)
                changes.append(RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: base, fields: fields))
                written.append(json)
            }
            return try await transport.inZone(sealing.zone).modify(ModifyRequest(changes: changes), fieldsJSON: written)
        }

        /// The zone's records, fetched from the start.
        func read(_ zone: String) async throws(SyncError) -> [SyncRecord] {
            try await transport.inZone(zone).fetchChanges(ChangesQuery(since: nil)).records
        }
    }

    @Test("members open the owner's members record and keys, read and write each other's notes; a viewer writes nothing; a removed member reads nothing new")
    func sharedZone() async throws {
        try await withLiveServer { server, _ in
            let (ines, bob, carol) = (try await Member("ines", on: server), try await Member("bob", on: server), try await Member("carol", on: server))
            let zoneId = UUID()
            let zone = zoneId.uuidString.lowercased()

            // Ines shares: the members record signed, the keys boxed for each member.
            let first = ShareMembers(zone: zoneId, epoch: 1, root: .init(kind: "folder", id: UUID()),
                                     members: [ines.member(.owner), bob.member(.editor), carol.member(.viewer)], keyVersion: 1)
            let keys = ZoneKeys.make(zone: zoneId)
            try await ines.transport.putShareMembers(try ines.pairs.signed(first), zone: zone)
            try await ines.transport.putZoneKeys(
                [try ines.pairs.box(keys, for: ines.member(.owner), from: "ines"), try ines.pairs.box(keys, for: bob.member(.editor), from: "ines"),
                 try ines.pairs.box(keys, for: carol.member(.viewer), from: "ines")], zone: zone)
            // Her other device opens her own box: no device keeps a zone's keys but in memory.
            let phone = try EncryptedAccountTests.device()
            _ = try await phone.logInToSyncAccount(
                server: server.url, username: "ines", password: "the password", allowInsecure: false, allowingUnencrypted: false, minimumCost: 1 << 14)
            let phonePairs = try #require(try phone.syncKeyring()?.identityKeys)
            let ownBox = try #require(try await phone.syncTransport().zoneKeys(zone: zone).first)
            #expect(try phonePairs.open(ownBox, as: "ines", members: first).dataKeyBytes == keys.dataKeyBytes)

            // Bob and carol find the invitation, check it against the keys they keep for ines, open their keys, accept.
            var opened: [String: (ShareMembers, ZoneKeys)] = [:]
            for member in [bob, carol] {
                #expect(try await member.transport.shares() == [ShareSummary(zone: zone, owner: "ines", role: member.name == "bob" ? .editor : .viewer, accepted: false, epoch: 1)])
                #expect(try await member.store.checkIdentity(of: "ines").sighting == .first)
                let inesKeys = try await member.transport.identity(of: "ines")
                let members = try await member.transport.shareMembers(zone: zone).opened(zone: zoneId, owner: "ines", ownerKeys: inesKeys, accepted: nil)
                let boxes = try await member.transport.zoneKeys(zone: zone)
                opened[member.name] = (members, try member.pairs.open(try #require(boxes.first), as: member.name, members: members))
                await #expect(throws: SyncError.self, "not before accepting") { try await member.read(zone) }
                try await member.transport.acceptShare(zone: zone)
            }
            func sealing(_ member: Member, keys: [ZoneKeys], members: [ShareMembers]) -> ZoneRecordSealing {
                ZoneRecordSealing(zone: zone, account: member.name, identity: member.pairs, keys: keys, members: members,
                                  kept: ["ines": ines.pairs.identity, "bob": bob.pairs.identity, "carol": carol.pairs.identity])
            }
            let (bobMembers, bobKeys) = try #require(opened["bob"])
            let (carolMembers, carolKeys) = try #require(opened["carol"])
            #expect(bobKeys.dataKeyBytes == keys.dataKeyBytes && bobMembers == first && carolMembers == first)
            let inesSealing = sealing(ines, keys: [keys], members: [first])
            let bobSealing = sealing(bob, keys: [bobKeys], members: [bobMembers])
            let carolSealing = sealing(carol, keys: [carolKeys], members: [carolMembers])

            // Ines writes a note; bob and carol read it, as hers; bob edits it; ines reads his edit.
            let note = UUID()
            let saved = try await ines.write([(note, "Trip plan", base: nil)], revision: 1, with: inesSealing)
            for (member, sealing) in [(bob, bobSealing), (carol, carolSealing)] {
                let record = try #require(try await member.read(zone).first)
                let read = try sealing.check(record.fields ?? [:], recordType: "note", recordId: note, seen: nil).get()
                #expect(read.fields["title"] == .string("Trip plan") && read.author == "ines", "\(member.name)")
            }
            _ = try await bob.write([(note, "Trip plan, with the map", base: saved.results[0].changeTag)], revision: 2, with: bobSealing)
            let edited = try #require(try await ines.read(zone).first)
            let read = try inesSealing.check(edited.fields ?? [:], recordType: "note", recordId: note, seen: 1).get()
            #expect(read.fields["title"] == .string("Trip plan, with the map") && read.author == "bob" && read.revision == 2)
            #expect(try await ines.transport.fetchChanges(ChangesQuery(since: nil)).records.isEmpty, "the zone's notes are not among ines's own")

            // Carol, a viewer: her device does not seal; a record she seals anyway (as an editor of
            // a record she made up) is refused by the server, and would be by every member.
            #expect(throws: ZoneRecordSealing.WriteRefusal.mayNotWrite) {
                try carolSealing.seal(fieldsJSON: "{}", recordType: "note", recordId: UUID(), revision: 1)
            }
            var madeUp = first
            madeUp.members[2].role = .editor
            let forged = sealing(carol, keys: [carolKeys], members: [madeUp])
            await #expect(throws: SyncError.server(code: "forbidden", message: "This account may view this share, not change it: only its owner and editors write. Nothing was changed.")) {
                _ = try await carol.write([(UUID(), "Carol's", base: nil)], revision: 1, with: forged)
            }
            let carols = try forged.seal(fieldsJSON: "{}", recordType: "note", recordId: note, revision: 3)
            #expect(throws: ZoneRecordSealing.Refusal.notAnEditor("carol")) { try bobSealing.check(carols.fields, recordType: "note", recordId: note, seen: nil).get() }

            // Ines removes carol: the next epoch, without her, and the key's next version for bob.
            var second = first
            second.epoch = 2
            second.keyVersion = 2
            second.members.removeLast()
            let rotated = ZoneKeys(zone: zone, version: 2, dataKey: ZoneKeys.make(zone: zoneId).dataKeyBytes, idKey: keys.idKeyBytes)
            try await ines.transport.putShareMembers(try ines.pairs.signed(second), zone: zone)
            try await ines.transport.putZoneKeys([try ines.pairs.box(rotated, for: bob.member(.editor), from: "ines")], zone: zone)
            await #expect(throws: SyncError.self, "carol reads nothing of the zone now") { try await carol.read(zone) }
            let bobSecond = try await bob.transport.shareMembers(zone: zone)
                .opened(zone: zoneId, owner: "ines", ownerKeys: ines.pairs.identity, accepted: try ines.pairs.signed(first))
            let bobRotated = try bob.pairs.open(try #require(try await bob.transport.zoneKeys(zone: zone).first { $0.version == 2 }), as: "bob", members: bobSecond)
            let later = UUID()
            let inesLater = sealing(ines, keys: [keys, rotated], members: [first, second])
            _ = try await ines.write([(later, "After carol left", base: nil)], revision: 1, with: inesLater)
            let record = try #require(try await bob.read(zone).first { $0.recordId == later })
            let bobLater = sealing(bob, keys: [bobKeys, bobRotated], members: [bobMembers, bobSecond])
            #expect(try bobLater.check(record.fields ?? [:], recordType: "note", recordId: later, seen: nil).get().epoch == 2)
            // Had carol kept a copy, her keys would not open it.
            #expect(throws: ZoneRecordSealing.Refusal.record(.missingKey)) {
                try carolSealing.check(record.fields ?? [:], recordType: "note", recordId: later, seen: nil).get()
            }
            // The epoch-1 record stays fetchable for bob, who checks what was written under it.
            #expect(try await bob.transport.shareMembers(zone: zone, epoch: 1) == (try ines.pairs.signed(first)))
        }
    }
}
