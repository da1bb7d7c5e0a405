import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Tags of an end-to-end encrypted account under keyed ids (docs/encryption.md §4): tags made
/// before a device joins the account are renamed before anything goes up, two devices that
/// each made "Work" end with one tag, and the server never sees an id it could compute from a
/// name it guesses.
@Suite struct KeyedTagTests {
    @Test func tagsMadeBeforeJoiningAnEncryptedAccountAreOneTagUnderItsKeyedId() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            let plan = try laptop.createNote(NoteDraft(title: "Plan", tags: ["Work", "Medical"]))
            try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            try await EncryptedAccountTests.sync(laptop)

            let phone = try EncryptedAccountTests.device()
            let call = try phone.createNote(NoteDraft(title: "Call", tags: ["work"]))
            try await phone.logInToSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false,
                allowingUnencrypted: false, minimumCost: 1 << 14)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)

            // One "Work", whichever spelling of it went up last, on both devices.
            let identity = KeyedIdentity(idKey: try #require(try laptop.syncKeyring()).idKey)
            #expect(try laptop.tags().map(\.tag.name) == phone.tags().map(\.tag.name))
            for device in [laptop, phone] {
                let tags = try device.tags()
                #expect(tags.map { $0.tag.name.lowercased() } == ["medical", "work"])
                #expect(tags.map(\.id) == [identity.id(kind: "tag", text: "medical"), identity.id(kind: "tag", text: "work")])
                #expect(tags.map(\.noteCount) == [1, 2])
                #expect(try device.note(id: plan.id).tags.map { $0.lowercased() } == ["medical", "work"])
                #expect(try device.note(id: call.id).tags.map { $0.lowercased() } == ["work"])
            }
            // Nothing the server holds names a tag by an id a guess could compute.
            let guessable = Set(["Work", "Medical"].map { Tag.id(forName: $0).key })
            let held = try await SealedSyncTests.serverRecords(try laptop.syncTransport())
            #expect(held.allSatisfy { !guessable.contains($0.recordId.key) })
            let wire = String(decoding: try JSONEncoder().encode(held), as: UTF8.self).lowercased()
            #expect(guessable.allSatisfy { !wire.contains($0.lowercased()) })
        }
    }
}
