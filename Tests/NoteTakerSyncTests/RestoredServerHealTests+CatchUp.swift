import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

extension RestoredServerHealTests {
    /// Seed 20,458 of the simulation: a device found the server restored while sending its
    /// deletion of a note (it had edited the note after the backup: the version it deleted
    /// was numbered in the history the server lost), and its catch-up was cut short. Another
    /// device then edited the note, and the server numbered that edit as the lost version.
    /// The next sync sent the deletion again before catching up, without the authored token
    /// that would have had it refused, and the deletion applied over the edit it never saw.
    @Test("a device catching up with a restored server sends nothing before it has: a deletion based on a lost version does not take a later edit")
    func nothingGoesUpBeforeTheCatchUp() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Plans", body: "first"))
        try await admin.engine(laptop).sync()
        let phone = try NoteStore.inMemory()
        try await admin.engine(phone).sync()
        try await admin.backUp()
        // The laptop's edit is answered after the backup; its fetch, cut, stays before it.
        _ = try laptop.updateNote(id: note.id, body: "second")
        let fetchCut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .fetchCutAfterBatch)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: fetchCut, options: .init()).sync() }
        try await admin.restore()

        // Its deletion is refused for the restore, and the catch-up that follows is cut.
        _ = try laptop.trashNotes(ids: [note.id])
        _ = try laptop.purgeNotes(ids: [note.id])
        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .fetchCut)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: cut, options: .init()).sync() }
        #expect(try laptop.catchesUpBeforeHeal())
        // The phone's edit takes the number the laptop's lost edit had.
        _ = try phone.updateNote(id: note.id, body: "first, then the phone's")
        try await admin.engine(phone).sync()

        try await admin.engine(laptop).sync()
        try await admin.engine(phone).sync()
        for store in [laptop, phone] {
            #expect(try store.note(id: note.id).body == "first, then the phone's", "the edit the deletion never saw wins")
        }
        await admin.stop()
    }
}
