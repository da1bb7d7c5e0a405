import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

extension RestoredServerHealTests {
    /// Restoring seed 2816 of the simulation: the server was restored to a backup of the
    /// account before anything was sent. The heal's fetch from nothing found nothing and kept
    /// a change token standing for nothing fetched; the heal sent a note again, and the fetch
    /// after was cut. Another device deleted the note, and the deletion was purged: the next
    /// fetch, from that token, was not refused (nothing before it could have been purged, so
    /// far as the server could tell), and the device kept the note the others had deleted.
    @Test("a heal that found the account empty keeps no token, so a deletion purged before its next fetch is not missed")
    func aHealThatFoundNothingMissesNoPurgedDeletion() async throws {
        let admin = try await ServerOperator.start()
        try await admin.backUp()
        let laptop = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Sent twice"))
        try await admin.engine(laptop).sync()
        try await admin.restore()

        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .fetchCutAfterBatch)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: cut, options: .init()).sync() }
        #expect(cut.injected == 1)
        #expect(try !laptop.hasPushableChanges())
        #expect(try laptop.changesQuery().since == nil, "a token for nothing fetched was kept")
        let phone = try Device("phone", server: admin.server, token: admin.token)
        try await phone.sync()
        #expect(try phone.titles() == ["Sent twice"])
        _ = try phone.store.trashNotes(ids: [note.id])
        _ = try phone.store.purgeNotes(ids: [note.id])
        try await phone.sync()
        #expect(try await admin.server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)

        try await admin.engine(laptop).sync()
        #expect(try laptop.notes(NoteQuery(limit: 10)).isEmpty)
        #expect(try laptop.trashedNotes(limit: 10).isEmpty)
        await admin.stop()
    }
}
