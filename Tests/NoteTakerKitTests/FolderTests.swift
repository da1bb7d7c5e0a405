import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Folders")
struct FolderTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func buildsATreeWithCounts() throws {
        let work = try store.createFolder(name: "Work", icon: "briefcase")
        let projects = try store.createFolder(name: "Projects", parentId: work.id)
        let home = try store.createFolder(name: "Home")
        try store.make("a", folder: work.id)
        try store.make("b", folder: projects.id)
        try store.make("c", folder: projects.id)
        let trashed = try store.make("d", folder: projects.id)
        try store.trashNotes(ids: [trashed.id])

        let tree = try store.folderTree()
        #expect(tree.map(\.folder.name) == ["Work", "Home"])
        #expect(tree[0].folder.icon == "briefcase")
        #expect(tree[0].noteCount == 1)
        #expect(tree[0].totalNoteCount == 3)
        #expect(tree[0].children.map(\.path) == ["Work/Projects"])
        #expect(tree[0].children[0].noteCount == 2)
        #expect(tree[1].id == home.id)
    }

    @Test func resolvesByPathNameOrId() throws {
        let work = try store.createFolder(name: "Work")
        let projects = try store.createFolder(name: "Projects", parentId: work.id)
        let personal = try store.createFolder(name: "Personal")
        _ = try store.createFolder(name: "Projects", parentId: personal.id)
        #expect(try store.resolveFolder("work/projects").id == projects.id)
        #expect(try store.resolveFolder("Work").id == work.id)
        #expect(try store.resolveFolder(String(work.id.key.prefix(8))).id == work.id)
        #expect {
            try store.resolveFolder("Projects")
        } throws: { error in
            guard case NoteTakerError.ambiguousIdentifier(_, let candidates) = error else { return false }
            return candidates.contains { $0.hasSuffix("Work/Projects") } && candidates.contains { $0.hasSuffix("Personal/Projects") }
        }
        #expect(throws: NoteTakerError.folderNotFound("Work/Nope")) { try store.resolveFolder("Work/Nope") }
        #expect(throws: NoteTakerError.folderNotFound("///")) { try store.resolveFolder("///") }
    }

    @Test func siblingNamesAreUniqueIgnoringCase() throws {
        let work = try store.createFolder(name: "Work")
        #expect(throws: NoteTakerError.folderNameTaken(name: "work", parent: nil)) { try store.createFolder(name: "work") }
        _ = try store.createFolder(name: "Work", parentId: work.id)
        let other = try store.createFolder(name: "Other")
        #expect(throws: NoteTakerError.folderNameTaken(name: "WORK", parent: nil)) { try store.renameFolder(id: other.id, to: "WORK") }
        #expect(try store.renameFolder(id: other.id, to: "  Archive ").name == "Archive")
    }

    @Test func badNamesAreRefused() throws {
        for name in ["", "   ", "a/b", "line\nbreak", String(repeating: "x", count: 201)] {
            #expect(throws: NoteTakerError.self) { try store.createFolder(name: name) }
        }
        #expect(try store.folderTree().isEmpty)
    }

    @Test func aFolderCannotMoveUnderItself() throws {
        let a = try store.createFolder(name: "A")
        let b = try store.createFolder(name: "B", parentId: a.id)
        let c = try store.createFolder(name: "C", parentId: b.id)
        #expect(throws: NoteTakerError.folderCycle(folder: "A", target: "C")) { try store.moveFolder(id: a.id, toParent: c.id) }
        #expect(throws: NoteTakerError.folderCycle(folder: "A", target: "A")) { try store.moveFolder(id: a.id, toParent: a.id) }
        #expect(try store.folder(id: a.id).parentId == nil)
        #expect(try store.moveFolder(id: c.id, toParent: nil).parentId == nil)
        #expect(try store.moveFolder(id: a.id, toParent: c.id).parentId == c.id)
        #expect(try store.folderTree().map(\.folder.name) == ["C"])
    }

    @Test func deletingAFolderKeepsItsNotesAndMovesSubfoldersUp() throws {
        let work = try store.createFolder(name: "Work")
        let old = try store.createFolder(name: "Old", parentId: work.id)
        let inner = try store.createFolder(name: "Inner", parentId: old.id)
        let memo = try store.make("memo", "quarterly", folder: old.id)
        let plan = try store.make("plan", "roadmap", folder: inner.id)

        try store.deleteFolder(id: old.id)
        #expect(try store.note(id: memo.id).folderId == nil)
        #expect(try store.note(id: plan.id).folderId == inner.id)
        #expect(try store.folder(id: inner.id).parentId == work.id)
        #expect(throws: NoteTakerError.folderNotFound(old.id.key)) { try store.folder(id: old.id) }
        #expect(try store.listTitles().count == 2)
        // The search index follows: the plan is still under Work, the memo no longer.
        #expect(try store.searchTitles("roadmap", folder: work.id) == ["plan"])
        #expect(try store.searchTitles("quarterly", folder: work.id).isEmpty)
        #expect(try store.searchTitles("quarterly") == ["memo"])
    }

    @Test func movingAFolderMovesItsNotesInSearch() throws {
        let a = try store.createFolder(name: "A")
        let b = try store.createFolder(name: "B")
        let child = try store.createFolder(name: "Child", parentId: a.id)
        try store.make("deep", "needle", folder: child.id)
        #expect(try store.searchTitles("needle", folder: a.id) == ["deep"])
        _ = try store.moveFolder(id: child.id, toParent: b.id)
        #expect(try store.searchTitles("needle", folder: a.id).isEmpty)
        #expect(try store.searchTitles("needle", folder: b.id) == ["deep"])
    }

    @Test func aCycleFromSyncStillShowsEveryFolderOnce() throws {
        let a = try store.createFolder(name: "A")
        let b = try store.createFolder(name: "B", parentId: a.id)
        try store.write { db in
            try db.execute(sql: "UPDATE folder SET parentId = ? WHERE id = ?", arguments: [b.id.key, a.id.key])
        }
        let tree = try store.folderTree()
        #expect(Set(tree.map(\.folder.name)) == ["A", "B"])
        #expect(tree.allSatisfy { $0.children.isEmpty })
    }
}

@Suite("Folder paths")
struct FolderPathTests {
    @Test func pathsNameEveryAncestor() throws {
        let store = try NoteStore.inMemory()
        let work = try store.createFolder(name: "Work")
        let deep = try store.createFolder(name: "Deep", parentId: try store.createFolder(name: "Projects", parentId: work.id).id)
        #expect(try store.folderPath(id: deep.id) == "Work/Projects/Deep")
        #expect(throws: NoteTakerError.self) { try store.folderPath(id: UUID()) }
    }
}
