import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Moving a note into an existing shared folder and out of it again (docs/sharing.md §3.5),
/// through the real server on loopback: its tags, file and whole history go with it (the
/// versions the server kept too), members get it and lose it, the owner's other device
/// follows, and every refused move changes nothing.
@Suite struct SharedNoteMoveTests {
    private typealias Devices = SharedFolderTests

    @Test("a note moved into a shared folder reaches its members with its tags, file and history; moved out, it is private again everywhere")
    func moveInAndOut() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Devices.device("ines", on: server)
            let bob = try await Devices.device("bob", on: server)
            try laptop.setDeviceName("ines's laptop")
            let trip = try laptop.createFolder(name: "Trip")
            let zone = try await laptop.shareFolder(trip.id, with: [("bob", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()

            // A note of ines's with a tag and a file, edited once after it first went up: the
            // server keeps its first text as a version her phone never held.
            let packing = try laptop.createNote(NoteDraft(title: "Packing", body: "Boots", tags: ["travel"]))
            try await Devices.sync(laptop)
            _ = try laptop.updateNote(id: packing.id, body: "Boots, rain coat")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("list-\(UUID()).txt")
            try Data("the list".utf8).write(to: file)
            _ = try laptop.attachFile(at: file, toNote: packing.id)
            try await Devices.sync(laptop)
            let phone = try await Devices.device("ines", on: server, registering: false)
            try await Devices.sync(phone)
            #expect(try phone.history(noteId: packing.id).isEmpty, "the phone holds none of the note's history yet")

            // The phone moves it into the shared folder: the server's version comes with it.
            let moved = try await phone.moveNote(packing.id, from: nil, to: zone, folder: nil)
            #expect(moved.folderId == trip.id, "into the shared folder's top")
            #expect(throws: NoteTakerError.self) { try phone.note(id: packing.id) }
            let phoneZone = try phone.sharedZoneStore(zone)
            #expect(try phoneZone.history(noteId: packing.id, withBodies: true).map(\.body).contains("Boots"))
            try await Devices.sync(phone)

            try await Devices.sync(bob)
            let bobs = try bob.sharedZoneStore(zone)
            #expect(try bobs.note(id: packing.id).body == "Boots, rain coat")
            // Bob reads the history from the server, sealed for the share: the phone gave it.
            let bobsHistory = try await bob.completeSharedHistory(zone: zone, noteId: packing.id)
            #expect(bobsHistory.serverProblem == nil)
            let earlier = try #require(bobsHistory.versions.first)
            #expect(try bobs.version(earlier.id, of: packing.id).body == "Boots", "\(bobsHistory.versions)")
            #expect(earlier.device == "ines's laptop", "the version names the device that wrote it")
            #expect(try bobs.note(id: packing.id).tags == ["travel"])
            let attachment = try #require(try bobs.attachments(noteId: packing.id).first)
            #expect(try Data(contentsOf: bobs.fileURL(for: attachment)) == Data("the list".utf8))
            // The laptop takes it as a move: out of ines's own notes, into the share's.
            try await Devices.sync(laptop)
            #expect(throws: NoteTakerError.self) { try laptop.note(id: packing.id) }
            #expect(try laptop.sharedZoneStore(zone).note(id: packing.id).body == "Boots, rain coat")

            // Bob adds a line; ines's laptop moves the note out to her own notes.
            _ = try bobs.updateNote(id: packing.id, body: "Boots, rain coat, map")
            try await Devices.sync(bob)
            try await Devices.sync(laptop)
            let diary = try laptop.createFolder(name: "Diary")
            let back = try await laptop.moveNote(packing.id, from: zone, to: nil, folder: diary.id)
            #expect(back.folderId == diary.id && back.body == "Boots, rain coat, map")
            #expect(try laptop.history(noteId: packing.id, withBodies: true).map(\.body).contains("Boots, rain coat"), "bob's edit replaced a version that went with it")
            try await Devices.sync(laptop)
            try await Devices.sync(bob)
            #expect(throws: NoteTakerError.self) { try bobs.note(id: packing.id) }
            try await Devices.sync(phone)
            #expect(try phone.note(id: packing.id).body == "Boots, rain coat, map")
            // The phone reads the share's part of the history from its own server copy: the laptop gave it.
            let phoneHistory = try await phone.completeHistory(noteId: packing.id)
            #expect(phoneHistory.serverProblem == nil)
            let bodies = try phoneHistory.versions.map { try phone.version($0.id, of: packing.id).body }
            #expect(bodies.contains("Boots, rain coat") && bodies.contains("Boots"), "\(bodies)")
            #expect(try phone.note(id: packing.id).tags == ["travel"])
            #expect(try phone.attachments(noteId: packing.id).count == 1)
            #expect(throws: NoteTakerError.self) { try phone.sharedZoneStore(zone).note(id: packing.id) }
        }
    }

    @Test("a move a viewer asks for, into a shared note, of the shared note itself, into a share not accepted, of a trashed note or into a folder not there is refused, and nothing moves")
    func refusedMoves() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Devices.device("ines", on: server)
            let carol = try await Devices.device("carol", on: server)
            let garden = try ines.createFolder(name: "Garden")
            let seeds = try ines.createNote(NoteDraft(title: "Seeds", body: "Tomatoes", folderId: garden.id))
            let folderZone = try await ines.shareFolder(garden.id, with: [("carol", .viewer)]).zone.zone
            let lone = try ines.createNote(NoteDraft(title: "Alone", body: "One note"))
            let noteZone = try await ines.shareNote(lone.id, with: [("carol", .editor)]).zone.zone
            _ = try await carol.acceptShare(folderZone).result.get()
            let own = try carol.createNote(NoteDraft(title: "Carol's", body: "Mine"))
            let mine = try ines.createNote(NoteDraft(title: "Mine", body: "Private"))
            let trashed = try ines.createNote(NoteDraft(title: "Old", body: "Gone"))
            _ = try ines.trashNotes(ids: [trashed.id])

            await #expect(throws: SyncError.viewOnlyShare) { try await carol.moveNote(seeds.id, from: folderZone, to: nil, folder: nil) }
            await #expect(throws: SyncError.viewOnlyShare) { try await carol.moveNote(own.id, from: nil, to: folderZone, folder: nil) }
            await #expect(throws: SyncError.noSuchShare(noteZone)) { try await carol.moveNote(own.id, from: nil, to: noteZone, folder: nil) }
            await #expect(throws: SyncError.intoSharedNote) { try await ines.moveNote(mine.id, from: nil, to: noteZone, folder: nil) }
            await #expect(throws: SyncError.sharedNoteItself) { try await ines.moveNote(lone.id, from: noteZone, to: nil, folder: nil) }
            await #expect(throws: SyncError.store(.noteInTrash(trashed.id.key))) {
                try await ines.moveNote(trashed.id, from: nil, to: folderZone, folder: nil)
            }
            let elsewhere = try ines.createFolder(name: "Elsewhere")
            await #expect(throws: SyncError.store(.folderNotFound(elsewhere.id.key))) {
                try await ines.moveNote(mine.id, from: nil, to: folderZone, folder: elsewhere.id)
            }

            // Nothing moved.
            #expect(try carol.note(id: own.id).title == "Carol's")
            #expect(try carol.sharedZoneStore(folderZone).note(id: seeds.id).title == "Seeds")
            #expect(try ines.note(id: mine.id).title == "Mine" && ines.note(id: trashed.id).trashedAt != nil)
            #expect(try ines.sharedZoneStore(folderZone).note(id: seeds.id).title == "Seeds")
            #expect(try ines.sharedZoneStore(noteZone).note(id: lone.id).title == "Alone")
            var inShare = 0
            try ines.sharedZoneStore(folderZone).forEachNote(in: NoteSelection(includeTrashed: true)) { inShare += $0.count }
            #expect(inShare == 1)
        }
    }

    @Test("a moved note's history the server refuses is given up, one the network cut goes at the next cycle: the cycle itself succeeds either way")
    func historyFailuresDoNotFailTheCycle() async throws {
        try await withLiveServer { server, _ in
            let device = try await Devices.device("ines", on: server)
            // Two notes with a history each, moved in from another store on this device.
            let elsewhere = try EncryptedAccountTests.device()
            var moved: [UUID] = []
            for title in ["Refused", "Cut"] {
                let note = try elsewhere.createNote(NoteDraft(title: title, body: "first"))
                _ = try elsewhere.updateNote(id: note.id, body: "second")
                try elsewhere.moveNote(note.id, into: device, folder: nil)
                moved.append(note.id)
            }
            #expect(try Set(device.movedHistoriesToSend()).isEmpty, "not on the server yet")
            let transport = try device.syncTransport()
            let sealing = try device.syncKeyring().map(RecordSealing.init(keyring:))
            let refusing = FaultyTransport(transport, .movedVersionsRefused)
            _ = try await SyncEngine(store: device, transport: refusing, options: .init(sealing: sealing)).sync()
            #expect(refusing.injected == 2)
            #expect(try device.movedHistoriesToSend().isEmpty, "refused for good: given up")

            let other = try elsewhere.createNote(NoteDraft(title: "Later", body: "first"))
            _ = try elsewhere.updateNote(id: other.id, body: "second")
            try elsewhere.moveNote(other.id, into: device, folder: nil)
            let cut = FaultyTransport(transport, .movedVersionsCut)
            _ = try await SyncEngine(store: device, transport: cut, options: .init(sealing: sealing)).sync()
            #expect(cut.injected == 1)
            #expect(try device.movedHistoriesToSend() == [other.id], "kept for the next cycle")
            _ = try await device.syncEngine(transport: transport).sync()
            #expect(try device.movedHistoriesToSend().isEmpty)
            #expect(try await transport.recordVersions(other.id).count == 1, "the server keeps its history now")
        }
    }
}
