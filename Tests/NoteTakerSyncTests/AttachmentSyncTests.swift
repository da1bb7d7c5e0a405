import Foundation
@testable import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol
import Testing

@Suite("Attachments sync")
struct AttachmentSyncTests {
    @Test("a file uploads once per hash and downloads when its note arrives")
    func files() async throws {
        try await withDevices(2) { devices, _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).png")
            let content = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 42, count: 5000))
            try content.write(to: file)
            let first = try devices[0].store.createNote(NoteDraft(title: "With photo"))
            let second = try devices[0].store.createNote(NoteDraft(title: "Same photo"))
            _ = try devices[0].store.attachFile(at: file, toNote: first.id)
            _ = try devices[0].store.attachFile(at: file, toNote: second.id)
            let report = try await devices[0].sync()
            #expect(report.uploadedFiles == 1)

            let received = try await devices[1].sync()
            #expect(received.downloadedFiles == 1)
            let attachment = try #require(try devices[1].store.note(id: first.id).attachments.first)
            #expect(attachment.fileName == file.lastPathComponent)
            #expect(attachment.kind == .image)
            #expect(try Data(contentsOf: devices[1].store.fileURL(for: attachment)) == content)

            try devices[1].store.detach(attachmentId: attachment.id)
            try await devices[1].sync()
            try await devices[0].sync()
            #expect(try devices[0].store.note(id: first.id).attachments.isEmpty)
            #expect(try devices[0].store.note(id: second.id).attachments.count == 1)
        }
    }

    /// Converting seed 3,018,209: a note was deleted on a device that never saw a file
    /// attached to it elsewhere. Every device dropped the attachment with the note, but the
    /// server kept its record, in plain text after the account's conversion, which therefore
    /// never ended. The device that held it deletes it there as it applies the note's deletion.
    @Test("a note deleted where a file attached to it elsewhere never arrived: the device that attached it deletes the file's record on the server too")
    func attachmentOfADeletedNoteGoes() async throws {
        try await withDevices(3) { devices, _ in
            let (laptop, phone, tablet) = (devices[0], devices[1], devices[2])
            let note = try laptop.store.createNote(NoteDraft(title: "Receipts", body: "March"))
            try await laptop.sync()
            try await phone.sync()
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-\(UUID()).txt")
            try Data("a receipt".utf8).write(to: file)
            _ = try phone.store.attachFile(at: file, toNote: note.id)
            // Renamed on the laptop later: the phone's change of the note merges into that one.
            _ = try laptop.store.updateNote(id: note.id, title: "Receipts, March")
            try await laptop.sync()
            try await phone.sync()
            #expect(try phone.store.pendingChanges().isEmpty)
            // The laptop never fetched the attachment: its deletion of the note names none.
            try laptop.store.trashNotes(ids: [note.id])
            _ = try laptop.store.emptyTrash()
            try await laptop.sync()

            let applied = try await phone.sync()
            #expect(applied.errors == 0, "\(applied)")
            try await phone.sync()
            #expect(try phone.store.pendingChanges().isEmpty)
            let live = try await tablet.transport.fetchChanges(ChangesQuery(since: nil, listing: true)).records.filter { !$0.deleted }
            #expect(live.isEmpty, "the server still holds \(live.map(\.recordType))")
            try await tablet.sync()
            #expect(try tablet.store.notes().isEmpty)
        }
    }

    @Test("a file the server has no room for holds back only its attachment, named in the sync status")
    func refusedFileDoesNotStopTheRest() async throws {
        try await withLiveServer(quotaBytes: 3 * 1_048_576) { server, token in
            let (a, b) = (try Device("a", server: server, token: token), try Device("b", server: server, token: token))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("refused-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let small = folder.appendingPathComponent("receipt.txt")
            let large = folder.appendingPathComponent("photo.jpg")
            try Data(repeating: 7, count: 2000).write(to: small)
            try Data((0..<(5 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0) }).write(to: large)
            let trip = try a.store.createNote(NoteDraft(title: "Trip", body: "pictures"))
            let photo = try a.store.attachFile(at: large, toNote: trip.id)
            _ = try a.store.attachFile(at: small, toNote: trip.id)
            let later = try a.store.createNote(NoteDraft(title: "Later note", body: "made after the photo"))

            let report = try await a.sync()
            #expect(report.errors == 1)
            #expect(report.uploadedFiles == 1)
            let failure = try #require(try a.store.syncSummary().failures.first)
            #expect(failure.recordId == photo.id)
            #expect(failure.message.hasPrefix("photo.jpg (5 MB) does not fit: the account uses "))
            #expect(failure.message.hasSuffix(" MB of 3 MB"))
            #expect(try a.store.pendingChanges().map(\.recordId) == [photo.id])

            try await b.sync()
            #expect(try b.store.note(id: later.id).body == "made after the photo")
            #expect(try b.store.note(id: trip.id).attachments.map(\.fileName) == ["receipt.txt"])
            // Nothing is tried again until asked: a second sync sends nothing.
            #expect(try await a.sync().uploadedFiles == 0)
            let account = try #require(try await server.service.storage.account(named: "ada"))
            #expect(try await server.service.storage.usage(account: account.id).bytes < 1_048_576)
        }
    }

    @Test("a batch that holds back a refused file still goes under its id and with its change token")
    func heldBackBatchKeepsItsToken() throws {
        let store = try NoteStore.inMemory()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID()).txt")
        try Data("too large".utf8).write(to: file)
        let note = try store.createNote(NoteDraft(title: "Kept", body: "goes up"))
        let attachment = try store.attachFile(at: file, toNote: note.id)
        // Whatever the token, the server must see it: a restored server refuses a batch by it.
        try store.writer.write { db in try SyncState.set(db, .changeToken, "server:7:2a") }
        var batch = try #require(try store.nextPushBatch(after: 0, limit: 100).0)
        let (id, token) = (batch.request.requestId, batch.request.changeToken)
        #expect(token == "server:7:2a")

        let held = try store.holdBack(&batch, refusedFiles: [attachment.contentHash: .storageFull(usedBytes: 10, quotaBytes: 10)])
        #expect(held == 1)
        #expect(batch.request.changes.map(\.recordId) == [note.id])
        #expect(batch.request.requestId == id)
        #expect(batch.request.changeToken == token)
    }

    @Test("a file the server does not have counts as an error, the rest of the sync goes on, and a later sync fetches it")
    func aMissingFileDoesNotStopTheSync() async throws {
        try await withDevices(2) { devices, _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID()).txt")
            try Data("the file".utf8).write(to: file)
            let note = try devices[0].store.createNote(NoteDraft(title: "With a file"))
            _ = try devices[0].store.attachFile(at: file, toNote: note.id)
            _ = try devices[0].store.createNote(NoteDraft(title: "Another"))
            try await devices[0].sync()

            let missing = FaultyTransport(devices[1].transport, .filesMissing)
            let report = try await SyncEngine(store: devices[1].store, transport: missing, options: .init(policy: .localWins)).sync()
            #expect(missing.injected == 1)
            #expect(report.errors == 1)
            #expect(try devices[1].titles() == ["Another", "With a file"])
            let later = try await devices[1].sync()
            #expect(later.downloadedFiles == 1)
            let attachment = try #require(try devices[1].store.note(id: note.id).attachments.first)
            #expect(try Data(contentsOf: devices[1].store.fileURL(for: attachment)) == Data("the file".utf8))
        }
    }
}
