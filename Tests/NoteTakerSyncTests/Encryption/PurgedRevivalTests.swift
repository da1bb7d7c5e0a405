import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// A note brought back by a device away through its deletion and the purge of its tombstone
/// (docs/encryption.md §3.3): the device never saw the revisions the note reached before the
/// deletion elsewhere, so its edit, sealed one above the revision it saw, came below them, and
/// every device that had seen them held the note brought back as a replay (converting seed
/// 3,014,332 of the simulation). The server keeps a purged deletion's sealed envelope, and
/// answers an edit from before the deletion with it, so the edit goes up above its revision.
@Suite struct PurgedRevivalTests {
    private static let cost = 1 << 14
    private static let password = "revival password"

    @Test("a note edited on a device away through its deletion's purge comes back on every device, sealed above the deletion's revision")
    func broughtBackAboveTheDeletion() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            _ = try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "lovelace", password: Self.password, allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: Self.cost)
            let note = try laptop.createNote(NoteDraft(title: "Plans", body: "first"))
            try await EncryptedAccountTests.sync(laptop)
            let (phone, tablet) = (try EncryptedAccountTests.device(), try EncryptedAccountTests.device())
            for device in [phone, tablet] {
                _ = try await device.logInToSyncAccount(
                    server: server.url, username: "lovelace", password: Self.password, allowInsecure: false,
                    allowingUnencrypted: false, minimumCost: Self.cost)
                try await EncryptedAccountTests.sync(device)
            }
            // The laptop edits twice; the tablet sees the note's last revision, the phone only its first.
            for body in ["second", "third"] {
                _ = try laptop.updateNote(id: note.id, body: body)
                try await EncryptedAccountTests.sync(laptop)
            }
            try await EncryptedAccountTests.sync(tablet)
            #expect(try tablet.note(id: note.id).body == "third")

            // Both go away; the phone edits the note meanwhile. The laptop deletes it, and
            // the server purges the tombstone: no live session waits for it.
            try await phone.lockSyncAccount()
            try await tablet.lockSyncAccount()
            _ = try phone.updateNote(id: note.id, body: "first, and the phone's line")
            _ = try laptop.trashNotes(ids: [note.id])
            _ = try laptop.purgeNotes(ids: [note.id])
            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(laptop)
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)

            // The phone comes back: its edit outranks the deletion and brings the note back.
            try await phone.unlockSyncAccount(password: Self.password, minimumCost: Self.cost)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(phone)
            try await tablet.unlockSyncAccount(password: Self.password, minimumCost: Self.cost)
            for device in [tablet, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            for (name, device) in [("laptop", laptop), ("phone", phone), ("tablet", tablet)] {
                #expect(try device.note(id: note.id).body == "first, and the phone's line", "\(name)")
                let summary = try device.syncSummary()
                #expect(summary.held.isEmpty && summary.failures.isEmpty && summary.pending == 0, "\(name): \(summary)")
            }
        }
    }
}
