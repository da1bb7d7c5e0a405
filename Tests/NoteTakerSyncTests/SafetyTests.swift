import Foundation
import GRDB
@testable import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

@Suite("Safety rails")
struct SafetyTests {
    @Test("a pull that would delete more than 50 notes stops and asks; with --yes it goes on")
    func massDeletion() async throws {
        try await withDevices(2) { devices, _ in
            let ids = try (0..<60).map { try devices[0].store.createNote(NoteDraft(title: "n\($0)")).id }
            _ = try devices[1].store.createNote(NoteDraft(title: "B's own"))
            try await devices[0].sync()
            try await devices[1].sync()
            _ = try devices[0].store.trashNotes(ids: ids)
            _ = try devices[0].store.emptyTrash()
            try await devices[0].sync()

            await #expect(throws: SyncError.massDeletion(count: 60)) { try await devices[1].sync() }
            #expect(try devices[1].allNotes().count == 61)
            // Asking again still stops; local work is untouched meanwhile.
            await #expect(throws: SyncError.massDeletion(count: 60)) { try await devices[1].sync() }

            await devices[1].engine.allowMassDeletion(true)
            try await devices[1].sync()
            #expect(try devices[1].titles() == ["B's own"])
        }
    }

    @Test("a few deletions go through without asking")
    func fewDeletions() async throws {
        try await withDevices(2) { devices, _ in
            let ids = try (0..<3).map { try devices[0].store.createNote(NoteDraft(title: "n\($0)")).id }
            for index in 0..<40 { _ = try devices[0].store.createNote(NoteDraft(title: "keep \(index)")) }
            try await devices[0].sync()
            try await devices[1].sync()
            _ = try devices[0].store.trashNotes(ids: ids)
            _ = try devices[0].store.emptyTrash()
            try await devices[0].sync()
            try await devices[1].sync()
            #expect(try devices[1].allNotes().count == 40)
        }
    }

    @Test("pointed at an empty, different server, a device deletes nothing and uploads everything")
    func differentServer() async throws {
        let first = try await LiveServer.start()
        let store = try NoteStore.inMemory()
        for index in 0..<5 { _ = try store.createNote(NoteDraft(title: "note \(index)")) }
        try await SyncEngine(store: store, transport: HTTPSyncTransport(server: first.url, token: try await first.register())).sync()
        await first.stop()

        let second = try await LiveServer.start()
        let token = try await second.register()
        try await SyncEngine(store: store, transport: HTTPSyncTransport(server: second.url, token: token)).sync()
        #expect(try store.notes().count == 5)
        #expect(try store.pendingChanges().isEmpty)
        let fresh = try NoteStore.inMemory()
        try await SyncEngine(store: fresh, transport: HTTPSyncTransport(server: second.url, token: token)).sync()
        #expect(try fresh.notes().count == 5)
        await second.stop()
    }

    @Test("resync required refetches everything and keeps pending local changes")
    func resyncRequired() async throws {
        try await withDevices(2) { devices, _ in
            let note = try devices[0].store.createNote(NoteDraft(title: "Base", body: "a\nb\nc"))
            try await devices[0].sync()
            try await devices[1].sync()
            _ = try devices[0].store.updateNote(id: note.id, body: "A\nb\nc")
            try await devices[0].sync()
            _ = try devices[1].store.updateNote(id: note.id, body: "a\nb\nC")
            _ = try devices[1].store.createNote(NoteDraft(title: "Offline note"))
            // The server no longer honours B's token.
            let writer = devices[1].store.writer
            try await writer.write { db in try SyncState.set(db, .changeToken, "nonsense") }
            try await devices[1].sync()
            try await devices[0].sync()
            for device in devices {
                #expect(try device.store.note(id: note.id).body == "A\nb\nC")
                #expect(try device.titles() == ["Base", "Offline note"])
            }
        }
    }
}
