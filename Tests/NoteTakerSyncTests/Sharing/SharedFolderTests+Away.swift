import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// A member's device away from a share for longer than the server keeps deletions
/// (docs/sharing.md §3.7: a zone's tombstones go on the private zone's schedule): it lists the
/// zone again, drops what the others deleted, and keeps what it wrote meanwhile.
extension SharedFolderTests {
    @Test("a member away past the purge of a share's deletions drops what the others deleted and keeps what it wrote")
    func memberAwayPastThePurge() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Self.device("ines", on: server)
            let (bob, carol) = (try await Self.device("bob", on: server), try await Self.device("carol", on: server))
            let folder = try ines.createFolder(name: "House")
            let rooms = try ines.createFolder(name: "Rooms", parentId: folder.id)
            let paint = try ines.createNote(NoteDraft(title: "Paint", body: "white", folderId: folder.id))
            let boiler = try ines.createNote(NoteDraft(title: "Boiler", body: "service in May", folderId: folder.id))
            let kitchen = try ines.createNote(NoteDraft(title: "Kitchen", body: "new tiles", folderId: rooms.id))
            let zone = try await ines.shareFolder(folder.id, with: [("bob", .editor), ("carol", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()
            _ = try await carol.acceptShare(zone).result.get()

            // Carol is away. Ines deletes the boiler note for good and the subfolder with its
            // note; bob edits the paint note; carol, offline, edits the boiler note.
            let inesZone = try ines.sharedZoneStore(zone)
            #expect(try inesZone.trashNotes(ids: [boiler.id, kitchen.id]) == 2)
            #expect(try inesZone.purgeNotes(ids: [boiler.id, kitchen.id]) == 2)
            try inesZone.deleteFolder(id: rooms.id)
            try await Self.sync(ines)
            _ = try bob.sharedZoneStore(zone).updateNote(id: paint.id, body: "white, and the door green")
            try await Self.sync(bob)
            _ = try carol.sharedZoneStore(zone).updateNote(id: boiler.id, body: "service in May; the engineer comes on the 3rd")

            // Months later the zone's deletions are gone from the server.
            let purged = try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400))
            #expect(purged.tombstones >= 3, "the two notes and the folder: \(purged)")

            // Carol comes back: she drops what was deleted, keeps her edit, and sends it.
            let carols = try await Self.sync(carol)
            #expect(carols.first?.ended != true)
            #expect(try Self.titles(carol, zone: zone) == ["Boiler", "Paint"])
            let carolZone = try carol.sharedZoneStore(zone)
            #expect(try carolZone.folderTree().map(\.folder.name) == ["House"], "the deleted subfolder is gone")
            #expect(try carolZone.note(id: paint.id).body == "white, and the door green")
            #expect(try carolZone.note(id: boiler.id).body == "service in May; the engineer comes on the 3rd")

            // Her edit outranks the deletion, as anywhere in sync: it comes back for everyone.
            for member in [ines, bob] {
                try await Self.sync(member)
                #expect(try Self.titles(member, zone: zone) == ["Boiler", "Paint"])
                #expect(try member.sharedZoneStore(zone).note(id: boiler.id).body == "service in May; the engineer comes on the 3rd")
            }
        }
    }
}
