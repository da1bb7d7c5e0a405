import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing

/// A record that refers to a tag or folder this device has not received yet: the reference
/// is kept, sent up with the record, and resolved when the tag or folder arrives.
@Suite("References to records not received yet")
struct UnresolvedReferenceTests {
    @Test("a new tag added on one device survives an edit made on another before it pulled")
    func newTagSurvivesConcurrentEdit() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let note = try await sharedNote(a, b)

            _ = try a.store.addTags(["alpha"], toNote: note.id)
            try await a.sync()
            _ = try b.store.updateNote(id: note.id, body: "b1")
            let report = try await b.sync()
            #expect(report.merged >= 1)
            try await a.sync()
            try await b.sync()
            for device in [a, b] {
                let seen = try device.store.note(id: note.id)
                #expect(seen.tags == ["alpha"], "\(device.name) lost the tag")
                #expect(seen.body == "b1")
                #expect(try device.store.search(SearchQuery("b1", tag: "alpha")).map(\.note.id) == [note.id])
            }
            #expect(try a.store.pendingChanges().isEmpty)
            #expect(try b.store.pendingChanges().isEmpty)
        }
    }

    @Test("a move into a folder made on one device survives an edit made on another before it pulled")
    func newFolderSurvivesConcurrentEdit() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let note = try await sharedNote(a, b)

            let parent = try a.store.createFolder(name: "Projects")
            let folder = try a.store.createFolder(name: "Garden", parentId: parent.id)
            _ = try a.store.moveNote(id: note.id, toFolder: folder.id)
            try await a.sync()
            _ = try b.store.updateNote(id: note.id, title: "Shared, retitled")
            try await b.sync()
            try await a.sync()
            for device in [a, b] {
                let seen = try device.store.note(id: note.id)
                #expect(seen.folderId == folder.id, "\(device.name) lost the move")
                #expect(seen.title == "Shared, retitled")
                #expect(try device.store.search(SearchQuery("a0", folderId: parent.id)).map(\.note.id) == [note.id])
            }
        }
    }

    @Test("a folder moved under a new folder keeps its parent through a concurrent rename")
    func newParentSurvivesConcurrentRename() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Recipes")
            try await a.sync()
            try await b.sync()

            let parent = try a.store.createFolder(name: "Home")
            _ = try a.store.moveFolder(id: folder.id, toParent: parent.id)
            try await a.sync()
            _ = try b.store.renameFolder(id: folder.id, to: "Cooking")
            try await b.sync()
            try await a.sync()
            for device in [a, b] {
                #expect(try device.store.folderPath(id: folder.id) == "Home/Cooking", "\(device.name) lost the move")
            }
        }
    }

    @Test("a reference whose target is deleted before it arrives is dropped everywhere")
    func referenceToDeletedTagIsDropped() async throws {
        try await withDevices(3) { devices, _ in
            let (a, b, c) = (devices[0], devices[1], devices[2])
            let note = try await sharedNote(a, b)

            _ = try a.store.addTags(["short-lived"], toNote: note.id)
            try await a.sync()
            // B merges an edit with A's version before it has the tag record.
            _ = try b.store.updateNote(id: note.id, body: "b1")
            try await b.sync()
            try a.store.deleteTag("short-lived")
            try await a.sync()
            for device in [b, a, c, b] { try await device.sync() }
            for device in [a, b, c] {
                #expect(try device.store.note(id: note.id).tags.isEmpty, "\(device.name) still has the deleted tag")
                #expect(try device.store.tags().isEmpty)
                #expect(try device.store.pendingChanges().isEmpty)
            }
        }
    }

    /// A note made on `a` that `b` has received.
    private func sharedNote(_ a: Device, _ b: Device) async throws -> Note {
        let note = try a.store.createNote(NoteDraft(title: "Shared", body: "a0"))
        try await a.sync()
        try await b.sync()
        return note
    }
}
