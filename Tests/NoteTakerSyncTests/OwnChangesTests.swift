import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// A device is not sent back the changes it pushed, and a store restored from a backup or
/// copied elsewhere still gets every change it does not hold.
@Suite("A device's own changes")
struct OwnChangesTests {
    @Test("a device that pushed notes does not download them back; another device gets them")
    func pushedChangesAreNotSentBack() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Inbox")
            for index in 0..<30 {
                let note = try a.store.createNote(NoteDraft(title: "note \(index)", body: "body \(index)", folderId: folder.id))
                _ = try a.store.addTags(["tag \(index % 3)"], toNote: note.id)
            }
            let first = try await a.sync()
            #expect(first.pushed == 34)
            #expect(first.pulled == 0, "device 1 downloaded its own changes back")

            let received = try await b.sync()
            #expect(received.pulled == 34)
            let edited = try b.note(titled: "note 7")
            _ = try b.store.updateNote(id: edited.id, body: "edited on device 2")
            let second = try await b.sync()
            #expect(second.pulled == 0)

            let back = try await a.sync()
            #expect(back.pulled == 1)
            #expect(try a.store.note(id: edited.id).body == "edited on device 2")
        }
    }

    @Test("a store restored from a backup gets back the changes it made after the backup")
    func restoredStoreGetsItsLaterChanges() async throws {
        try await withLiveServer { server, token in
            let files = StoreFiles()
            try await files.withStore(token: token, server: server) { store, engine in
                _ = try store.createNote(NoteDraft(title: "before the backup"))
                try await engine.sync()
            }
            let backup = try files.copy(to: "backup")
            try await files.withStore(token: token, server: server) { store, engine in
                _ = try store.createNote(NoteDraft(title: "after the backup"))
                try await engine.sync()
            }
            try files.replace(with: backup)
            try await files.withStore(token: token, server: server) { store, engine in
                #expect(try store.notes(NoteQuery()).map(\.title) == ["before the backup"])
                let report = try await engine.sync()
                #expect(report.pulled == 1)
                #expect(Set(try store.notes(NoteQuery()).map(\.title)) == ["before the backup", "after the backup"])
            }
        }
    }

    @Test("a copy of a store opened at another path is another device: each gets the other's changes")
    func copiedStoreIsAnotherDevice() async throws {
        try await withLiveServer { server, token in
            let original = StoreFiles()
            try await original.withStore(token: token, server: server) { store, engine in
                _ = try store.createNote(NoteDraft(title: "shared"))
                try await engine.sync()
            }
            let copy = StoreFiles(url: try original.copy(to: "copy"))
            try await original.withStore(token: token, server: server) { store, engine in
                _ = try store.createNote(NoteDraft(title: "made in the original"))
                try await engine.sync()
            }
            try await copy.withStore(token: token, server: server) { store, engine in
                _ = try store.createNote(NoteDraft(title: "made in the copy"))
                try await engine.sync()
                #expect(Set(try store.notes(NoteQuery()).map(\.title)) == ["shared", "made in the original", "made in the copy"])
            }
            try await original.withStore(token: token, server: server) { store, engine in
                try await engine.sync()
                #expect(Set(try store.notes(NoteQuery()).map(\.title)) == ["shared", "made in the original", "made in the copy"])
            }
        }
    }

    @Test("a version staged by an unfinished pull never undoes a later push of the same note")
    func stagedVersionDoesNotUndoAPush() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "Plan", body: "one"))
            try await a.sync()
            try await b.sync()
            _ = try a.store.updateNote(id: note.id, title: "Plan, retitled on A")
            _ = try a.store.createNote(NoteDraft(title: "Another"))
            try await a.sync()

            // B's edit meets A's title in a merge; then B's pull stops after its first page,
            // leaving A's version staged. The next cycle sends the merge up first.
            _ = try b.store.updateNote(id: note.id, body: "two, written on B")
            let interrupted = SyncEngine(store: b.store, transport: OnePageThenOffline(inner: b.transport))
            await #expect(throws: SyncError.self) { try await interrupted.sync() }
            try await b.sync()
            try await a.sync()
            for device in [a, b] {
                let seen = try device.store.note(id: note.id)
                #expect(seen.title == "Plan, retitled on A", "\(device.name)")
                #expect(seen.body == "two, written on B", "\(device.name)")
            }
        }
    }
}

/// Passes the first page of changes on, one record long, then fails as if offline.
private actor OnePageThenOffline: SyncTransport {
    let inner: any SyncTransport
    private var fetches = 0

    init(inner: any SyncTransport) {
        self.inner = inner
    }

    func health() async throws(SyncError) -> HealthResponse { try await inner.health() }
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        fetches += 1
        guard fetches == 1 else { throw .unreachable("offline") }
        let page = try await inner.fetchChanges(query)
        guard let first = page.records.first, page.records.count > 1 else { return page }
        let server = page.token.split(separator: ":").first.map(String.init) ?? ""
        return ChangesResponse(records: [first], token: "\(server):\(first.changeTag)", moreComing: true)
    }
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        try await inner.modify(request, fieldsJSON: fieldsJSON)
    }
    func assetExists(hash: String) async throws(SyncError) -> Bool { try await inner.assetExists(hash: hash) }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await inner.uploadAsset(hash: hash, from: file) }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try await inner.downloadAsset(hash: hash, to: file) }
}

/// A store file in a temporary folder, opened for a while and closed again, so that its
/// files can be copied as a backup would.
private struct StoreFiles {
    let url: URL

    init(url: URL = FileManager.default.temporaryDirectory
        .appendingPathComponent("own-changes-\(UUID())").appendingPathComponent("NoteTaker.sqlite")) {
        self.url = url
    }

    /// Opens the store with an engine on the server, runs `body`, and closes the store.
    func withStore(token: String, server: LiveServer, _ body: (NoteStore, SyncEngine) async throws -> Void) async throws {
        let store = try NoteStore.open(at: url)
        let engine = SyncEngine(store: store, transport: try HTTPSyncTransport(server: server.url, token: token))
        try await body(store, engine)
    }

    /// Copies the closed store's folder to a sibling folder; returns the copy's store file.
    func copy(to name: String) throws -> URL {
        let folder = url.deletingLastPathComponent()
        let destination = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent)-\(name)")
        try FileManager.default.copyItem(at: folder, to: destination)
        return destination.appendingPathComponent(url.lastPathComponent)
    }

    /// Puts a copy's files in place of this store's, as restoring a backup does.
    func replace(with copy: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.copyItem(at: copy.deletingLastPathComponent(), to: folder)
    }
}
