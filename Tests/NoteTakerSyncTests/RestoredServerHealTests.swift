import Foundation
import NoteTakerKit
import NoteTakerServerTestSupport
import Testing
@testable import NoteTakerSync

@Suite("Healing a server restored from a backup")
struct RestoredServerHealTests {
    @Test("a deletion waiting to go up when the restore is noticed goes through the heal, and nothing is lost")
    func aWaitingDeletionGoesThroughTheHeal() async throws {
        let backupFolder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: backupFolder) }
        let first = try await LiveServer.start()
        let token = try await first.register()
        let laptop = try NoteStore.inMemory()
        func engine(_ server: LiveServer) throws -> SyncEngine {
            SyncEngine(store: laptop, transport: try HTTPSyncTransport(server: server.url, token: token), options: .init(policy: .localWins))
        }
        let kept = try laptop.createNote(NoteDraft(title: "Kept", body: "v1"))
        let gone = try laptop.createNote(NoteDraft(title: "Gone", body: "deleted offline"))
        try await engine(first).sync()
        await first.stop()
        let backup = try await TestStorage.backUp(first.database, into: backupFolder)

        let second = try await LiveServer.start(database: first.database)
        _ = try laptop.updateNote(id: kept.id, body: "v2 after backup")
        try await engine(second).sync()
        _ = try laptop.trashNotes(ids: [gone.id])
        _ = try laptop.purgeNotes(ids: [gone.id])
        await second.stop()

        let restored = try await LiveServer.start(database: try await TestStorage.restore(backup, over: first.database))
        let report = try await engine(restored).sync()
        #expect(report.serverRestored)
        #expect(report.errors == 0)
        // The newer text went up again; the deletion went up against no version, so the
        // server, which holds the note, refused it and the note came back whole.
        #expect(try laptop.note(id: kept.id).body == "v2 after backup")
        #expect(try laptop.note(id: gone.id).body == "deleted offline")
        #expect(try laptop.conflicts().isEmpty)
        #expect(try !laptop.hasPushableChanges())
        let tablet = try Device("tablet", server: restored, token: token)
        try await tablet.sync()
        #expect(try tablet.titles() == ["Gone", "Kept"])
        #expect(try tablet.note(titled: "Kept").body == "v2 after backup")
        await restored.stop()
    }

    @Test("a device whose batch was answered after the backup, and that fetched nothing since, notices the restore and sends it again")
    func anAnsweredBatchWithoutAFetchIsSentAgain() async throws {
        let backupFolder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: backupFolder) }
        let first = try await LiveServer.start()
        let token = try await first.register()
        let laptop = try NoteStore.inMemory()
        func engine(_ server: LiveServer) throws -> SyncEngine {
            SyncEngine(store: laptop, transport: try HTTPSyncTransport(server: server.url, token: token), options: .init(policy: .localWins))
        }
        _ = try laptop.createNote(NoteDraft(title: "Before", body: "in the backup"))
        try await engine(first).sync()
        await first.stop()
        let backup = try await TestStorage.backUp(first.database, into: backupFolder)

        // The batch is answered, and the fetch after it never happens (the network went).
        let second = try await LiveServer.start(database: first.database)
        let after = try laptop.createNote(NoteDraft(title: "After", body: "answered after the backup"))
        var pushed = SyncReport()
        try await engine(second).push(into: &pushed)
        #expect(pushed.pushed == 1)
        #expect(try !laptop.hasPushableChanges())
        await second.stop()

        let restored = try await LiveServer.start(database: try await TestStorage.restore(backup, over: first.database))
        let report = try await engine(restored).sync()
        #expect(report.serverRestored)
        let tablet = try Device("tablet", server: restored, token: token)
        try await tablet.sync()
        #expect(try tablet.titles() == ["After", "Before"])
        #expect(try tablet.store.note(id: after.id).body == "answered after the backup")
        await restored.stop()
    }

    @Test("a batch whose answer was lost goes up again after a restore with its files, which the restored server had lost")
    func aBatchSentAgainTakesItsFilesAlong() async throws {
        let backupFolder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: backupFolder) }
        let first = try await LiveServer.start()
        let token = try await first.register()
        await first.stop()
        let backup = try await TestStorage.backUp(first.database, into: backupFolder)

        // The batch and its file reach the server; the answer never comes back.
        let second = try await LiveServer.start(database: first.database)
        let laptop = try NoteStore.inMemory()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).txt")
        try Data("a photo".utf8).write(to: file)
        let note = try laptop.createNote(NoteDraft(title: "Trip"))
        _ = try laptop.attachFile(at: file, toNote: note.id)
        let lost = FaultyTransport(try HTTPSyncTransport(server: second.url, token: token), .answersLost)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: lost, options: .init()).sync() }
        #expect(lost.injected == 1)
        #expect(try !laptop.inflightBatches().isEmpty)
        await second.stop()

        let restored = try await LiveServer.start(database: try await TestStorage.restore(backup, over: first.database))
        let report = try await SyncEngine(store: laptop, transport: try HTTPSyncTransport(server: restored.url, token: token), options: .init()).sync()
        #expect(report.uploadedFiles == 1)
        let tablet = try Device("tablet", server: restored, token: token)
        let received = try await tablet.sync()
        #expect(received.errors == 0)
        #expect(received.downloadedFiles == 1)
        let attachment = try #require(try tablet.store.note(id: note.id).attachments.first)
        #expect(try Data(contentsOf: tablet.store.fileURL(for: attachment)) == Data("a photo".utf8))
        await restored.stop()
    }
}
