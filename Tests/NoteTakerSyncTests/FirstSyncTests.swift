import Foundation
import GRDB
@testable import NoteTakerKit
@testable import NoteTakerSync
import Testing

/// A first sync of many notes takes the import's path: the notes go in batch by batch and
/// the search index is built once, at the end.
@Suite("A large first sync")
struct FirstSyncTests {
    @Test func aPullOfManyNotesIsIndexedOnceAtItsEndAndEveryNoteIsFound() async throws {
        try await withLiveServer { server, token in
            let first = try Device("first", server: server, token: token)
            let count = SyncEngine.applyBatchSize + 200
            _ = try first.store.importNotes((0..<count).map { NoteDraft(title: "note \($0)", body: "kiwi \($0)", tags: ["fruit"]) })
            try await first.sync()

            let phases = Phases()
            let store = try NoteStore.inMemory()
            let engine = SyncEngine(store: store, transport: try HTTPSyncTransport(server: server.url, token: token)) { phases.append($0) }
            let report = try await engine.sync()
            #expect(report.pulled >= count)
            let indexing = phases.all.compactMap { phase -> [Int]? in
                if case .indexing(let done, let total) = phase { return [done, total] }
                return nil
            }
            #expect(indexing.first == [0, count])
            #expect(indexing.last == [count, count])
            #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_fts WHERE note_fts MATCH 'kiwi'") } == count)
            #expect(try store.search(SearchQuery("kiwi", tag: "fruit", limit: 1_000)).count == 1_000)
            #expect(try store.search(SearchQuery("\(count - 1)")).map(\.note.title) == ["note \(count - 1)"])
            try store.write { db in
                try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
            }

            // A small pull afterwards is indexed with its transaction.
            _ = try first.store.createNote(NoteDraft(title: "late", body: "papaya"))
            try await first.sync()
            try await engine.sync()
            #expect(try store.searchTitles("papaya") == ["late"])
            #expect(phases.all.filter { if case .indexing = $0 { true } else { false } }.count == indexing.count)
        }
    }
}

/// Phases reported by an engine, collected from its handler.
private final class Phases: @unchecked Sendable {
    private let lock = NSLock()
    private var phases: [SyncEngine.Phase] = []

    func append(_ phase: SyncEngine.Phase) { lock.withLock { phases.append(phase) } }
    var all: [SyncEngine.Phase] { lock.withLock { phases } }
}

private extension NoteStore {
    func searchTitles(_ text: String) throws -> [String] {
        try search(SearchQuery(text)).map(\.note.title)
    }
}
