import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Note lists")
struct ListTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    @Test func pinnedFirstThenNewest() throws {
        try store.make("old")
        try store.make("pinned old", pinned: true)
        try store.make("middle")
        try store.make("pinned new", pinned: true)
        let newest = try store.make("newest")
        #expect(try store.listTitles() == ["pinned new", "pinned old", "newest", "middle", "old"])
        _ = try store.updateNote(id: try store.notes().last!.id, body: "touched")
        #expect(try store.listTitles() == ["pinned new", "pinned old", "old", "newest", "middle"])
        #expect(try store.listTitles(NoteQuery(pinnedOnly: true)) == ["pinned new", "pinned old"])
        _ = newest
    }

    @Test func pagesThroughTheList() throws {
        for index in 0..<25 { try store.make("note \(index)") }
        let first = try store.listTitles(NoteQuery(limit: 10))
        let second = try store.listTitles(NoteQuery(limit: 10, offset: 10))
        let third = try store.listTitles(NoteQuery(limit: 10, offset: 20))
        #expect(first.first == "note 24")
        #expect(third.count == 5)
        #expect(Set(first + second + third).count == 25)
        #expect(throws: NoteTakerError.self) { try store.notes(NoteQuery(limit: 0)) }
        #expect(throws: NoteTakerError.self) { try store.notes(NoteQuery(limit: 5_000)) }
        #expect(throws: NoteTakerError.self) { try store.notes(NoteQuery(offset: -1)) }
    }

    @Test func recentMeansTheLastSevenDays() throws {
        let long = Date().addingTimeInterval(-30 * 24 * 3600)
        _ = try store.createNote(NoteDraft(title: "last month", createdAt: long))
        try store.make("today")
        #expect(try store.listTitles(NoteQuery(recentOnly: true)) == ["today"])
        #expect(try store.listTitles().count == 2)
    }

    @Test func byFolderWithOrWithoutSubfolders() throws {
        let work = try store.createFolder(name: "Work")
        let projects = try store.createFolder(name: "Projects", parentId: work.id)
        try store.make("memo", folder: work.id)
        try store.make("plan", folder: projects.id)
        try store.make("loose")
        #expect(try store.listTitles(NoteQuery(folderId: work.id)) == ["memo"])
        #expect(try store.listTitles(NoteQuery(folderId: work.id, includeSubfolders: true)) == ["plan", "memo"])
        #expect(throws: NoteTakerError.folderNotFound(UUID(uuid: (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0)).key)) {
            try store.notes(NoteQuery(folderId: UUID(uuid: (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0))))
        }
    }

    @Test func byTagIgnoringCase() throws {
        try store.make("a", tags: ["Work"])
        try store.make("b", tags: ["home"])
        #expect(try store.listTitles(NoteQuery(tag: "WORK")) == ["a"])
        #expect(throws: NoteTakerError.tagNotFound("nope")) { try store.notes(NoteQuery(tag: "nope")) }
    }
}
