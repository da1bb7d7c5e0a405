import Foundation
import NoteTakerKit
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// A randomized run of a shared folder through the real server on loopback (docs/sharing.md
/// §3–4): the owner's two devices, an editor, and a member made a viewer midway and removed
/// later, editing and syncing in a seeded order. Every edit by a member with edit rights
/// survives; nothing a viewer wrote lands; nothing written after the removal reaches the
/// member removed, whose own unsent edits stay on its device as private notes.
/// `NOTETAKER_SHARED_SEEDS=N` runs more seeds (3 by default), `NOTETAKER_SHARED_FROM=S` starts elsewhere.
@Suite struct SharedZoneRunTests {
    static let seeds = TestSeeds.list("NOTETAKER_SHARED", defaultCount: 3)

    /// An edit: the line it added, who wrote it, and when.
    private struct Marker {
        var text: String
        var writer: String
        var step: Int
        /// Sent while its writer could edit: it must be in the shared folder at the end.
        var sent = false
    }

    @Test("editors' edits all survive, a viewer's never land, a removed member gets nothing new", arguments: seeds)
    func run(seed: UInt64) async throws {
        try await withLiveServer { server, _ in
            var random = SeededGenerator(seed: seed)
            let laptop = try await SharedFolderTests.device("ines", on: server)
            let (bob, carol) = (try await SharedFolderTests.device("bob", on: server), try await SharedFolderTests.device("carol", on: server))
            var phone: NoteStore?
            let folder = try laptop.createFolder(name: "Family")
            for title in ["Recipes", "Holidays", "Garden"] { _ = try laptop.createNote(NoteDraft(title: title, body: title, folderId: folder.id)) }
            let zone = try await laptop.shareFolder(folder.id, with: [("bob", .editor), ("carol", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()
            _ = try await carol.acceptShare(zone).result.get()

            let (demotion, removal, steps) = (Int.random(in: 8...16, using: &random), Int.random(in: 20...28, using: &random), 36)
            var markers: [Marker] = []
            var devices: [(name: String, store: NoteStore)] { [("ines", laptop), ("bob", bob), ("carol", carol)] + (phone.map { [("ines", $0)] } ?? []) }
            for step in 0..<steps {
                if step == 6 { phone = try await SharedFolderTests.device("ines", on: server, registering: false) }
                if step == demotion { try await laptop.setShareMember(zone, account: "carol", role: .viewer) }
                if step == removal { try await laptop.setShareMember(zone, account: "carol", role: nil) }
                let (name, store) = devices[Int.random(in: 0..<devices.count, using: &random)]
                if Int.random(in: 0..<100, using: &random) < 55 {
                    // An edit, as this device sees its role (a viewer's device does not edit).
                    guard let shared = try store.sharedZone(zone), shared.writable else { continue }
                    let notes = try Self.notes(in: store.sharedZoneStore(zone))
                    let text = "[m\(seed)-\(step)]"
                    if notes.isEmpty || Int.random(in: 0..<5, using: &random) == 0 {
                        _ = try store.sharedZoneStore(zone).createNote(NoteDraft(title: text, body: text, folderId: folder.id))
                    } else {
                        let note = notes[Int.random(in: 0..<notes.count, using: &random)]
                        _ = try store.sharedZoneStore(zone).updateNote(id: note.id, body: note.body + "\n" + text)
                    }
                    markers.append(Marker(text: text, writer: name, step: step, sent: name != "carol"))
                } else {
                    try await SharedFolderTests.sync(store)
                    // Carol's edits went up while she could edit.
                    if name == "carol", step < demotion { for index in markers.indices where markers[index].writer == "carol" { markers[index].sent = true } }
                }
            }
            for _ in 0..<3 { for device in devices where device.name != "carol" { try await SharedFolderTests.sync(device.store) } }
            try await SharedFolderTests.sync(carol)

            // The owner's devices and the editor hold the same notes, with every edit sent while its writer could edit.
            let bodies = try Self.notes(in: bob.sharedZoneStore(zone)).map(\.body).joined(separator: "\n")
            for store in [laptop, try #require(phone)] {
                #expect(try Self.notes(in: store.sharedZoneStore(zone)).map(\.body).sorted() == Self.notes(in: bob.sharedZoneStore(zone)).map(\.body).sorted(),
                        "seed \(seed): the members' devices differ")
            }
            for marker in markers where marker.sent {
                #expect(bodies.contains(marker.text), "seed \(seed): \(marker.writer)'s edit \(marker.text) was lost")
            }
            // Nothing carol wrote without edit rights landed; it stayed with her, as private notes.
            var carols = ""
            try carol.forEachNote(in: NoteSelection(includeTrashed: true)) { carols += $0.map(\.body).joined(separator: "\n") }
            for marker in markers where marker.writer == "carol" && !marker.sent {
                #expect(!bodies.contains(marker.text), "seed \(seed): carol's edit \(marker.text) landed after she could no longer edit")
                #expect(carols.contains(marker.text), "seed \(seed): carol's unsent edit \(marker.text) was lost from her device")
            }
            // Carol's share ended; nothing written after her removal reached her.
            #expect(try carol.sharedZones().isEmpty, "seed \(seed)")
            for marker in markers where marker.step >= removal && marker.writer != "carol" {
                #expect(!carols.contains(marker.text), "seed \(seed): \(marker.text), written after carol's removal, reached her")
            }
        }
    }

    /// The notes of `store` not in the trash, by id.
    private static func notes(in store: NoteStore) throws -> [Note] {
        var notes: [Note] = []
        try store.forEachNote(in: NoteSelection()) { notes += $0 }
        return notes.sorted { $0.id.uuidString < $1.id.uuidString }
    }
}
