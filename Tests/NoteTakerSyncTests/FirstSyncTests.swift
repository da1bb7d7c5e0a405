import Foundation
import GRDB
@testable import NoteTakerKit
@testable import NoteTakerSync
import NoteTakerSyncProtocol
import Testing

/// A first sync of many notes takes the import's path: each page of notes goes in as it
/// arrives and the search index is built once, at the end.
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

    @Test func aFolderRenamedAfterItsNotesArrivesPagesLaterAndTheNotesFindIt() async throws {
        try await withLiveServer { server, token in
            let first = try Device("first", server: server, token: token)
            let folder = try first.store.createFolder(name: "Work")
            let count = SyncLimits.maxPageSize + 1
            _ = try first.store.importNotes((0..<count).map { NoteDraft(title: "note \($0)", body: "quince \($0)", folderId: folder.id) })
            try await first.sync()
            // The folder's new version comes after every note in the feed: on the second page.
            _ = try first.store.renameFolder(id: folder.id, to: "Office")
            try await first.sync()

            let second = try Device("second", server: server, token: token)
            try await second.sync()
            #expect(try second.store.read { db in try NoteStore.fetchAllFolders(db) }.map(\.name) == ["Office"])
            #expect(try second.store.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note WHERE folderId = ?", arguments: [folder.id.key])
            } == count)
            #expect(try second.store.search(SearchQuery("quince", folderId: folder.id, limit: 1_000)).count == 1_000)
            #expect(try second.store.search(SearchQuery("\(count - 1)", folderId: folder.id)).map(\.note.title) == ["note \(count - 1)"])
            try second.store.write { db in
                try db.execute(sql: "INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_reference") == 0)
            }
        }
    }

    @Test func aStoreConnectedToAnAccountQueuesFoldersAndTagsBeforeTheirNotes() throws {
        let store = try NoteStore.inMemory()
        let folder = try store.createFolder(name: "Work")
        _ = try store.createNote(NoteDraft(title: "a", folderId: folder.id, tags: ["x"]))
        try store.setSyncAccount(serverURL: URL(string: "http://127.0.0.1:8471")!, username: "someone", allowInsecure: false)
        let queued = try store.read { db in try String.fetchAll(db, sql: "SELECT recordType FROM outbox ORDER BY seq") }
        #expect(queued == ["folder", "tag", "note"])
    }

    @Test func aPullFromScratchStagesFromThePageThatDeletesNotesHereAndAsksFirst() async throws {
        try await withLiveServer { server, token in
            let first = try Device("first", server: server, token: token)
            let doomed = try first.store.importNotes((0..<60).map { NoteDraft(title: "doomed \($0)") }).imported
            _ = try first.store.importNotes((0..<SyncLimits.maxPageSize + 100).map { NoteDraft(title: "kept \($0)") })
            let second = try Device("second", server: server, token: token)
            try await first.sync()
            try await second.sync()
            _ = try first.store.trashNotes(ids: doomed)
            _ = try first.store.emptyTrash()
            try await first.sync()

            // The server was restored, say: the second device fetches everything again. Its
            // first page deletes nothing here; the second holds the 60 deletions.
            try second.store.resetChangeToken()
            await #expect(throws: SyncError.massDeletion(count: 60)) { try await second.sync() }
            #expect(try second.store.statistics().notes == 60 + SyncLimits.maxPageSize + 100)
            await second.engine.allowMassDeletion(true)
            try await second.sync()
            #expect(try second.store.statistics().notes == SyncLimits.maxPageSize + 100)
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
