import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

extension RestoredServerHealTests {
    /// Restoring seed 4138 of the simulation: a tag was deleted and its tombstone purged; a
    /// device that never had the tag fetched past the deletion without learning of it; the
    /// server was restored from a copy taken before the purge, which holds the tombstone
    /// again. The device then tagged a note with that name: its tag went up made as tags are
    /// (derived, against no version), yielded to the old tombstone, and the note lost the tag
    /// everywhere.
    @Test("a tag made again long after its deletion stays, though a restored server holds the deletion's purged tombstone again")
    func aTagMadeAfterAPurgedDeletionStays() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let first = try laptop.createNote(NoteDraft(title: "Errands", tags: ["Red"]))
        try await admin.engine(laptop).sync()
        try laptop.deleteTag("Red")
        try await admin.engine(laptop).sync()
        try await admin.backUp()
        #expect(try await admin.server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
        let phone = try Device("phone", server: admin.server, token: admin.token)
        try await phone.sync()
        #expect(try phone.store.note(id: first.id).tags.isEmpty)
        try await admin.restore()

        let second = try phone.store.createNote(NoteDraft(title: "Paint", tags: ["Red"]))
        let report = try await admin.engine(phone.store).sync()
        #expect(!report.serverRestored, "nothing the phone had was lost with the restore")
        #expect(try phone.store.note(id: second.id).tags == ["Red"])
        try await admin.engine(laptop).sync()
        #expect(try laptop.note(id: second.id).tags == ["Red"])
        #expect(try laptop.tags().map(\.tag.name) == ["Red"])
        await admin.stop()
    }

    /// Restoring seed 4,466 of the simulation: a folder was deleted, and its tombstone purged
    /// while a device still held the folder; that device's fetch was refused for the purge,
    /// and its listing was cut short. The server was restored from a copy taken before the
    /// purge, and purged the tombstone again. The device noticed the restore and healed: it
    /// sent everything again, the folder too, which the server, holding nothing of it, made
    /// again. A row sent again unchanged now names the version it held, and the server answers
    /// it with the deletion it purged after that version.
    @Test("a folder deleted and purged while a device held it stays deleted when that device heals a restored server")
    func aPurgedDeletionOutranksTheHeal() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let folder = try laptop.createFolder(name: "Old projects")
        _ = try laptop.createNote(NoteDraft(title: "Keep"))
        try await admin.engine(laptop).sync()
        let phone = try NoteStore.inMemory()
        try await admin.engine(phone).sync()
        try laptop.deleteFolder(id: folder.id)
        try await admin.engine(laptop).sync()
        try await admin.backUp()
        _ = try laptop.createNote(NoteDraft(title: "After the backup"))
        try await admin.engine(laptop).sync()
        let days91 = Date().addingTimeInterval(91 * 86_400)
        #expect(try await admin.server.service.purgeTombstones(now: days91).tombstones == 1)
        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .listingCutAfterFirstPage)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: phone, transport: cut, options: .init()).sync() }
        #expect(cut.injected == 1)
        #expect(try phone.folderTree().count == 1, "the listing was cut before it crossed the folder off")

        try await admin.restore()
        #expect(try await admin.server.service.purgeTombstones(now: days91).tombstones == 1)
        let report = try await admin.engine(phone).sync()
        #expect(report.serverRestored)
        #expect(try phone.folderTree().isEmpty)
        try await admin.engine(laptop).sync()
        for store in [laptop, phone] {
            #expect(try store.folderTree().isEmpty)
            #expect(try Set(store.notes(NoteQuery(limit: 10)).map(\.title)) == ["Keep", "After the backup"])
        }
        await admin.stop()
    }
}
