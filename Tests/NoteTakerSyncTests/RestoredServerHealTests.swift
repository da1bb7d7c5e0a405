import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerServerTestSupport
import Testing
@testable import NoteTakerSync

@Suite("Healing a server restored from a backup")
struct RestoredServerHealTests {
    @Test("a deletion waiting to go up when the restore is noticed goes through the heal: this device's own version is deleted, another's edit comes back")
    func aWaitingDeletionGoesThroughTheHeal() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let kept = try laptop.createNote(NoteDraft(title: "Kept", body: "v1"))
        let gone = try laptop.createNote(NoteDraft(title: "Gone", body: "deleted offline"))
        let edited = try laptop.createNote(NoteDraft(title: "Edited elsewhere", body: "v1"))
        try await admin.engine(laptop).sync()
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        _ = try tablet.store.updateNote(id: edited.id, body: "v2 from the tablet")
        try await tablet.sync()
        try await admin.engine(laptop).sync()
        try await admin.backUp()

        _ = try laptop.updateNote(id: kept.id, body: "v2 after backup")
        try await admin.engine(laptop).sync()
        _ = try laptop.trashNotes(ids: [gone.id, edited.id])
        _ = try laptop.purgeNotes(ids: [gone.id, edited.id])
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        #expect(report.errors == 0)
        // The newer text went up again. The deletions went up against no version: the
        // server applied the one of the note whose version it holds this device made, and
        // refused the one of the note the tablet edited last, which came back whole.
        #expect(try laptop.note(id: kept.id).body == "v2 after backup")
        #expect(throws: NoteTakerError.self) { try laptop.note(id: gone.id) }
        #expect(try laptop.note(id: edited.id).body == "v2 from the tablet")
        #expect(try laptop.conflicts().isEmpty)
        #expect(try !laptop.hasPushableChanges())
        try await admin.engine(tablet.store).sync()
        #expect(try tablet.titles() == ["Edited elsewhere", "Kept"])
        #expect(try tablet.note(titled: "Kept").body == "v2 after backup")
        await admin.stop()
    }

    @Test("a device whose batch was answered after the backup, and that fetched nothing since, notices the restore and sends it again")
    func anAnsweredBatchWithoutAFetchIsSentAgain() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        _ = try laptop.createNote(NoteDraft(title: "Before", body: "in the backup"))
        try await admin.engine(laptop).sync()
        try await admin.backUp()

        // The batch is answered, and the fetch after it never happens (the network went).
        let after = try laptop.createNote(NoteDraft(title: "After", body: "answered after the backup"))
        var pushed = SyncReport()
        try await admin.engine(laptop).push(into: &pushed)
        #expect(pushed.pushed == 1)
        #expect(try !laptop.hasPushableChanges())
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        #expect(try tablet.titles() == ["After", "Before"])
        #expect(try tablet.store.note(id: after.id).body == "answered after the backup")
        await admin.stop()
    }

    /// Converting seed 3,001,797 of the simulation, without encryption: the heal took every
    /// record here over the server's copy, and a device that had not fetched another's changes
    /// made before the backup undid them (a folder's rename).
    @Test("a device that heals first keeps what another device changed before the backup and it never fetched")
    func aStaleDeviceHealingFirstKeepsOthersChanges() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let folder = try laptop.createFolder(name: "Projects")
        let plan = try laptop.createNote(NoteDraft(title: "Plan", body: "v1"))
        let list = try laptop.createNote(NoteDraft(title: "List", body: "one\ntwo\nthree\nfour"))
        try await admin.engine(laptop).sync()
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        _ = try laptop.renameFolder(id: folder.id, to: "Work")
        _ = try laptop.updateNote(id: plan.id, body: "v2 from the laptop")
        _ = try laptop.updateNote(id: list.id, body: "zero\none\ntwo\nthree\nfour")
        try await admin.engine(laptop).sync()
        try await admin.backUp()

        // The tablet's batch is answered after the backup (its edit of the list merged with the
        // laptop's first); it fetches nothing else before the restore.
        _ = try tablet.store.createNote(NoteDraft(title: "After", body: "answered after the backup"))
        _ = try tablet.store.updateNote(id: list.id, body: "one\ntwo\nthree\nfour\nfive")
        var pushed = SyncReport()
        try await admin.engine(tablet.store).push(into: &pushed)
        try await admin.engine(tablet.store).push(into: &pushed)
        #expect(try !tablet.store.hasPushableChanges())
        #expect(try tablet.store.note(id: list.id).body == "zero\none\ntwo\nthree\nfour\nfive")
        try await admin.restore()

        let report = try await admin.engine(tablet.store).sync()
        #expect(report.serverRestored)
        #expect(try tablet.store.folder(id: folder.id).name == "Work")
        #expect(try tablet.store.note(id: plan.id).body == "v2 from the laptop")
        #expect(try tablet.store.note(id: list.id).body == "zero\none\ntwo\nthree\nfour\nfive")
        // The server's older text of the list (the version the tablet merged with) is kept in a
        // conflict copy, as a heal keeps any text the server holds that this device never had.
        #expect(try tablet.store.conflicts().map(\.serverBody) == ["zero\none\ntwo\nthree\nfour"])
        try await admin.engine(laptop).sync()
        #expect(try laptop.folder(id: folder.id).name == "Work")
        #expect(try laptop.note(id: plan.id).body == "v2 from the laptop")
        #expect(try laptop.note(id: list.id).body == "zero\none\ntwo\nthree\nfour\nfive")
        #expect(try tablet.titles().filter { !$0.contains("conflict copy") } == ["After", "List", "Plan"])
        await admin.stop()
    }

    /// The catch-up before a heal leaves to the heal every record this device synced after
    /// its last fetch, whatever version arrives: its own edit, answered after the backup and
    /// lost with it, then edited again by another device after the restore (under a higher
    /// number, as the restored server numbers from the backup on), stays this note's text,
    /// the other's kept in a conflict copy, as the heal keeps every text the server holds.
    @Test("an edit of this device lost with the restore, and edited elsewhere since, is kept as the note's text by the heal, the other's in a conflict copy")
    func anEditLostWithTheRestoreAndEditedElsewhereStays() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let plan = try laptop.createNote(NoteDraft(title: "Plan", body: "v1"))
        try await admin.engine(laptop).sync()
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        try await admin.backUp()

        // The tablet's edit is answered after the backup; it fetches nothing before the restore.
        _ = try tablet.store.updateNote(id: plan.id, body: "v2 from the tablet")
        var pushed = SyncReport()
        try await admin.engine(tablet.store).push(into: &pushed)
        #expect(try !tablet.store.hasPushableChanges())
        try await admin.restore()

        // The laptop, which never saw it, writes twice to the restored server, then edits the note.
        _ = try laptop.createNote(NoteDraft(title: "After the restore", body: "one"))
        try await admin.engine(laptop).sync()
        _ = try laptop.updateNote(id: plan.id, body: "v2 from the laptop")
        try await admin.engine(laptop).sync()

        let report = try await admin.engine(tablet.store).sync()
        #expect(report.serverRestored)
        #expect(try tablet.store.note(id: plan.id).body == "v2 from the tablet")
        #expect(try tablet.store.conflicts().map(\.serverBody) == ["v2 from the laptop"])
        try await admin.engine(laptop).sync()
        #expect(try laptop.note(id: plan.id).body == "v2 from the tablet")
        #expect(try laptop.notes(NoteQuery(limit: 10)).contains { $0.body == "v2 from the laptop" }, "the laptop's text is in the conflict copy")
        await admin.stop()
    }

    /// Converting seed 3,002,602 of the simulation: a device whose heal's fetch failed sent
    /// everything again at its next sync, and the fetch after it, with that batch's authored
    /// token, left out every record this device had last written, those from before the backup
    /// too: a tag it had deleted since (its deletion lost with the restore) stayed on the server
    /// and on every other device, and never came back here.
    @Test("a heal's fetch after this device sent everything again still brings back what it wrote before the backup")
    func aHealsFetchAfterItsPushBringsBackOwnRecords() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Plan", body: "v1"))
        _ = try laptop.addTags(["Old"], toNote: note.id)
        try await admin.engine(laptop).sync()
        try await admin.backUp()
        try laptop.deleteTag("Old")
        _ = try laptop.createNote(NoteDraft(title: "After", body: "made after the backup"))
        try await admin.engine(laptop).sync()
        try await admin.restore()

        // The restore is noticed, and the heal's fetch fails; the next sync sends everything
        // first (the new note is saved again), then fetches.
        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .listingCut)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: cut).sync() }
        #expect(cut.injected == 1)
        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        // A deletion made after the backup comes back (README), here as everywhere.
        #expect(try laptop.tags().map(\.tag.name) == ["Old"])
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        #expect(try tablet.store.tags().map(\.tag.name) == ["Old"])
        #expect(try tablet.titles() == ["After", "Plan"])
        await admin.stop()
    }

    /// Seed 7956 of the simulation: the batch kept in flight behind an answered one was sent
    /// again after the restore with the tokens it was first sent with, which the restored
    /// server held; taken, its answer replaced the token that told of the restore, and the
    /// answered batch's edit was lost.
    @Test("a batch in flight behind an answered one goes up again with the newer tokens, so the restore is noticed and nothing is lost")
    func aBatchInFlightGoesUpWithTheNewerTokens() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Edited", body: "in the backup"))
        try await admin.engine(laptop).sync()
        try await admin.backUp()

        // Two batches: the first is answered after the backup, the second is lost on the way.
        _ = try laptop.updateNote(id: note.id, body: "answered after the backup")
        let second = try laptop.createNote(NoteDraft(title: "Second batch"))
        // The second batch is named by its record: the two batches in flight together may
        // reach the transport in either order (CI met the first one lost instead).
        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .batchLost(holding: second.id))
        await #expect(throws: SyncError.self) {
            try await SyncEngine(store: laptop, transport: cut, options: .init(batchSize: 1)).sync()
        }
        #expect(cut.injected == 1)
        #expect(try laptop.inflightBatches().count == 1)
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        #expect(try tablet.titles() == ["Edited", "Second batch"])
        #expect(try tablet.store.note(id: note.id).body == "answered after the backup")
        #expect(try tablet.store.note(id: second.id).title == "Second batch")
        await admin.stop()
    }

    /// Seed 7956 of the simulation: a device listing everything after a purge had forgotten
    /// the token of its answered batch, so it did not notice the restore, and took the
    /// server's older version (and then its deletion) over its own edit.
    @Test("a device listing after a purge when the server is restored notices the restore, and its answered edit goes up again")
    func aListingAfterAPurgeNoticesTheRestore() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let phone = try NoteStore.inMemory()
        let note = try laptop.createNote(NoteDraft(title: "Edited", body: "in the backup"))
        let deleted = try laptop.createNote(NoteDraft(title: "Deleted"))
        try await admin.engine(laptop).sync()
        try await admin.engine(phone).sync()
        try await admin.backUp()

        _ = try laptop.updateNote(id: note.id, body: "answered after the backup")
        var pushed = SyncReport()
        try await admin.engine(laptop).push(into: &pushed)
        #expect(pushed.pushed == 1)
        _ = try phone.trashNotes(ids: [deleted.id])
        _ = try phone.purgeNotes(ids: [deleted.id])
        try await admin.engine(phone).sync()
        #expect(try await admin.server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
        // The laptop's fetch is refused for the purge; its listing is cut short.
        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .listingCut)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: cut, options: .init()).sync() }
        #expect(cut.injected == 1)
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        #expect(try laptop.note(id: note.id).body == "answered after the backup")
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        #expect(try tablet.store.note(id: note.id).body == "answered after the backup")
        await admin.stop()
    }

    /// Restoring seed 1937 of the simulation: a device healing a restored server sent
    /// everything again, and its fetch after was cut; the server was restored again (losing
    /// what the heal sent), and purged deletions. The heal's next fetch, which named no batch
    /// of this device's, did not notice the second restore: refused for the purge, the device
    /// listed everything and deleted as gone what the restore had lost (a folder made here,
    /// on no other device).
    @Test("a device whose heal is cut short notices the server restored again, and deletes nothing the restore lost")
    func aHealCutShortNoticesASecondRestore() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        _ = try laptop.createNote(NoteDraft(title: "Before", body: "in the backup"))
        try await admin.engine(laptop).sync()
        let phone = try Device("phone", server: admin.server, token: admin.token)
        try await phone.sync()
        try await admin.backUp()
        let after = try laptop.createNote(NoteDraft(title: "After", body: "made after the backup"))
        try await admin.engine(laptop).sync()
        try await admin.restore()

        // The heal: its first fetch is cut before anything goes up, then everything goes up
        // and the fetch after it is cut.
        for fault in [FaultyTransport.Fault.listingCut, .fetchCut] {
            let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), fault)
            await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: cut, options: .init()).sync() }
            #expect(cut.injected == 1)
        }
        #expect(try !laptop.hasPushableChanges())
        try await admin.restore()
        let temporary = try phone.store.createNote(NoteDraft(title: "Temporary"))
        try await phone.sync()
        _ = try phone.store.trashNotes(ids: [temporary.id])
        _ = try phone.store.purgeNotes(ids: [temporary.id])
        try await phone.sync()
        #expect(try await admin.server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        #expect(try laptop.note(id: after.id).body == "made after the backup")
        try await phone.sync()
        #expect(try phone.titles() == ["After", "Before"])
        await admin.stop()
    }

    /// Seed 7636 of the simulation: a note sent again for a restored server, its request lost,
    /// went up once more after another device had changed the note; taken for the note's
    /// creation, what it sent became the merge's base, and the edit after the backup was lost.
    @Test("a heal's batch whose request was lost, sent again after another device's edit, loses neither edit")
    func aHealsLostBatchLosesNoEdit() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let phone = try NoteStore.inMemory()
        try await admin.backUp()
        // Made after the backup: the restored server has never heard of the note.
        let note = try laptop.createNote(NoteDraft(title: "Plan", body: "first line"))
        try await admin.engine(laptop).sync()
        try await admin.engine(phone).sync()
        _ = try laptop.updateNote(id: note.id, body: "first line\nwritten after the backup")
        try await admin.engine(laptop).sync()
        try await admin.restore()

        // The laptop notices the restore and queues its notes again; the batch that sends them,
        // in the same sync, is lost.
        let cut = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .requestsLost)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: cut, options: .init()).sync() }
        #expect(cut.injected == 1)
        #expect(try laptop.inflightBatches().count == 1)
        _ = try phone.updateNote(id: note.id, body: "first line\nfrom the phone")
        try await admin.engine(phone).sync()
        try await admin.engine(laptop).sync()
        try await admin.engine(phone).sync()

        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        // Each edit is in the note, or in the conflict it left to resolve.
        let texts = try [laptop, phone, tablet.store].flatMap { store in
            try store.notes(NoteQuery(limit: 100)).map(\.body) + store.conflicts().flatMap { [$0.localBody, $0.serverBody] }
        }.joined(separator: "\n")
        #expect(texts.contains("written after the backup"), "the edit after the backup was lost")
        #expect(texts.contains("from the phone"), "the phone's edit was lost")
        await admin.stop()
    }

    @Test("a batch whose answer was lost goes up again after a restore with its files, which the restored server had lost")
    func aBatchSentAgainTakesItsFilesAlong() async throws {
        let admin = try await ServerOperator.start()
        try await admin.backUp()

        // The batch and its file reach the server; the answer never comes back.
        let laptop = try NoteStore.inMemory()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).txt")
        try Data("a photo".utf8).write(to: file)
        let note = try laptop.createNote(NoteDraft(title: "Trip"))
        _ = try laptop.attachFile(at: file, toNote: note.id)
        let lost = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .answersLost)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: lost, options: .init()).sync() }
        #expect(lost.injected == 1)
        #expect(try !laptop.inflightBatches().isEmpty)
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.uploadedFiles == 1)
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        let received = try await tablet.sync()
        #expect(received.errors == 0)
        #expect(received.downloadedFiles == 1)
        let attachment = try #require(try tablet.store.note(id: note.id).attachments.first)
        #expect(try Data(contentsOf: tablet.store.fileURL(for: attachment)) == Data("a photo".utf8))
        await admin.stop()
    }
}
