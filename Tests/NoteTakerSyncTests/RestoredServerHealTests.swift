import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerServerTestSupport
import Testing
@testable import NoteTakerSync

@Suite("Healing a server restored from a backup")
struct RestoredServerHealTests {
    @Test("a deletion waiting to go up when the restore is noticed goes through the heal, and nothing is lost")
    func aWaitingDeletionGoesThroughTheHeal() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        let kept = try laptop.createNote(NoteDraft(title: "Kept", body: "v1"))
        let gone = try laptop.createNote(NoteDraft(title: "Gone", body: "deleted offline"))
        try await admin.engine(laptop).sync()
        try await admin.backUp()

        _ = try laptop.updateNote(id: kept.id, body: "v2 after backup")
        try await admin.engine(laptop).sync()
        _ = try laptop.trashNotes(ids: [gone.id])
        _ = try laptop.purgeNotes(ids: [gone.id])
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        #expect(report.errors == 0)
        // The newer text went up again; the deletion went up against no version, so the
        // server, which holds the note, refused it and the note came back whole.
        #expect(try laptop.note(id: kept.id).body == "v2 after backup")
        #expect(try laptop.note(id: gone.id).body == "deleted offline")
        #expect(try laptop.conflicts().isEmpty)
        #expect(try !laptop.hasPushableChanges())
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        #expect(try tablet.titles() == ["Gone", "Kept"])
        #expect(try tablet.note(titled: "Kept").body == "v2 after backup")
        await admin.stop()
    }

    @Test("a device whose batch was answered after the backup, and that fetched nothing since, notices the restore and sends it again")
    func anAnsweredBatchWithoutAFetchIsSentAgain() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try NoteStore.inMemory()
        _ = try laptop.createNote(NoteDraft(title: "Before", body: "in the backup"))
        try await admin.engine(laptop).sync()
        try await admin.backUp()

        // The batch is answered, and the fetch after it never happens (the network went).
        let after = try laptop.createNote(NoteDraft(title: "After", body: "answered after the backup"))
        var pushed = SyncReport()
        try await admin.engine(laptop).push(into: &pushed)
        #expect(pushed.pushed == 1)
        #expect(try !laptop.hasPushableChanges())
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.serverRestored)
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        try await tablet.sync()
        #expect(try tablet.titles() == ["After", "Before"])
        #expect(try tablet.store.note(id: after.id).body == "answered after the backup")
        await admin.stop()
    }

    @Test("a batch whose answer was lost goes up again after a restore with its files, which the restored server had lost")
    func aBatchSentAgainTakesItsFilesAlong() async throws {
        let admin = try await ServerOperator.start()
        try await admin.backUp()

        // The batch and its file reach the server; the answer never comes back.
        let laptop = try NoteStore.inMemory()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).txt")
        try Data("a photo".utf8).write(to: file)
        let note = try laptop.createNote(NoteDraft(title: "Trip"))
        _ = try laptop.attachFile(at: file, toNote: note.id)
        let lost = FaultyTransport(try HTTPSyncTransport(server: admin.server.url, token: admin.token), .answersLost)
        await #expect(throws: SyncError.self) { try await SyncEngine(store: laptop, transport: lost, options: .init()).sync() }
        #expect(lost.injected == 1)
        #expect(try !laptop.inflightBatches().isEmpty)
        try await admin.restore()

        let report = try await admin.engine(laptop).sync()
        #expect(report.uploadedFiles == 1)
        let tablet = try Device("tablet", server: admin.server, token: admin.token)
        let received = try await tablet.sync()
        #expect(received.errors == 0)
        #expect(received.downloadedFiles == 1)
        let attachment = try #require(try tablet.store.note(id: note.id).attachments.first)
        #expect(try Data(contentsOf: tablet.store.fileURL(for: attachment)) == Data("a photo".utf8))
        await admin.stop()
    }
}

/// A server's operator, as the README tells one to back up and restore: the server stopped,
/// its storage copied (or the copy put back), and the server started again on it.
private final class ServerOperator {
    private(set) var server: LiveServer
    /// A session of the account, made before any backup, so every copy holds it.
    let token: String
    private var storage: ServerDatabase
    private var backup: ServerDatabase?
    private let backupFolder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-backup-\(UUID().uuidString)")

    private init(server: LiveServer, token: String) {
        self.server = server
        self.token = token
        storage = server.database
    }

    static func start() async throws -> ServerOperator {
        let server = try await LiveServer.start()
        return ServerOperator(server: server, token: try await server.register())
    }

    /// A sync engine for `store` against the server as it runs now.
    func engine(_ store: NoteStore) throws -> SyncEngine {
        SyncEngine(store: store, transport: try HTTPSyncTransport(server: server.url, token: token), options: .init(policy: .localWins))
    }

    func backUp() async throws {
        await server.stop()
        backup = try await TestStorage.backUp(storage, into: backupFolder)
        server = try await LiveServer.start(database: storage)
    }

    func restore() async throws {
        let backup = try #require(backup, "restored before any backup")
        await server.stop()
        storage = try await TestStorage.restore(backup, over: storage)
        server = try await LiveServer.start(database: storage)
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: backupFolder)
    }
}
