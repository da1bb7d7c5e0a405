import Foundation
import Testing

@testable import NoteTakerKit

/// Moving a folder or a note from one store to another (a shared zone's, and back):
/// everything goes with it, nothing is lost when the move is stopped halfway, and a move
/// that cannot be made changes nothing.
@Suite struct StoreTransferTests {
    @Test("a folder moves with its subfolders, notes (trashed ones too), tags, files and history, and goes up as deletions here")
    func folderMoves() throws {
        let directory = TemporaryDirectory()
        let source = try makeDiskStore(in: directory)
        let target = try NoteStore.open(at: directory.file("zone.sqlite"))
        let top = try source.createFolder(name: "Trip")
        let inner = try source.createFolder(name: "Days", parentId: top.id)
        let plan = try source.make("Plan", "Day one", tags: ["travel"], folder: top.id)
        _ = try source.updateNote(id: plan.id, body: "Day one: the coast")
        _ = try source.attachFile(at: directory.write(Data("map".utf8), named: "map.txt"), toNote: plan.id)
        let old = try source.make("Old idea", folder: inner.id)
        _ = try source.trashNotes(ids: [old.id])
        let stays = try source.make("Stays", tags: ["travel"])

        let moved = try source.moveFolder(top.id, into: target)
        #expect(moved == StoreTransfer(folders: 2, notes: 2, attachments: 1))
        #expect(try target.folder(id: top.id).parentId == nil && target.folder(id: inner.id).parentId == top.id)
        let copy = try target.note(id: plan.id)
        #expect(copy.body == "Day one: the coast" && copy.tags == ["travel"] && copy.createdAt == plan.createdAt)
        #expect(try target.history(noteId: plan.id, withBodies: true).map(\.body) == ["Day one"])
        #expect(try target.note(id: old.id).isTrashed)
        let attachment = try #require(try target.attachments(noteId: plan.id).first)
        #expect(try Data(contentsOf: target.fileURL(for: attachment)) == Data("map".utf8))
        #expect(try target.searchTitles("coast") == ["Plan"])

        #expect(throws: NoteTakerError.self) { try source.folder(id: top.id) }
        #expect(throws: NoteTakerError.self) { try source.note(id: plan.id) }
        #expect(try source.note(id: stays.id).tags == ["travel"])
        let deletions = try source.pendingChanges().filter { $0.operation == .delete }
        #expect(Set(deletions.map(\.recordId)) == [top.id, inner.id, plan.id, old.id, attachment.id])
    }

    @Test("a move stopped after the copy is made again: the rows found in place are only deleted here, nothing twice")
    func moveAgain() throws {
        let directory = TemporaryDirectory()
        let source = try makeDiskStore(in: directory)
        let target = try NoteStore.open(at: directory.file("zone.sqlite"))
        let note = try source.make("Recipe", "Stock")
        _ = try source.updateNote(id: note.id, body: "Soup")
        // As if the first move had written the copy (not yet its history) and stopped before deleting here.
        _ = try target.importNotes([NoteDraft(title: "Recipe", body: "Soup", id: note.id, createdAt: note.createdAt)])
        #expect(try source.moveNote(note.id, into: target, folder: nil).notes == 1)
        #expect(throws: NoteTakerError.self) { try source.note(id: note.id) }
        var count = 0
        try target.forEachNote(in: NoteSelection(includeTrashed: true)) { count += $0.count }
        #expect(count == 1)
        #expect(try target.history(noteId: note.id, withBodies: true).map(\.body) == ["Stock"], "its history is taken the second time")
        #expect(throws: NoteTakerError.self, "moved, it is no longer here") { try source.moveNote(note.id, into: target, folder: nil) }
    }

    @Test("a move that cannot be made (the other store has a folder of the same name) deletes nothing here")
    func refusedMove() throws {
        let directory = TemporaryDirectory()
        let source = try makeDiskStore(in: directory)
        let target = try NoteStore.open(at: directory.file("zone.sqlite"))
        let folder = try source.createFolder(name: "Family")
        let note = try source.make("Recipes", folder: folder.id)
        _ = try target.createFolder(name: "family")
        #expect(throws: NoteTakerError.self) { try source.moveFolder(folder.id, into: target) }
        #expect(try source.note(id: note.id).folderId == folder.id)
        #expect(try source.folder(id: folder.id).name == "Family")
    }
}
