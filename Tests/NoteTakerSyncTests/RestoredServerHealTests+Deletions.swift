import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
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

    /// Plain seed 24,999 of the simulation, which a heal sending deletions again against the
    /// restored server's numbering failed: after the backup, the laptop deleted a note and the
    /// phone, which had not fetched the deletion, edited it, which brought it back; the restore
    /// lost both. The laptop healed first: its deletion applied, numbered after the phone's edit
    /// in the restored server's history (here the notes it wrote meanwhile go up before it).
    /// The phone's heal then sent the note again from the version of its edit, and yielded to
    /// the deletion: the edit was lost. The tombstone now keeps the number the deletion had
    /// before the restore, and the edit, after it, wins.
    @Test("an edit that brought a note back after its deletion, both lost with a restore, outranks the deletion sent again by a heal")
    func anEditAfterTheDeletionOutranksItAgain() async throws {
        let admin = try await ServerOperator.start()
        let (laptop, phone, note) = try await Self.revivedAfterTheBackup(admin, deletionFirst: true)
        for index in 1...12 { _ = try laptop.createNote(NoteDraft(title: "Note \(index)", body: "written after the restore")) }

        for store in [laptop, phone, laptop, phone] { try await admin.engine(store).sync() }
        for store in [laptop, phone] {
            #expect(try store.note(id: note.id).body == "the phone's plan", "the phone's edit came after the deletion")
            #expect(try store.syncSummary().pending == 0)
        }
        await admin.stop()
    }

    /// The other way round: the phone's version was from before the deletion (it fetched the
    /// note, the laptop then deleted it), so the deletion sent again outranks the phone's
    /// version sent again, as it did before the restore (though numbered, in the restored
    /// server's history, at the phone's version's number).
    @Test("a version from before a deletion, both lost with a restore, yields to the deletion sent again by a heal")
    func aVersionBeforeTheDeletionYieldsToIt() async throws {
        let admin = try await ServerOperator.start()
        let (laptop, phone, note) = try await Self.revivedAfterTheBackup(admin, deletionFirst: false)

        for store in [laptop, phone, laptop, phone] { try await admin.engine(store).sync() }
        for store in [laptop, phone] {
            #expect(try !store.notes().map(\.id).contains(note.id), "the laptop deleted the note after the phone's version")
            #expect(try store.syncSummary().pending == 0)
        }
        let listing = try await HTTPSyncTransport(server: admin.server.url, token: admin.token).fetchChanges(ChangesQuery(since: nil, listing: true))
        let tombstone = listing.records.first { $0.recordId == note.id }
        #expect(tombstone?.deleted == true)
        #expect(tombstone?.sentAgainFrom != nil, "the tombstone keeps the number the deletion had before the restore")
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

    /// A laptop and a phone holding two notes; after a backup the laptop deletes one and the
    /// phone edits it, both answered (`deletionFirst`: the deletion first, the phone's edit
    /// then brings the note back; else the phone's edit first, and the deletion after it,
    /// which the phone fetches), and the server is restored from the backup.
    private static func revivedAfterTheBackup(_ admin: ServerOperator, deletionFirst: Bool) async throws -> (laptop: NoteStore, phone: NoteStore, note: Note) {
        let laptop = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Plans", body: "the first plan"))
        _ = try laptop.createNote(NoteDraft(title: "Groceries", body: "milk"))
        try await admin.engine(laptop).sync()
        let phone = try NoteStore.inMemory()
        try await admin.engine(phone).sync()
        try await admin.backUp()
        if deletionFirst {
            _ = try laptop.trashNotes(ids: [note.id])
            _ = try laptop.purgeNotes(ids: [note.id])
            try await admin.engine(laptop).sync()
            _ = try phone.updateNote(id: note.id, body: "the phone's plan")
            try await admin.engine(phone).sync()
            try await admin.engine(phone).sync()
            #expect(try phone.note(id: note.id).body == "the phone's plan")
        } else {
            _ = try phone.updateNote(id: note.id, body: "the phone's plan")
            try await admin.engine(phone).sync()
            try await admin.engine(laptop).sync()
            _ = try laptop.trashNotes(ids: [note.id])
            _ = try laptop.purgeNotes(ids: [note.id])
            try await admin.engine(laptop).sync()
            #expect(try phone.syncSummary().pending == 0)
        }
        try await admin.restore()
        return (laptop, phone, note)
    }
}
