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
}
