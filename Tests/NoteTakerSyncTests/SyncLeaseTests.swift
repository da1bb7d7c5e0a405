import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// One sync cycle at a time per store file, whoever runs it.
@Suite("One sync cycle per store")
struct SyncLeaseTests {
    @Test("two engines on one store file never run a cycle at once, and nothing stays pending")
    func enginesOnOneFileTakeTurns() async throws {
        try await withLiveServer { server, token in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lease-\(UUID())")
            let url = directory.appendingPathComponent("NoteTaker.sqlite")
            // Two stores on one file, as the command line's `sync` beside `serve` has.
            let first = try NoteStore.open(at: url)
            let second = try NoteStore.open(at: url)
            let gauge = Gauge()
            let engines = try [first, second].map { store in
                SyncEngine(store: store, transport: GaugedTransport(inner: try HTTPSyncTransport(server: server.url, token: token), gauge: gauge))
            }
            let other = try Device("other", server: server, token: token)
            for index in 0..<20 {
                let note = try first.createNote(NoteDraft(title: "note \(index)", body: "body"))
                _ = try second.addTags(["tag \(index)"], toNote: note.id)
                _ = try other.store.createNote(NoteDraft(title: "elsewhere \(index)"))
            }
            try await other.sync()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for engine in engines {
                    group.addTask { for _ in 0..<3 { try await engine.sync() } }
                }
                try await group.waitForAll()
            }
            #expect(await gauge.most == 1, "the two engines' requests overlapped")
            try await other.sync()
            #expect(try first.pendingChanges().isEmpty)
            #expect(try first.syncSummary().pending == 0)
            #expect(try first.notes(NoteQuery(limit: 100)).count == 40)
            let tagged = try other.allNotes().filter { $0.title.hasPrefix("note ") }
            #expect(tagged.count == 20)
            #expect(tagged.allSatisfy { $0.tags == ["tag " + $0.title.dropFirst(5)] })
            let mode = try FileManager.default.attributesOfItem(atPath: url.path + "-sync.lock")[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }
}

/// Counts the requests in flight, across every engine that shares it.
actor Gauge {
    private var current = 0
    private(set) var most = 0

    func enter() {
        current += 1
        most = max(most, current)
    }

    func leave() { current -= 1 }
}

/// A transport that reports each request to a ``Gauge`` and holds it a moment, so that two
/// engines running at once would be seen overlapping.
struct GaugedTransport: SyncTransport {
    let inner: any SyncTransport
    let gauge: Gauge

    private func measured<T>(_ body: () async throws(SyncError) -> T) async throws(SyncError) -> T {
        await gauge.enter()
        try? await Task.sleep(for: .milliseconds(2))
        let result: Result<T, SyncError>
        do throws(SyncError) {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await gauge.leave()
        return try result.get()
    }

    func health() async throws(SyncError) -> HealthResponse { try await measured { () async throws(SyncError) in try await inner.health() } }
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        try await measured { () async throws(SyncError) in try await inner.fetchChanges(query) }
    }
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        try await measured { () async throws(SyncError) in try await inner.modify(request, fieldsJSON: fieldsJSON) }
    }
    func assetExists(hash: String) async throws(SyncError) -> Bool {
        try await measured { () async throws(SyncError) in try await inner.assetExists(hash: hash) }
    }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) {
        try await measured { () async throws(SyncError) in try await inner.uploadAsset(hash: hash, from: file) }
    }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) {
        try await measured { () async throws(SyncError) in try await inner.downloadAsset(hash: hash, to: file) }
    }
}
