import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing

/// Two and three devices against a real server on a loopback port: what one does, the
/// others see.
@Suite("Devices see each other's changes")
struct TwoDeviceTests {
    @Test("create, edit, pin, move, tag, trash, delete")
    func everyOperation() async throws {
        try await withDevices(3) { devices, _ in
            let (a, b, c) = (devices[0], devices[1], devices[2])
            let folder = try a.store.createFolder(name: "Work")
            let note = try a.store.createNote(NoteDraft(title: "Plan", body: "line one", tags: ["Ideas"]))
            try await a.sync()
            try await b.sync()
            #expect(try b.note(titled: "Plan").body == "line one")
            #expect(try b.note(titled: "Plan").tags == ["Ideas"])
            #expect(try b.store.search(SearchQuery("line")).map(\.note.id) == [note.id])
            #expect(try b.store.folderTree().map(\.folder.name) == ["Work"])

            _ = try b.store.updateNote(id: note.id, body: "line one\nline two")
            _ = try b.store.setPinned(true, noteId: note.id)
            _ = try b.store.moveNote(id: note.id, toFolder: folder.id)
            _ = try b.store.addTags(["Urgent"], toNote: note.id)
            try await b.sync()
            try await a.sync()
            try await c.sync()
            for device in [a, c] {
                let seen = try device.note(titled: "Plan")
                #expect(seen.body == "line one\nline two")
                #expect(seen.isPinned)
                #expect(seen.folderId == folder.id)
                #expect(Set(seen.tags) == ["Ideas", "Urgent"])
                #expect(try device.store.note(id: note.id).sync.status == .synced)
                #expect(try device.store.search(SearchQuery("two", tag: "Urgent", folderId: folder.id)).map(\.note.id) == [note.id])
            }

            _ = try c.store.trashNotes(ids: [note.id])
            try await c.sync()
            try await a.sync()
            #expect(try a.store.note(id: note.id).isTrashed)
            _ = try a.store.emptyTrash()
            try await a.sync()
            try await b.sync()
            #expect(try b.allNotes().isEmpty)
            #expect(try a.store.pendingChanges().isEmpty)
        }
    }
}
