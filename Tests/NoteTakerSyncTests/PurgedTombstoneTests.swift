import Foundation
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol
import Testing

/// A device away for longer than the server keeps deletions learns them all the same: the
/// server refuses its old position, and the device lists everything again and deletes what is
/// gone, keeping what it changed meanwhile.
@Suite("Deletions the server purged")
struct PurgedTombstoneTests {
    /// Deletes `note` on `device` for good, syncs, and lets the server purge its tombstone.
    private func deleteAndPurge(_ note: Note, on device: Device, _ server: LiveServer) async throws {
        #expect(try device.store.trashNotes(ids: [note.id]) == 1)
        #expect(try device.store.purgeNotes(ids: [note.id]) == 1)
        try await device.sync()
        #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
    }

    /// A sync of `device` that `fault` cuts short, once.
    private func syncCut(_ device: Device, _ fault: FaultyTransport.Fault) async throws {
        let cut = FaultyTransport(device.transport, fault)
        await #expect(throws: SyncError.self) {
            try await SyncEngine(store: device.store, transport: cut, options: .init(policy: .localWins)).sync()
        }
        #expect(cut.injected == 1)
    }

    @Test("a device back from before a purge deletes what was deleted elsewhere and keeps what it edited")
    func deviceBackFromBeforeAPurge() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Old projects")
            let kept = try a.store.createNote(NoteDraft(title: "Kept", body: "stays", tags: ["keep"]))
            let filed = try a.store.createNote(NoteDraft(title: "Filed", folderId: folder.id))
            let deleted = try a.store.createNote(NoteDraft(title: "Deleted"))
            let edited = try a.store.createNote(NoteDraft(title: "Edited away", body: "first"))
            _ = try a.store.addTags(["old-tag"], toNote: deleted.id)
            try await a.sync()
            try await b.sync()
            #expect(try b.titles() == ["Deleted", "Edited away", "Filed", "Kept"])

            // B is away. A deletes two notes, the folder and a tag; B edits one of those notes.
            #expect(try a.store.trashNotes(ids: [deleted.id, edited.id]) == 2)
            #expect(try a.store.purgeNotes(ids: [deleted.id, edited.id]) == 2)
            try a.store.deleteFolder(id: folder.id)
            try a.store.deleteTag("old-tag")
            try await a.sync()
            _ = try b.store.updateNote(id: edited.id, body: "first, and more written while away")

            // Months later every device's session has been idle past its life: the tombstones go.
            let purged = try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400))
            #expect(purged.tombstones == 4, "two notes, the folder and the tag: \(purged)")

            try await b.sync()
            #expect(try b.titles() == ["Edited away", "Filed", "Kept"])
            #expect(try b.store.folderTree().isEmpty, "the deleted folder is gone")
            #expect(try b.store.tags().map(\.tag.name) == ["keep"])
            #expect(try b.store.note(id: filed.id).folderId == nil)
            #expect(try b.store.note(id: kept.id).tags == ["keep"])
            #expect(try b.store.note(id: edited.id).body == "first, and more written while away")

            // The edit went up again: an edit outranks a deletion, as anywhere in sync.
            try await a.sync()
            #expect(try a.titles() == ["Edited away", "Filed", "Kept"])
            #expect(try a.store.note(id: edited.id).body == "first, and more written while away")
            let again = try await b.sync()
            #expect(again.pulled == 0, "the listing is over: the next sync fetches from where it ended")
        }
    }

    /// Seed 7184 of the simulation: a device whose first batch went up (its answer lost, then
    /// given again) had never fetched; the folder it sent was deleted elsewhere and the
    /// deletion purged, and its first fetch from nothing kept the folder for ever.
    /// Seed 3237: the same, for a device whose only fetch was of the account empty.
    @Test("a device that sent records before it ever fetched (or fetched the account empty) learns of their deletions purged since",
          arguments: [false, true])
    func deviceThatNeverFetchedLearnsPurgedDeletions(fetchedEmpty: Bool) async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            if fetchedEmpty {
                try await a.sync()
                #expect(try a.store.pullsFromScratch(), "a fetch of nothing keeps no token")
            }
            let folder = try a.store.createFolder(name: "Sent, never fetched")
            let note = try a.store.createNote(NoteDraft(title: "Also sent", folderId: folder.id))
            try await syncCut(a, .fetchCut)
            try await b.sync()
            #expect(try b.store.folderTree().map(\.folder.name) == ["Sent, never fetched"])
            try b.store.deleteFolder(id: folder.id)
            try await b.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)

            try await a.sync()
            #expect(try a.store.folderTree().isEmpty, "the folder deleted elsewhere is gone")
            #expect(try a.titles() == ["Also sent"])
            #expect(try a.store.note(id: note.id).folderId == nil)
        }
    }

    /// Seed 7852 of the simulation: a note's creation, its answer lost and forgotten by a purge,
    /// went up again after another device had changed the note; merged with no base, the tag
    /// taken off here since came back.
    @Test("a creation sent again after a purge forgot its answer merges from what it sent: what was taken out here since stays out")
    func creationSentAgainMergesFromWhatItSent() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "Made here", body: "first line\nsecond line", tags: ["draft"]))
            let lost = FaultyTransport(a.transport, .answersLost)
            await #expect(throws: SyncError.self) {
                try await SyncEngine(store: a.store, transport: lost, options: .init(policy: .localWins)).sync()
            }
            try await b.sync()
            _ = try b.store.updateNote(id: note.id, title: "Retitled elsewhere")
            let gone = try b.store.createNote(NoteDraft(title: "Gone"))
            try await b.sync()
            try await deleteAndPurge(gone, on: b, server)
            _ = try a.store.removeTags(["draft"], fromNote: note.id)
            _ = try a.store.updateNote(id: note.id, body: "first line")

            try await a.sync()
            try await b.sync()
            for device in devices {
                let now = try device.store.note(id: note.id)
                #expect(now.tags.isEmpty, "\(device.name): the tag taken off came back")
                #expect(now.title == "Retitled elsewhere", "\(device.name)")
                #expect(now.body == "first line", "\(device.name): the line taken out came back")
            }
            #expect(try a.store.conflicts().isEmpty)
        }
    }

    /// Seed 9206 of the simulation: the listing took a deleted tag off a note deleted elsewhere
    /// (its deletion purged), and that change, made by the software, brought the note back.
    @Test("a note deleted elsewhere stays deleted though the listing's own deletion of a tag changed it here")
    func derivedChangeYieldsToAPurgedDeletion() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "Deleted", tags: ["work"]))
            let kept = try a.store.createNote(NoteDraft(title: "Kept"))
            try await a.sync()
            try await b.sync()
            try await deleteAndPurge(note, on: a, server)
            try a.store.deleteTag("work")
            try await a.sync()

            try await b.sync()
            try await a.sync()
            for device in devices {
                #expect(try device.titles() == ["Kept"], "\(device.name) has the deleted note back")
                #expect(try device.store.tags().isEmpty, "\(device.name)")
            }
            #expect(try b.store.note(id: kept.id).title == "Kept")
        }
    }

    /// Seed 907 of the sealed simulation: a device rotated the keys, so everything it held was
    /// queued to go up sealed anew (derived saves); meanwhile another device deleted a folder,
    /// and the server purged the tombstone before the re-seal came. The re-seal, sent before
    /// the device fetched (and learned of the purge), made the folder again.
    @Test("a re-seal sent after the server purged a deletion this device missed yields to it: the folder stays deleted everywhere")
    func resealAfterAPurgeYields() async throws {
        try await SealedSyncTests.withSealedDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Old projects")
            let filed = try a.store.createNote(NoteDraft(title: "Filed", body: "stays", folderId: folder.id))
            try await a.sync()
            try await b.sync()
            #expect(try a.store.queueResealing(keyVersion: 1) == 2, "the folder and the note go up again")
            try b.store.deleteFolder(id: folder.id)
            try await b.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)

            let report = try await a.sync()
            #expect(report.errors == 0, "\(report)")
            try await b.sync()
            for device in devices {
                #expect(try device.store.folderTree().isEmpty, "\(device.name) has the deleted folder back")
                #expect(try device.store.note(id: filed.id).folderId == nil, "\(device.name)")
                #expect(try device.store.note(id: filed.id).body == "stays", "\(device.name)")
            }
            let records = try await SealedSyncTests.serverRecords(server)
            #expect(!records.contains { $0.recordId == folder.id && !$0.deleted }, "the server holds the folder again")
            #expect(records.contains { $0.recordId == filed.id && !$0.deleted })
        }
    }

    /// Seed 1337 of the sealed simulation: a device's folder went up, its answer lost; another
    /// device deleted the folder and the server purged the tombstone. The batch, sent again,
    /// was decided anew against no record and made the folder again (sealed, a device that had
    /// seen a later revision held the one made again as a replay, for good). Renamed here since,
    /// the folder comes back, as an edit outranks a deletion.
    @Test("a folder made here, its answer lost, deleted elsewhere and the deletion purged, is not made again by its batch sent again; renamed here since, it is",
          arguments: [false, true])
    func creationSentAgainAfterItsDeletionWasPurged(renamedSince: Bool) async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Made here")
            let lost = FaultyTransport(a.transport, .answersLost)
            await #expect(throws: SyncError.self) {
                try await SyncEngine(store: a.store, transport: lost, options: .init(policy: .localWins)).sync()
            }
            try await b.sync()
            #expect(try b.store.folderTree().map(\.folder.name) == ["Made here"])
            try b.store.deleteFolder(id: folder.id)
            try await b.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)
            if renamedSince { _ = try a.store.renameFolder(id: folder.id, to: "Renamed here") }

            let report = try await a.sync()
            #expect(report.errors == 0, "\(report)")
            try await b.sync()
            for device in devices {
                #expect(try device.store.folderTree().map(\.folder.name) == (renamedSince ? ["Renamed here"] : []), "\(device.name)")
            }
            let records = try await SealedSyncTests.serverRecords(server)
            #expect(records.contains { $0.recordId == folder.id && !$0.deleted } == renamedSince)
        }
    }

    /// Seed 1013 of the simulation: a tag made again (by tagging a note) on a device that had
    /// seen its deletion goes up based on that deletion, as a save the software made; once the
    /// server had purged the tombstone, it was taken for a re-seal of a deleted record and
    /// answered with the deletion, and the tag was gone from the note just tagged.
    @Test("a tag made again over a deletion whose tombstone the server purged since is kept: it was based on the deletion, not on a version before it")
    func tagMadeAgainAfterAPurgeStays() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let first = try a.store.createNote(NoteDraft(title: "First", tags: ["Green"]))
            let later = try a.store.createNote(NoteDraft(title: "Deleted later"))
            try await a.sync()
            try await b.sync()
            try a.store.deleteTag("Green")
            try await a.sync()
            try await b.sync()
            #expect(try b.store.tags().isEmpty)
            // A deletion after the tag's: the purge goes past the tag's tombstone.
            #expect(try a.store.trashNotes(ids: [later.id]) == 1 && a.store.purgeNotes(ids: [later.id]) == 1)
            try await a.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 2)

            let second = try b.store.createNote(NoteDraft(title: "Second", tags: ["Green"]))
            let report = try await b.sync()
            #expect(report.errors == 0, "\(report)")
            try await a.sync()
            for device in devices {
                #expect(try device.store.tags().map(\.tag.name) == ["Green"], "\(device.name) lost the tag made again")
                #expect(try device.store.note(id: second.id).tags == ["Green"], "\(device.name)")
                #expect(try device.store.note(id: first.id).tags.isEmpty, "\(device.name)")
            }
        }
    }

    @Test("a listing cut short, then a note edited and sent: the listing names the device's own changes too, and the note stays")
    func listingKeepsTheDevicesOwnChanges() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let gone = try a.store.createNote(NoteDraft(title: "Gone"))
            let mine = try a.store.createNote(NoteDraft(title: "Mine", body: "first"))
            try await a.sync()
            try await b.sync()
            try await deleteAndPurge(gone, on: a, server)

            // B learns of the purge, and the network goes before the listing's first page.
            try await syncCut(b, .listingCut)
            // Then B edits a note and syncs: the edit goes up first, and the listing goes on.
            _ = try b.store.updateNote(id: mine.id, body: "written on B during the listing")
            try await b.sync()
            #expect(try b.titles() == ["Mine"])
            #expect(try b.store.note(id: mine.id).body == "written on B during the listing")
            try await a.sync()
            #expect(try a.titles() == ["Mine"])
        }
    }

    /// Seed 6449 of the simulation: the listing went on from its first page's token, past a
    /// deletion purged meanwhile, and kept the folder deleted elsewhere for ever.
    @Test("a listing cut short goes on only if nothing was purged past where it stopped; else it starts again, and finds the deletion")
    func listingCutShortThenAnotherPurge() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Soon deleted")
            let gone = try a.store.createNote(NoteDraft(title: "Gone"))
            _ = try a.store.createNote(NoteDraft(title: "Kept"))
            try await a.sync()
            try await b.sync()
            try await deleteAndPurge(gone, on: a, server)

            // B learns of the purge and lists everything; the network goes after the first page.
            try await syncCut(b, .listingCutAfterFirstPage)
            // Meanwhile A deletes the folder B's listing already crossed off, and that goes too.
            try a.store.deleteFolder(id: folder.id)
            try await a.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(200 * 86_400)).tombstones == 1)

            try await b.sync()
            #expect(try b.store.folderTree().isEmpty, "the folder deleted and purged while the listing waited is gone")
            #expect(try b.titles() == ["Kept"])
            #expect(try a.titles() == ["Kept"] && a.store.folderTree().isEmpty)
        }
    }

    @Test("what the listing would delete counts against the mass-deletion limit: it stops and asks, and goes on when allowed")
    func listingAsksBeforeManyDeletions() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let ids = try (0..<60).map { try a.store.createNote(NoteDraft(title: "n\($0)")).id }
            _ = try a.store.createNote(NoteDraft(title: "Kept"))
            try await a.sync()
            try await b.sync()
            _ = try a.store.trashNotes(ids: ids)
            _ = try a.store.emptyTrash()
            try await a.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 60)

            await #expect(throws: SyncError.massDeletion(count: 60)) { try await b.sync() }
            #expect(try b.allNotes().count == 61, "nothing was deleted before asking")
            await #expect(throws: SyncError.massDeletion(count: 60)) { try await b.sync() }
            await b.engine.allowMassDeletion(true)
            try await b.sync()
            #expect(try b.titles() == ["Kept"])
        }
    }

    @Test("a first sync of more than a page (1,000 records) after a purge fetches everything once, page by page")
    func firstSyncAfterAPurge() async throws {
        try await withDevices(1) { devices, server in
            let a = devices[0]
            for index in 0..<1010 { _ = try a.store.createNote(NoteDraft(title: "note \(index)")) }
            let gone = try a.store.createNote(NoteDraft(title: "gone"))
            try await a.sync()
            _ = try a.store.trashNotes(ids: [gone.id])
            _ = try a.store.purgeNotes(ids: [gone.id])
            try await a.sync()
            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones == 1)

            let laptop = try Device("laptop", server: server, token: a.transport.token ?? "")
            let report = try await laptop.sync()
            #expect(report.pulled == 1010, "every page answered, none fetched twice: \(report)")
            #expect(try laptop.store.statistics().notes == 1010)
        }
    }
}
