import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Sharing a folder between accounts' devices through the real server on loopback
/// (docs/sharing.md §3.4–3.6): the folder moves into the zone's store with its notes, tags,
/// files and history; members accept and sync it; an editor's edit reaches everyone; a
/// member removed loses the zone; the owner stopping the share gets its notes back as
/// private notes, and nothing anyone wrote is lost.
@Suite struct SharedFolderTests {
    /// An account's device: its store, set up with an encrypted account of `name`.
    static func device(_ name: String, on server: LiveServer, registering: Bool = true) async throws -> NoteStore {
        let store = try EncryptedAccountTests.device()
        if registering {
            _ = try await store.registerEncryptedSyncAccount(
                server: server.url, username: name, password: "the password", allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
        } else {
            _ = try await store.logInToSyncAccount(
                server: server.url, username: name, password: "the password", allowInsecure: false, allowingUnencrypted: false,
                minimumCost: 1 << 14)
        }
        return store
    }

    /// Syncs a device's shared zones and then its private zone, as every sync does; returns
    /// how each shared zone went.
    @discardableResult
    static func sync(_ store: NoteStore) async throws -> [SharedZoneSync] {
        let transport = try store.syncTransport()
        let zones = try await store.syncSharedZones(transport: transport)
        for zone in zones { _ = try zone.result.get() }
        try await store.syncEngine(transport: transport).sync()
        return zones
    }

    /// The titles of the notes in `zone`'s store on `store`'s device, sorted.
    static func titles(_ store: NoteStore, zone: String) throws -> [String] {
        var titles: [String] = []
        try store.sharedZoneStore(zone).forEachNote(in: NoteSelection(includeTrashed: true)) { titles += $0.map(\.title) }
        return titles.sorted()
    }

    @Test("a folder shared moves into its zone with its notes, tags, files and history; members accept and see it; an edit goes both ways")
    func shareAcceptEdit() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Self.device("ines", on: server)
            let (bob, carol) = (try await Self.device("bob", on: server), try await Self.device("carol", on: server))
            let trip = try ines.createFolder(name: "Trip")
            let days = try ines.createFolder(name: "Days", parentId: trip.id)
            let plan = try ines.createNote(NoteDraft(title: "Plan", body: "Day one: the coast", folderId: trip.id, tags: ["travel"]))
            _ = try ines.updateNote(id: plan.id, body: "Day one: the coast, then the hills")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID()).txt")
            try Data("the map".utf8).write(to: file)
            _ = try ines.attachFile(at: file, toNote: plan.id)
            _ = try ines.createNote(NoteDraft(title: "Monday", folderId: days.id))
            let elsewhere = try ines.createNote(NoteDraft(title: "Not shared"))
            try await Self.sync(ines)

            let shared = try await ines.shareFolder(trip.id, with: [("bob", .editor), ("carol", .viewer)])
            let zone = shared.zone.zone
            _ = try shared.result.get()
            // The folder is out of ines's private store, and in the zone's, whole.
            #expect(throws: NoteTakerError.self) { try ines.folder(id: trip.id) }
            #expect(try ines.note(id: elsewhere.id).title == "Not shared")
            let inesZone = try ines.sharedZoneStore(zone)
            #expect(try inesZone.folder(id: days.id).parentId == trip.id)
            #expect(try inesZone.note(id: plan.id).tags == ["travel"])
            #expect(try inesZone.attachments(noteId: plan.id).count == 1)
            #expect(try inesZone.history(noteId: plan.id).count == 1, "its history went with it")
            #expect(try ines.sharedZones().map(\.title) == ["Trip"])

            // Bob and carol see the invitation, accept it, and have the folder.
            for member in [bob, carol] {
                let invitation = try #require(try await member.listShares().first)
                #expect(invitation.zone == zone && invitation.owner == "ines" && !invitation.accepted)
                _ = try await member.acceptShare(zone).result.get()
                #expect(try Self.titles(member, zone: zone) == ["Monday", "Plan"])
                let store = try member.sharedZoneStore(zone)
                #expect(try store.note(id: plan.id).body == "Day one: the coast, then the hills")
                #expect(try store.note(id: plan.id).tags == ["travel"])
                let attachment = try #require(try store.attachments(noteId: plan.id).first)
                #expect(try Data(contentsOf: store.fileURL(for: attachment)) == Data("the map".utf8))
                // The note's history came with it: ines's device gave it to the share's server.
                let history = try await member.completeSharedHistory(zone: zone, noteId: plan.id)
                #expect(try history.versions.map { try store.version($0.id, of: plan.id).body } == ["Day one: the coast"])
            }
            #expect(try bob.sharedZones().first?.role == .editor && carol.sharedZones().first?.role == .viewer)
            #expect(try bob.sharedZones().first?.title == "Trip")

            // Bob edits; ines and carol get the edit.
            _ = try bob.sharedZoneStore(zone).updateNote(id: plan.id, body: "Day one: the coast, then the hills. Bring the map.")
            try await Self.sync(bob)
            try await Self.sync(ines)
            try await Self.sync(carol)
            for store in [ines, carol] {
                #expect(try store.sharedZoneStore(zone).note(id: plan.id).body == "Day one: the coast, then the hills. Bring the map.")
            }
            // Dave, invited later (the members record's second change), reads at once what was
            // written under the first, which his device fetches and checks when it meets it.
            let dave = try await Self.device("dave", on: server)
            try await ines.setShareMember(zone, account: "dave", role: .viewer)
            let daves = try await dave.acceptShare(zone)
            #expect(try daves.result.get().pulled >= 3 && daves.result.get().errors == 0)
            #expect(try Self.titles(dave, zone: zone) == ["Monday", "Plan"])
            #expect(try dave.sharedZoneMembers(zone).keys.sorted() == [1, 2])
            // Given the role he has, nothing changes: no new members record.
            try await ines.setShareMember(zone, account: "dave", role: .viewer)
            #expect(try ines.sharedZoneMembers(zone).keys.max() == 2)

            // Ines's second device takes the zone up on its own.
            let phone = try await Self.device("ines", on: server, registering: false)
            try await Self.sync(phone)
            #expect(try Self.titles(phone, zone: zone) == ["Monday", "Plan"])
            #expect(try phone.sharedZones().first?.role == .owner)
        }
    }

    @Test("a member removed loses the zone and reads nothing after; the owner stopping the share gets every note back as private")
    func removeAndStop() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Self.device("ines", on: server)
            let (bob, carol) = (try await Self.device("bob", on: server), try await Self.device("carol", on: server))
            let folder = try ines.createFolder(name: "Family")
            let note = try ines.createNote(NoteDraft(title: "Recipes", body: "Soup", folderId: folder.id))
            let zone = try await ines.shareFolder(folder.id, with: [("bob", .editor), ("carol", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()
            _ = try await carol.acceptShare(zone).result.get()

            // Carol edits without syncing, then is removed: her edit is kept as a private note.
            _ = try carol.sharedZoneStore(zone).updateNote(id: note.id, body: "Soup, with lentils")
            try await ines.setShareMember(zone, account: "carol", role: nil)
            let carols = try await Self.sync(carol)
            #expect(carols.first?.ended == true && carols.first?.keptPrivately == 1)
            #expect(try carol.sharedZones().isEmpty)
            #expect(try carol.note(id: note.id).body == "Soup, with lentils")
            let carolsStore = try #require(carol.sharedZoneStoreURL(zone))
            for path in [carolsStore.path, carolsStore.path + "-wal", carolsStore.path + "-sync.lock"] {
                #expect(!FileManager.default.fileExists(atPath: path), "\(path) was left behind")
            }
            await #expect(throws: SyncError.self) {
                try await carol.syncTransport().inZone(zone).fetchChanges(ChangesQuery(since: nil))
            }

            // Bob writes after the removal, under the rotated key; ines reads it.
            _ = try bob.sharedZoneStore(zone).createNote(NoteDraft(title: "After carol", folderId: folder.id))
            try await Self.sync(bob)
            try await Self.sync(ines)
            #expect(try Self.titles(ines, zone: zone) == ["After carol", "Recipes"])
            let members = try #require(try await ines.listShares().first).members
            #expect(members.map(\.account).sorted() == ["bob", "ines"])

            // Ines stops sharing: everything comes back to her as private notes; bob's zone ends.
            let stopped = try await ines.leaveShare(zone)
            #expect(stopped.ended && stopped.keptPrivately == 2)
            #expect(try ines.folder(id: folder.id).name == "Family")
            #expect(try ines.note(id: note.id).folderId == folder.id)
            let bobs = try await Self.sync(bob)
            #expect(bobs.first?.ended == true && bobs.first?.keptPrivately == 0)
            #expect(try bob.sharedZones().isEmpty)
            try await Self.sync(ines)
            let phone = try await Self.device("ines", on: server, registering: false)
            try await Self.sync(phone)
            #expect(try phone.note(id: note.id).title == "Recipes", "the notes went up again as ines's own")
        }
    }

    @Test("a member's watching device gets an edit to the shared folder from the push channel, without a manual sync")
    func pushedToMembers() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Self.device("ines", on: server)
            let bob = try await Self.device("bob", on: server)
            let folder = try ines.createFolder(name: "Garden")
            let note = try ines.createNote(NoteDraft(title: "Seeds", body: "Tomatoes", folderId: folder.id))
            let zone = try await ines.shareFolder(folder.id, with: [("bob", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()

            let transport = try bob.syncTransport()
            let watcher = SyncWatcher(engine: try bob.syncEngine(transport: transport), store: bob, transport: transport, pollInterval: .seconds(3600))
            let task = Task { await watcher.run() }
            defer { task.cancel() }
            // Once bob's device is listening, ines's edit is pushed to it as a zone event.
            try await Task.sleep(for: .milliseconds(500))
            _ = try ines.sharedZoneStore(zone).updateNote(id: note.id, body: "Tomatoes, basil")
            try await Self.sync(ines)
            let seen = try await firstValue(of: try bob.sharedZoneStore(zone).observeNote(id: note.id)) { $0?.body == "Tomatoes, basil" }
            #expect(seen != nil, "bob's device did not get the edit within 30 seconds")
        }
    }
}
