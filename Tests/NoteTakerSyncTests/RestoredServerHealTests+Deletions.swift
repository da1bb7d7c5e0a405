import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

extension RestoredServerHealTests {
    /// Converting seed 3,015,801, in an account without encryption: a note deleted after the
    /// backup came back from the restored copy, the deletion lost with the history the server
    /// forgot (encrypted, the note came back in plain text that no device held, and the
    /// conversion never ended). The device that deleted it sends the deletion again as it heals.
    @Test("a deletion answered after the backup is sent again by the heal: the note stays deleted on every device")
    func aDeletionLostWithTheRestoreIsSentAgain() async throws {
        let admin = try await ServerOperator.start()
        let (laptop, phone, _, kept) = try await Self.deletedAfterTheBackup(admin)

        let healed = try await admin.engine(laptop).sync()
        #expect(healed.serverRestored, "\(healed)")
        try await admin.engine(laptop).sync()
        try await admin.engine(phone).sync()
        for store in [laptop, phone] {
            #expect(try store.notes().map(\.id) == [kept.id], "the deleted note stays deleted")
            #expect(try store.syncSummary().pending == 0)
        }
        await admin.stop()
    }

    /// The deletion sent again is refused where another device edited the record since the
    /// restore: the edit outranks it, as it would have without the restore.
    @Test("a deletion sent again by the heal yields to an edit made elsewhere since the restore: the note comes back with it")
    func aDeletionSentAgainYieldsToALaterEdit() async throws {
        let admin = try await ServerOperator.start()
        let (laptop, phone, note, _) = try await Self.deletedAfterTheBackup(admin)
        // The phone never learned of the deletion: its edit goes up on the restored copy.
        _ = try phone.updateNote(id: note.id, body: "to forget, but the phone's")
        try await admin.engine(phone).sync()

        for store in [laptop, laptop, phone] { try await admin.engine(store).sync() }
        for store in [laptop, phone] {
            #expect(try store.note(id: note.id).body == "to forget, but the phone's")
            #expect(try store.syncSummary().pending == 0)
        }
        await admin.stop()
    }

    /// A laptop and a phone holding two notes; after a backup the laptop deletes the first and
    /// its deletion is answered, then the server is restored from the backup.
    private static func deletedAfterTheBackup(_ admin: ServerOperator) async throws -> (laptop: NoteStore, phone: NoteStore, deleted: Note, kept: Note) {
        let laptop = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Old plans", body: "to forget"))
        let kept = try laptop.createNote(NoteDraft(title: "Groceries", body: "milk"))
        try await admin.engine(laptop).sync()
        let phone = try NoteStore.inMemory()
        try await admin.engine(phone).sync()
        try await admin.backUp()
        _ = try laptop.trashNotes(ids: [note.id])
        _ = try laptop.purgeNotes(ids: [note.id])
        try await admin.engine(laptop).sync()
        try await admin.restore()
        return (laptop, phone, note, kept)
    }
}
