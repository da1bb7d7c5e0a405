import Foundation
@testable import NoteTakerKit
import Testing

/// Notes are readable by their owner only: the store's folder, database, WAL and SHM, and
/// attachment folders and files.
@Suite("File permissions")
struct FilePermissionTests {
    private func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("a new store and its attachments are 0600 files in 0700 folders")
    func ownerOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perm-\(UUID())/notes")
        let url = folder.appendingPathComponent("NoteTaker.sqlite")
        let store = try NoteStore.open(at: url)
        let note = try store.createNote(NoteDraft(title: "Private"))
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("perm-source-\(UUID()).txt")
        try Data("secret".utf8).write(to: source)
        let attachment = try store.attachFile(at: source, toNote: note.id)

        #expect(try mode(folder) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try mode(URL(fileURLWithPath: url.path + suffix)) == 0o600, "NoteTaker.sqlite\(suffix)")
        }
        #expect(try mode(store.attachmentFiles.directory) == 0o700)
        let file = store.attachmentFiles.url(forHash: attachment.contentHash)
        #expect(try mode(file.deletingLastPathComponent()) == 0o700)
        #expect(try mode(file) == 0o600)
    }
}
