import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Attachments")
struct AttachmentTests {
    let directory = TemporaryDirectory()
    let store: NoteStore

    init() throws {
        store = try makeDiskStore(in: directory)
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: UInt8(7), count: 100))

    @Test func storesFilesByContentOnceAndDetectsTheirKind() throws {
        let note = try store.make("With files")
        let image = try directory.write(Self.png, named: "photo.dat")
        let copy = try directory.write(Self.png, named: "same.png")
        let text = try directory.write(Data("hello".utf8), named: "notes.txt")

        let first = try store.attachFile(at: image, toNote: note.id)
        let second = try store.attachFile(at: copy, toNote: note.id)
        let third = try store.attachFile(at: text, toNote: note.id)
        #expect(first.kind == .image)
        #expect(third.kind == .file)
        #expect(first.contentHash == second.contentHash)
        #expect(first.fileSize == Int64(Self.png.count))
        #expect(try Data(contentsOf: store.fileURL(for: first)) == Self.png)
        #expect(store.fileURL(for: first).path.hasPrefix(store.attachmentsDirectory.path))
        #expect(try store.attachments(noteId: note.id).map(\.fileName) == ["photo.dat", "same.png", "notes.txt"])
        #expect(try store.note(id: note.id).attachments.count == 3)
        #expect(try store.statistics().attachmentBytes == Int64(Self.png.count + 5))
    }

    @Test func detectsVideoAndFallsBackOnTheExtension() {
        let mp4 = [0, 0, 0, 0x18] + Array("ftypmp42".utf8)
        #expect(Attachment.Kind.detect(header: mp4, fileName: "x") == .video)
        #expect(Attachment.Kind.detect(header: [0, 0, 0, 0x18] + Array("ftypheic".utf8), fileName: "x") == .image)
        #expect(Attachment.Kind.detect(header: [], fileName: "drawing.SVG") == .image)
        #expect(Attachment.Kind.detect(header: [], fileName: "clip.webm") == .video)
        #expect(Attachment.Kind.detect(header: Array("%PDF".utf8), fileName: "paper.pdf") == .file)
    }

    @Test func refusesFilesOverTheLimitWithTheOriginalMessage() throws {
        let note = try store.make("Big")
        let big = directory.file("big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(Attachment.maximumSize + 1))
        try handle.close()
        #expect {
            try store.attachFile(at: big, toNote: note.id)
        } throws: { error in
            (error as? NoteTakerError)?.message == "Attachment too large. Maximum size is 250MB."
        }
        #expect(try store.attachments(noteId: note.id).isEmpty)
        #expect(try store.note(id: note.id).modifiedAt == note.modifiedAt)
    }

    @Test func missingFilesAndFoldersAreClearErrors() throws {
        let note = try store.make("n")
        #expect(throws: NoteTakerError.fileUnreadable(path: directory.file("nope").path, reason: "no such file")) {
            try store.attachFile(at: directory.file("nope"), toNote: note.id)
        }
        #expect(throws: NoteTakerError.self) { try store.attachFile(at: directory.url, toNote: note.id) }
        let file = try directory.write(Data("x".utf8), named: "x.txt")
        #expect(throws: NoteTakerError.noteNotFound(UUID(uuid: (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)).key)) {
            try store.attachFile(at: file, toNote: UUID(uuid: (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)))
        }
        #expect(try store.statistics().attachments == 0)
    }

    @Test func aFileNameNeverBecomesAPath() throws {
        let note = try store.make("n")
        let file = try directory.write(Data("secret".utf8), named: "a.txt")
        let attachment = try store.attachFile(at: file, toNote: note.id, fileName: "../../../etc/passwd")
        #expect(attachment.fileName == "passwd")
        #expect(Attachment.safeFileName("..") == "attachment")
        #expect(Attachment.safeFileName("...hidden") == "hidden")
        #expect(Attachment.safeFileName("a\u{0}b\nc.txt") == "abc.txt")
        #expect(Attachment.safeFileName("C:\\Windows\\evil.exe") == "evil.exe")

        let out = directory.url.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let written = try store.extractAttachment(attachment, to: out)
        #expect(written.path == out.appendingPathComponent("passwd").path)
        #expect(try Data(contentsOf: written) == Data("secret".utf8))
        #expect(throws: NoteTakerError.self) { try store.extractAttachment(attachment, to: out) }
        #expect(throws: NoteTakerError.self) { try store.extractAttachment(attachment, to: written) }
    }

    @Test func purgingANoteDeletesFilesNoLongerUsed() throws {
        let first = try store.make("first")
        let second = try store.make("second")
        let shared = try directory.write(Data("shared".utf8), named: "shared.txt")
        let own = try directory.write(Data("own".utf8), named: "own.txt")
        let sharedA = try store.attachFile(at: shared, toNote: first.id)
        let ownA = try store.attachFile(at: own, toNote: first.id)
        _ = try store.attachFile(at: shared, toNote: second.id)

        try store.trashNotes(ids: [first.id])
        #expect(FileManager.default.fileExists(atPath: store.fileURL(for: ownA).path))
        try store.purgeNotes(ids: [first.id])
        #expect(!FileManager.default.fileExists(atPath: store.fileURL(for: ownA).path))
        #expect(FileManager.default.fileExists(atPath: store.fileURL(for: sharedA).path))
        #expect(try store.attachments(noteId: second.id).count == 1)
    }

    @Test func detachRemovesTheAttachmentAndItsFile() throws {
        let note = try store.make("n")
        let file = try directory.write(Data("bytes".utf8), named: "f.bin")
        let attachment = try store.attachFile(at: file, toNote: note.id)
        #expect(try store.attachment(matching: String(attachment.id.key.prefix(6))).id == attachment.id)
        try store.detach(attachmentId: attachment.id)
        #expect(try store.attachments(noteId: note.id).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.fileURL(for: attachment).path))
        #expect(throws: NoteTakerError.attachmentNotFound(attachment.id.key)) { try store.detach(attachmentId: attachment.id) }
        #expect(throws: NoteTakerError.attachmentNotFound("zzzz")) { try store.attachment(matching: "zzzz") }
    }
}

@Suite("An in-memory store's files")
struct InMemoryAttachmentFolderTests {
    @Test func theFolderGoesWithTheLastCopyOfTheStore() throws {
        let directory = TemporaryDirectory()
        let file = try directory.write(Data("hello".utf8), named: "hello.txt")
        var folder: URL?
        do {
            let store = try NoteStore.inMemory()
            let note = try store.createNote(NoteDraft(title: "t"))
            _ = try store.attachFile(at: file, toNote: note.id)
            let copy = store
            folder = copy.attachmentsDirectory
            #expect(FileManager.default.fileExists(atPath: try #require(folder).path))
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(folder).path), "nothing else removes it")
        #expect(FileManager.default.fileExists(atPath: file.path), "the file attached stays where it was")
    }
}
