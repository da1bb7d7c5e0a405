import Foundation
import NoteTakerKit
import NoteTakerSync
import Testing

/// Every conflict case: both devices change the same note (or folder) offline, then sync.
@Suite("Conflicts")
struct ConflictTests {
    /// Creates a note on the first device and syncs it to both.
    private func shared(_ devices: [Device], _ draft: NoteDraft) async throws -> Note {
        let note = try devices[0].store.createNote(draft)
        try await devices[0].sync()
        try await devices[1].sync()
        return note
    }

    /// Syncs until both devices hold the same state.
    private func settle(_ devices: [Device]) async throws {
        for _ in 0..<2 {
            for device in devices { try await device.sync() }
        }
    }

    @Test("same property: local wins by default, server wins when chosen", arguments: [MergePolicy.localWins, .serverWins])
    func sameProperty(policy: MergePolicy) async throws {
        try await withDevices(2, policy: policy) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Original"))
            _ = try devices[0].store.updateNote(id: note.id, title: "From A")
            _ = try devices[1].store.updateNote(id: note.id, title: "From B")
            try await devices[0].sync()
            try await devices[1].sync()
            try await settle(devices)
            // B synced second: under local-wins its own title stays; under server-wins A's does.
            let expected = policy.name == "local-wins" ? "From B" : "From A"
            for device in devices { #expect(try device.store.note(id: note.id).title == expected) }
        }
    }

    @Test("different properties both survive")
    func differentProperties() async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Original", body: "text"))
            _ = try devices[0].store.updateNote(id: note.id, title: "Renamed")
            _ = try devices[1].store.setPinned(true, noteId: note.id)
            try await settle(devices)
            for device in devices {
                let seen = try device.store.note(id: note.id)
                #expect(seen.title == "Renamed" && seen.isPinned && seen.body == "text")
                #expect(seen.sync.status == .synced)
            }
        }
    }

    @Test("body edited on different lines: merged, nothing duplicated")
    func bodyMerged() async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "List", body: "one\ntwo\nthree\nfour\nfive"))
            _ = try devices[0].store.updateNote(id: note.id, body: "ONE\ntwo\nthree\nfour\nfive")
            _ = try devices[1].store.updateNote(id: note.id, body: "one\ntwo\nthree\nfour\nFIVE\nsix")
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).body == "ONE\ntwo\nthree\nfour\nFIVE\nsix")
                #expect(try device.allNotes().count == 1)
            }
            #expect(try devices[1].store.conflicts().isEmpty)
        }
    }

    @Test("same line: a conflict copy keeps the other version; resolving keeps the chosen one")
    func sameLine() async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Shopping", body: "milk\neggs"))
            _ = try devices[0].store.updateNote(id: note.id, body: "milk\nbrown eggs")
            _ = try devices[1].store.updateNote(id: note.id, body: "milk\nsix eggs")
            try await devices[0].sync()
            let report = try await devices[1].sync()
            #expect(report.conflicts == 1)
            let b = devices[1].store
            #expect(try b.note(id: note.id).body == "milk\nsix eggs")
            #expect(try b.note(id: note.id).sync.status == .conflict)
            let conflict = try #require(try b.conflicts().first)
            #expect(conflict.localBody == "milk\nsix eggs" && conflict.serverBody == "milk\nbrown eggs")
            let copyId = try #require(conflict.copyId)
            #expect(try b.note(id: copyId).body == "milk\nbrown eggs")
            #expect(try b.note(id: copyId).title.hasPrefix("Shopping (conflict copy"))
            try await settle(devices)
            // Both versions are on both devices.
            for device in devices {
                let bodies = Set(try device.allNotes().map(\.body))
                #expect(bodies == ["milk\nsix eggs", "milk\nbrown eggs"])
            }

            try b.resolveConflict(noteId: note.id, keep: .server)
            #expect(try b.conflicts().isEmpty)
            try await settle(devices)
            for device in devices {
                #expect(try device.allNotes().map(\.body) == ["milk\nbrown eggs"])
            }
            #expect(try b.note(id: note.id).sync.status == .synced)
        }
    }

    @Test("tag added on one device, another removed on the other: sets merge")
    func tagSets() async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Tagged", tags: ["Red", "Blue"]))
            _ = try devices[0].store.removeTags(["Red"], fromNote: note.id)
            _ = try devices[1].store.addTags(["Green"], toNote: note.id)
            try await settle(devices)
            for device in devices {
                #expect(Set(try device.store.note(id: note.id).tags) == ["Blue", "Green"])
            }
        }
    }

    @Test("an edit wins over a concurrent delete, whichever syncs first", arguments: [true, false])
    func editBeatsDelete(deleterFirst: Bool) async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Keep me", body: "v1"))
            _ = try devices[0].store.updateNote(id: note.id, body: "v2, edited")
            _ = try devices[1].store.trashNotes(ids: [note.id])
            _ = try devices[1].store.emptyTrash()
            let order = deleterFirst ? [devices[1], devices[0]] : devices
            for device in order { try await device.sync() }
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).body == "v2, edited")
            }
        }
    }

    @Test("renaming a tag's case changes no note, so it does not bring back a note deleted elsewhere")
    func tagCaseDoesNotBeatDelete() async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Gone soon", tags: ["Red", "Blue"]))
            let kept = try await shared(devices, NoteDraft(title: "Stays", tags: ["Red"]))
            _ = try devices[0].store.trashNotes(ids: [note.id])
            _ = try devices[0].store.emptyTrash()
            _ = try devices[1].store.renameTag("Red", to: "RED")
            #expect(try devices[1].store.pendingChanges().map(\.recordType) == [.tag])
            for device in devices.reversed() { try await device.sync() }
            try await settle(devices)
            for device in devices {
                #expect(throws: NoteTakerError.self, "\(device.name) has the deleted note back") { try device.store.note(id: note.id) }
                #expect(try device.store.note(id: kept.id).tags == ["RED"], "\(device.name)")
            }
        }
    }

    @Test("a tag's change of case and its deletion on another device: the tag is gone, from every note", arguments: [true, false])
    func tagDeletionBeatsCaseChange(deletingDeviceSyncsFirst: Bool) async throws {
        try await withDevices(2) { devices, _ in
            let note = try await shared(devices, NoteDraft(title: "Tagged", tags: ["Red"]))
            try devices[0].store.deleteTag("Red")
            _ = try devices[1].store.renameTag("Red", to: "RED")
            for device in deletingDeviceSyncsFirst ? devices : devices.reversed() { try await device.sync() }
            try await settle(devices)
            for device in devices {
                #expect(try device.store.tags().isEmpty, "\(device.name) has the deleted tag back")
                #expect(try device.store.note(id: note.id).tags.isEmpty, "\(device.name)")
            }
        }
    }

    /// Seed 5425181 of the simulation: a device that had not seen the tag made it again by
    /// tagging a note; that creation went up as an edit and the deletion lost to it, so a
    /// note the deleting device had seen tagged kept the deleted tag.
    @Test("a tag made again on a device that had not seen it does not beat its deletion", arguments: [true, false])
    func tagDeletionBeatsItsCreationElsewhere(creatingDeviceSyncsFirst: Bool) async throws {
        try await withDevices(3) { devices, _ in
            let (maker, deleter, late) = (devices[0], devices[1], devices[2])
            let tagged = try maker.store.createNote(NoteDraft(title: "Tagged", tags: ["Green"]))
            try await maker.sync()
            try await deleter.sync()
            let own = try late.store.createNote(NoteDraft(title: "Tagged late", tags: ["green"]))
            try deleter.store.deleteTag("Green")
            for device in creatingDeviceSyncsFirst ? [late, deleter] : [deleter, late] { try await device.sync() }
            for _ in 0..<2 {
                for device in devices { try await device.sync() }
            }
            for device in devices {
                #expect(try device.store.tags().isEmpty, "\(device.name) has the deleted tag back")
                #expect(try device.store.note(id: tagged.id).tags.isEmpty, "\(device.name)")
                #expect(try device.store.note(id: own.id).tags.isEmpty, "\(device.name)")
            }
        }
    }

    /// Seed 44 of the simulation (with the rule above): a tag made again after its deletion
    /// was seen, here or on the device that deleted it, is a new version and stays.
    @Test("a tag made again after its deletion was seen stays", arguments: [true, false])
    func tagMadeAgainAfterItsDeletionStays(onTheDeletingDevice: Bool) async throws {
        try await withDevices(2) { devices, _ in
            let (deleter, other) = (devices[0], devices[1])
            _ = try await shared(devices, NoteDraft(title: "Tagged", tags: ["Green"]))
            try deleter.store.deleteTag("Green")
            try await deleter.sync()
            try await other.sync()
            let maker = onTheDeletingDevice ? deleter : other
            let again = try maker.store.createNote(NoteDraft(title: "Tagged again", tags: ["Green"]))
            try await settle(devices)
            for device in devices {
                #expect(try device.store.tags().map(\.tag.name) == ["Green"], "\(device.name) lost the tag made again")
                #expect(try device.store.note(id: again.id).tags == ["Green"], "\(device.name)")
            }
        }
    }

    /// Seed 7074 of the simulation: the tag made again hid its deletion from a device that
    /// had the tag from before, and a note that device's edit brought back kept it. Seed 596
    /// of the converting run (`deletionWentUp: false`): made again before its deletion went
    /// up, the tag's save took the deletion's place in the outbox, and no deletion went up.
    @Test("a tag deleted and made again: a device that had it from before takes it off its notes, also one its edit brought back",
          arguments: [true, false])
    func tagMadeAgainStillDeletedOnDevicesBehind(deletionWentUp: Bool) async throws {
        try await withDevices(2) { devices, _ in
            let (deleter, behind) = (devices[0], devices[1])
            let note = try await shared(devices, NoteDraft(title: "Brought back", tags: ["Red"]))
            _ = try deleter.store.trashNotes(ids: [note.id])
            _ = try deleter.store.emptyTrash()
            try deleter.store.deleteTag("Red")
            if deletionWentUp { try await deleter.sync() }
            let again = try deleter.store.createNote(NoteDraft(title: "Tagged again", tags: ["Red"]))
            try await deleter.sync()
            _ = try behind.store.updateNote(id: note.id, title: "Edited meanwhile")
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).tags.isEmpty, "\(device.name) kept the deleted tag on the note brought back")
                #expect(try device.store.note(id: note.id).title == "Edited meanwhile", "\(device.name)")
                #expect(try device.store.note(id: again.id).tags == ["Red"], "\(device.name)")
            }
        }
    }

    /// Seeds 5695 and 6125 of the simulation: a device behind took the tag made again off a
    /// note tagged again after the deletion, whose version its own pending change of the note
    /// had just merged in (with another tag's deletion in 5695, whose note went up first; with
    /// a change of the tag's case in 6125, whose answer brought the tag made again in the
    /// same push).
    @Test("a tag deleted and made again: a note tagged again after the deletion keeps the tag on a device that never saw it",
          arguments: [false, true])
    func noteTaggedAgainKeepsTheTagMadeAgain(behindChangesTheTag: Bool) async throws {
        try await withDevices(3) { devices, _ in
            let (deleter, tagger, behind) = (devices[0], devices[1], devices[2])
            let again = try await shared(devices, NoteDraft(title: "Tagged again", tags: ["Red", "Blue"]))
            let once = try await shared(devices, NoteDraft(title: "Tagged once", tags: ["Red"]))
            try await behind.sync()
            try deleter.store.deleteTag("Red")
            try await deleter.sync()
            try await tagger.sync()
            _ = try tagger.store.addTags(["Red"], toNote: again.id)
            try await tagger.sync()
            if behindChangesTheTag {
                _ = try behind.store.renameTag("Red", to: "RED")
                _ = try behind.store.updateNote(id: again.id, title: "Tagged again, retitled")
            } else {
                try behind.store.deleteTag("Blue")
            }
            try await behind.sync()
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: again.id).tags.map { $0.lowercased() } == (behindChangesTheTag ? ["blue", "red"] : ["red"]),
                        "\(device.name) lost the tag given again after the deletion")
                #expect(try device.store.note(id: once.id).tags.isEmpty, "\(device.name) kept the deleted tag")
            }
        }
    }

    /// Seed 5973339 of the simulation (`makerHeldTheNote: false`): a device received a note
    /// tagged from before the tag's deletion, which it had seen, and kept the reference
    /// waiting; tagged again with the tag made again, the note read as tagged in its base as
    /// here, and its merge with the version the tagger sent without the tag took it off.
    /// With `makerHeldTheNote`, the device took the tag off the note it held as the deletion
    /// arrived, and its base kept the tag the same way.
    @Test("a note tagged with a tag made again keeps it, though its base had the tag from before the deletion",
          arguments: [true, false])
    func noteTaggedWithTheTagMadeAgainKeepsIt(makerHeldTheNote: Bool) async throws {
        try await withDevices(3) { devices, _ in
            let (deleter, tagger, maker) = (devices[0], devices[1], devices[2])
            let scratch = try deleter.store.createNote(NoteDraft(title: "Scratch", tags: ["Red"]))
            try await deleter.sync()
            try await tagger.sync()
            let note = try tagger.store.createNote(NoteDraft(title: "Tagged", tags: ["Red"]))
            try await tagger.sync()
            if makerHeldTheNote { try await maker.sync() }
            _ = try deleter.store.trashNotes(ids: [scratch.id])
            _ = try deleter.store.emptyTrash()
            try deleter.store.deleteTag("Red")
            // The deletion goes up; the note, which the deleter does not hold, stays tagged on
            // the server, and no note the maker holds changes with it (which would merge).
            let cut = FaultyTransport(deleter.transport, .fetchCut)
            await #expect(throws: SyncError.self) {
                try await SyncEngine(store: deleter.store, transport: cut, options: .init(policy: .localWins)).sync()
            }
            try await maker.sync()
            try await tagger.sync()
            _ = try tagger.store.updateNote(id: note.id, title: "Edited")
            try await tagger.sync()
            _ = try maker.store.addTags(["Red"], toNote: note.id)
            try await maker.sync()
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).tags == ["Red"], "\(device.name) lost the tag given again after the deletion")
                #expect(try device.store.note(id: note.id).title == "Edited", "\(device.name)")
            }
        }
    }

    /// Seed 5973423 of the simulation: a tag deleted and made again before its deletion went
    /// up, a note tagged with it goes up first, the tag after; a device that merged that
    /// note's version in its push, then pulled the deletion, took the tag off the note and
    /// sent it so, though the note was tagged after the deletion.
    @Test("a note tagged after a tag's deletion keeps it on a device that learns of the deletion after merging the note")
    func noteTaggedAfterTheDeletionKeepsItOnAMergingDevice() async throws {
        try await withDevices(2) { devices, _ in
            let (maker, behind) = (devices[0], devices[1])
            let note = try await shared(devices, NoteDraft(title: "Tagged", tags: ["Work"]))
            _ = try behind.store.updateNote(id: note.id, title: "Retitled behind")
            try maker.store.deleteTag("Work")
            _ = try maker.store.addTags(["Work"], toNote: note.id)
            try await maker.sync()
            try await behind.sync()
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).tags == ["Work"], "\(device.name) lost the tag given again after the deletion")
                #expect(try device.store.note(id: note.id).title == "Retitled behind", "\(device.name)")
            }
        }
    }

    /// Converting seed 789: the device behind sent its edit of the note again (its first
    /// request lost), met the note tagged again, merged, and sent the merge in the same push,
    /// before the pull brought the tag made again; the version it sent counted as carrying no
    /// tag from elsewhere, and it took the tag off.
    @Test("a tag deleted and made again: a device behind that sends its merge of a note tagged again before the tag arrives keeps the tag on it")
    func mergeSentBeforeTheTagMadeAgainArrives() async throws {
        try await withDevices(3) { devices, _ in
            let (deleter, tagger, behind) = (devices[0], devices[1], devices[2])
            let note = try await shared(devices, NoteDraft(title: "Tagged again", tags: ["Red"]))
            try await behind.sync()
            _ = try behind.store.updateNote(id: note.id, title: "Retitled behind")
            let cut = FaultyTransport(behind.transport, .requestsLost)
            await #expect(throws: SyncError.self) {
                try await SyncEngine(store: behind.store, transport: cut, options: .init(policy: .localWins)).sync()
            }
            try deleter.store.deleteTag("Red")
            try await deleter.sync()
            try await tagger.sync()
            _ = try tagger.store.addTags(["Red"], toNote: note.id)
            try await tagger.sync()
            try await behind.sync()
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).tags == ["Red"], "\(device.name) lost the tag given again after the deletion")
                #expect(try device.store.note(id: note.id).title == "Retitled behind", "\(device.name)")
            }
        }
    }

    /// Seed 1546 of the simulation: an edit sent against a deletion, its request lost, went up
    /// again after another device's edit had brought the note back; merged against what it
    /// had sent as though the server held it, the edit was taken for unchanged and lost.
    @Test("an edit sent again against a deletion, after another edit brought the note back, keeps both edits")
    func editSentAgainAgainstADeletionKeepsBothEdits() async throws {
        try await withDevices(3) { devices, _ in
            let (deleter, first, second) = (devices[0], devices[1], devices[2])
            let note = try await shared(devices, NoteDraft(title: "Plan", body: "start"))
            try await second.sync()
            _ = try deleter.store.trashNotes(ids: [note.id])
            _ = try deleter.store.purgeNotes(ids: [note.id])
            try await deleter.sync()
            // The edit meets the deletion and goes up again against it: that request is lost.
            _ = try first.store.updateNote(id: note.id, body: "start\nfrom the first")
            let cut = FaultyTransport(first.transport, .secondBatchLost)
            await #expect(throws: SyncError.self) {
                try await SyncEngine(store: first.store, transport: cut, options: .init(policy: .localWins)).sync()
            }
            #expect(cut.injected == 1)
            _ = try second.store.updateNote(id: note.id, body: "start\nfrom the second")
            try await second.sync()
            try await settle(devices)
            for device in devices {
                let texts = try device.allNotes().map(\.body)
                #expect(texts.contains { $0.contains("from the first") }, "\(device.name) lost the first edit")
                #expect(texts.contains { $0.contains("from the second") }, "\(device.name) lost the second edit")
            }
        }
    }

    /// Seed 2106 of the simulation: a third device moved the subfolder up when the deletion
    /// of its parent reached it; before, that brought back the subfolder deleted meanwhile.
    @Test("a subfolder deleted on one device stays deleted though its parent's deletion moved it up elsewhere",
          arguments: [false, true])
    func movedUpFolderStaysDeleted(movedUpByAThirdDevice: Bool) async throws {
        try await withDevices(3) { devices, _ in
            let parent = try devices[0].store.createFolder(name: "Parent")
            let child = try devices[0].store.createFolder(name: "Child", parentId: parent.id)
            for device in devices { try await device.sync() }
            try devices[0].store.deleteFolder(id: child.id)
            try devices[1].store.deleteFolder(id: parent.id)
            try await devices[1].sync()
            if movedUpByAThirdDevice { try await devices[2].sync() }
            try await settle(devices)
            for device in devices {
                #expect(try device.store.folderTree().isEmpty, "\(device.name) has a deleted folder back")
            }
        }
    }

    @Test("an edit of a subfolder moved up still wins over its deletion")
    func editedFolderBeatsDeletion() async throws {
        try await withDevices(2) { devices, _ in
            let parent = try devices[0].store.createFolder(name: "Parent")
            try await devices[0].sync()
            try await devices[1].sync()
            let child = try devices[1].store.createFolder(name: "Child", parentId: parent.id)
            try await devices[1].sync()
            try devices[0].store.deleteFolder(id: parent.id)
            try await devices[0].sync()
            _ = try devices[0].store.renameFolder(id: child.id, to: "Renamed")
            try await devices[0].sync()
            try devices[1].store.deleteFolder(id: child.id)
            try await settle(devices)
            for device in devices {
                #expect(try device.store.folder(id: child.id).name == "Renamed", "\(device.name)")
            }
        }
    }

    @Test("a note moved into a folder deleted elsewhere survives, unfiled")
    func moveIntoDeletedFolder() async throws {
        try await withDevices(2) { devices, _ in
            let folder = try devices[0].store.createFolder(name: "Old")
            let note = try await shared(devices, NoteDraft(title: "Wanderer"))
            _ = try devices[1].store.moveNote(id: note.id, toFolder: folder.id)
            try devices[0].store.deleteFolder(id: folder.id)
            try await settle(devices)
            for device in devices {
                #expect(try device.store.note(id: note.id).folderId == nil)
                #expect(try device.store.folderTree().isEmpty)
            }
        }
    }

    @Test("two devices each changing a note deleted elsewhere keep both changes, merged against the version they changed")
    func twoRevivalsMerge() async throws {
        try await withLiveServer { server, token in
            let devices = try ["laptop", "phone", "tablet"].map { try Device($0, server: server, token: token) }
            let note = try devices[0].store.createNote(NoteDraft(title: "Plan", body: "one"))
            for device in devices { try await device.sync() }
            _ = try devices[0].store.trashNotes(ids: [note.id])
            _ = try devices[0].store.purgeNotes(ids: [note.id])
            try await devices[0].sync()
            // The tablet pins it: its change meets the deletion and is to go up against it, but
            // its next batch never arrives.
            _ = try devices[2].store.setPinned(true, noteId: note.id)
            let lost = FaultyTransport(try HTTPSyncTransport(server: server.url, token: token), .secondBatchLost)
            await #expect(throws: SyncError.self) { try await SyncEngine(store: devices[2].store, transport: lost, options: .init()).sync() }
            // The phone retitles it and brings it back first.
            _ = try devices[1].store.updateNote(id: note.id, title: "Plan B")
            try await devices[1].sync()
            try await settle(devices)
            for device in devices {
                let kept = try device.store.note(id: note.id)
                #expect(kept.title == "Plan B" && kept.isPinned, "both changes kept on \(device.name)")
            }
        }
    }

    @Test("two devices making folders into each other's parents end with no cycle, the same on both")
    func folderCycle() async throws {
        try await withDevices(2) { devices, _ in
            let (shown, inside) = try await makeFolderCycle(devices)
            for device in devices {
                #expect(try device.store.folder(id: shown).parentId == nil)
                #expect(try device.store.folder(id: inside).parentId == shown)
                #expect(try device.store.folderTree().count == 1)
            }
        }
    }

    @Test("a folder shown at the top level to break a cycle goes back where it was moved once a later move undoes the cycle")
    func folderCycleUndone() async throws {
        try await withDevices(2) { devices, _ in
            let (shown, inside) = try await makeFolderCycle(devices)
            // Someone takes the other folder out to the top level: no cycle is left, and the
            // move that put `shown` under it holds.
            _ = try devices[1].store.moveFolder(id: inside, toParent: nil)
            #expect(try devices[1].store.folder(id: shown).parentId == inside)
            try await settle(devices)
            for device in devices {
                #expect(try device.store.folder(id: shown).parentId == inside)
                #expect(try device.store.folder(id: inside).parentId == nil)
            }
        }
    }

    @Test("a folder shown at the top level to break a cycle stays there once the folder it was moved into is deleted")
    func folderCycleMemberDeleted() async throws {
        try await withDevices(2) { devices, _ in
            let (shown, inside) = try await makeFolderCycle(devices)
            try devices[0].store.deleteFolder(id: inside)
            try await settle(devices)
            for device in devices {
                #expect(try device.store.folder(id: shown).parentId == nil)
                #expect(try device.store.folderTree().map(\.folder.id) == [shown])
            }
        }
    }

    /// Two folders, each moved into the other on one of two devices, settled: the cycle is
    /// broken at the smallest id, `shown` at the top level with `inside` under it.
    private func makeFolderCycle(_ devices: [Device]) async throws -> (shown: UUID, inside: UUID) {
        let first = try devices[0].store.createFolder(name: "First")
        let second = try devices[0].store.createFolder(name: "Second")
        try await devices[0].sync()
        try await devices[1].sync()
        _ = try devices[0].store.moveFolder(id: first.id, toParent: second.id)
        _ = try devices[1].store.moveFolder(id: second.id, toParent: first.id)
        try await settle(devices)
        return first.id.key < second.id.key ? (first.id, second.id) : (second.id, first.id)
    }
}
