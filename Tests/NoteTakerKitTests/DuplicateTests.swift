import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Duplicating a note")
struct DuplicateTests {
    let directory = TemporaryDirectory()
    let store: NoteStore

    init() throws {
        store = try makeDiskStore(in: directory)
    }

    @Test("the copy has the text, tags, folder and attachments, its body naming its own attachments; the original is untouched")
    func copiesEverything() throws {
        let folder = try store.createFolder(name: "Kitchen")
        let original = try store.createNote(NoteDraft(title: "Bread", body: "flour\nwater", isPinned: true, folderId: folder.id, tags: ["baking", "home"]))
        let photo = try store.attachFile(at: try directory.write(AttachmentTests.png, named: "loaf.png"), toNote: original.id)
        _ = try store.updateNote(id: original.id, body: "flour\nwater\n![loaf](attachment:\(photo.id.key))")

        let copy = try store.duplicateNote(id: original.id)
        #expect(copy.id != original.id)
        #expect(copy.title == "Bread (copy)")
        #expect(copy.folderId == folder.id)
        #expect(copy.tags == ["baking", "home"])
        #expect(!copy.isPinned)
        let attached = try #require(copy.attachments.first)
        #expect(copy.attachments.count == 1)
        #expect(attached.id != photo.id && attached.contentHash == photo.contentHash && attached.fileName == "loaf.png")
        #expect(copy.body == "flour\nwater\n![loaf](attachment:\(attached.id.key))")
        #expect(try store.note(id: original.id).body == "flour\nwater\n![loaf](attachment:\(photo.id.key))")
        #expect(Set(try store.search(SearchQuery("flour")).map(\.note.id)) == [original.id, copy.id])

        // Either note goes without taking the other's file with it.
        _ = try store.trashNotes(ids: [original.id])
        _ = try store.purgeNotes(ids: [original.id])
        #expect(try Data(contentsOf: store.fileURL(for: attached)) == AttachmentTests.png)
    }

    @Test("a note in the trash, or one that does not exist, is not copied, and nothing changes")
    func refusals() throws {
        let trashed = try store.createNote(NoteDraft(title: "Gone"))
        _ = try store.trashNotes(ids: [trashed.id])
        #expect(throws: NoteTakerError.noteInTrash(trashed.id.key)) { try store.duplicateNote(id: trashed.id) }
        let unknown = UUID()
        #expect(throws: NoteTakerError.self) { try store.duplicateNote(id: unknown) }
        #expect(try store.statistics().notes + store.statistics().trashedNotes == 1)
    }
}
