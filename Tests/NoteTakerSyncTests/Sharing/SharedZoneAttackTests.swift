import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// The attacker's moves against a shared folder's devices (docs/sharing.md §7): a server that
/// adds a member of its own, writes a record that is not what it claims, or gives keys other
/// than the ones a device kept. Each is refused with a clear error, and changes nothing.
@Suite struct SharedZoneAttackTests {
    @Test("a members record the owner did not sign (the server adding a member of its own) is refused by every device, which keeps what it had")
    func serverAddsAMember() async throws {
        try await withLiveServer { server, _ in
            let ines = try await SharedFolderTests.device("ines", on: server)
            let bob = try await SharedFolderTests.device("bob", on: server)
            let mallory = try await SharedFolderTests.device("mallory", on: server)
            let folder = try ines.createFolder(name: "Plans")
            _ = try ines.createNote(NoteDraft(title: "Secret", folderId: folder.id))
            let shared = try await ines.shareFolder(folder.id, with: [("bob", .editor)])
            let zone = shared.zone.zone
            _ = try await bob.acceptShare(zone).result.get()

            // The server writes epoch 2 with mallory as an editor, signed with her keys.
            let kept = try #require(try bob.sharedZoneMembers(zone)[1]?.decoded())
            var forged = kept
            forged.epoch = 2
            let malloryPairs = try #require(try mallory.syncKeyring()?.identityKeys)
            forged.members.append(ShareMembers.Member(account: "mallory", role: .editor, identity: malloryPairs.identity))
            let storage = server.service.storage
            let ids = try await ["ines", "bob", "mallory"].asyncMap { try #require(try await storage.account(named: $0)?.id) }
            _ = try await storage.putShareMembers(StoredShareMembers(
                zone: zone, owner: ids[0], epoch: 2, signed: try malloryPairs.signed(forged),
                members: [ShareMemberRow(account: ids[0], role: .owner), ShareMemberRow(account: ids[1], role: .editor),
                          ShareMemberRow(account: ids[2], role: .editor)]))

            for device in [ines, bob] {
                let before = try SharedFolderTests.titles(device, zone: zone)
                let synced = try #require(try await device.syncSharedZones(transport: try device.syncTransport()).first)
                #expect(synced.result.failureValue == .shareRefused("its signature is not the owner's"))
                #expect(try device.sharedZoneMembers(zone).keys.sorted() == [1], "the forged record is not kept")
                #expect(try SharedFolderTests.titles(device, zone: zone) == before)
            }
            // Mallory holds no key: the server cannot give her one the owner did not box.
            let malloryBoxes = try await mallory.syncTransport().zoneKeys(zone: zone)
            #expect(malloryBoxes.isEmpty)
        }
    }

    @Test("a record that is not what it claims (another record's envelope under a new id) is held by the member's device, never applied")
    func movedRecord() async throws {
        try await withLiveServer { server, _ in
            let ines = try await SharedFolderTests.device("ines", on: server)
            let bob = try await SharedFolderTests.device("bob", on: server)
            let folder = try ines.createFolder(name: "Plans")
            let note = try ines.createNote(NoteDraft(title: "Real", folderId: folder.id))
            let zone = try await ines.shareFolder(folder.id, with: [("bob", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()

            // A raw client with ines's session (the server, or a device of hers taken over)
            // saves note's envelope again under another id.
            let transport = try ines.syncTransport().inZone(zone)
            let record = try #require(try await transport.fetchChanges(ChangesQuery(since: nil)).records.first { $0.recordId == note.id })
            let moved = UUID()
            _ = try await transport.modify(ModifyRequest(changes: [
                RecordChange(recordType: "note", recordId: moved, operation: .save, baseChangeTag: nil, fields: record.fields ?? [:])]))

            let synced = try #require(try await bob.syncSharedZones(transport: try bob.syncTransport()).first)
            #expect(try synced.result.get().errors == 1)
            let store = try bob.sharedZoneStore(zone)
            #expect(throws: NoteTakerError.self) { try store.note(id: moved) }
            #expect(try store.syncSummary().held.map(\.recordId) == [moved.uuidString.lowercased()])
            #expect(try store.note(id: note.id).title == "Real")
        }
    }

    @Test("keys the server gives for an invitee, or for the owner, other than the ones the device kept: nothing is shared or accepted")
    func keysOtherThanKept() async throws {
        try await withLiveServer { server, _ in
            let ines = try await SharedFolderTests.device("ines", on: server)
            let bob = try await SharedFolderTests.device("bob", on: server)
            let folder = try ines.createFolder(name: "Plans")
            // Ines's device kept keys for bob that are not the ones the server gives now.
            try ines.confirmIdentity(of: "bob", IdentityKeyPairs.make().identity)
            await #expect(throws: SyncError.memberKeysChanged("bob")) { _ = try await ines.shareFolder(folder.id, with: [("bob", .editor)]) }
            #expect(try ines.folder(id: folder.id).name == "Plans", "the folder stays private")
            #expect(try ines.sharedZones().isEmpty)
            #expect(try await ines.listShares().isEmpty, "no share was made on the server")

            // Once ines compared safety numbers and confirmed bob's keys, she shares; bob's
            // device kept other keys for ines: it does not accept.
            _ = try await ines.checkIdentity(of: "bob", confirming: true)
            let zone = try await ines.shareFolder(folder.id, with: [("bob", .editor)]).zone.zone
            try bob.confirmIdentity(of: "ines", IdentityKeyPairs.make().identity)
            await #expect(throws: SyncError.memberKeysChanged("ines")) { _ = try await bob.acceptShare(zone) }
            #expect(try bob.sharedZones().isEmpty)
            #expect(try await bob.listShares().first?.accepted == false, "the invitation was not accepted")
        }
    }
}

extension Result {
    /// The error, for a failure.
    fileprivate var failureValue: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
