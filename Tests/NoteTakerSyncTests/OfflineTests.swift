import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

@Suite("Offline and failures")
struct OfflineTests {
    @Test("with the server down every local operation works; pending changes go up when it is back")
    func offline() async throws {
        let server = try await LiveServer.start()
        let token = try await server.register()
        let store = try NoteStore.inMemory()
        let note = try store.createNote(NoteDraft(title: "Before"))
        try await SyncEngine(store: store, transport: HTTPSyncTransport(server: server.url, token: token)).sync()
        await server.stop()

        let offline = SyncEngine(store: store, transport: try HTTPSyncTransport(server: server.url, token: token))
        _ = try store.updateNote(id: note.id, title: "Edited offline")
        _ = try store.createNote(NoteDraft(title: "Written offline", tags: ["Trip"]))
        await #expect {
            try await offline.sync()
        } throws: { error in
            guard case SyncError.unreachable(let reason) = error else { return false }
            // Words for people, not SwiftNIO's "connection reset (error set): … (errno: 111)".
            return reason.hasPrefix("nothing answered at its address") && !reason.contains("errno")
        }
        #expect(try store.syncSummary().pending >= 2)
        #expect(try store.note(id: note.id).sync.status == .pending)

        let back = try await LiveServer.start(database: server.database)
        try await SyncEngine(store: store, transport: HTTPSyncTransport(server: back.url, token: token)).sync()
        #expect(try store.syncSummary().pending == 0)
        let other = try NoteStore.inMemory()
        try await SyncEngine(store: other, transport: HTTPSyncTransport(server: back.url, token: token)).sync()
        #expect(Set(try other.notes().map(\.title)) == ["Edited offline", "Written offline"])
        await back.stop()
    }

    @Test("a change the server refuses is retried, marked error with its message after 3 attempts, and retried by hand")
    func refusedChange() async throws {
        try await withDevices(1) { devices, _ in
            let store = devices[0].store
            let huge = try store.createNote(NoteDraft(title: "Too big", body: String(repeating: "x", count: 1_200_000)))
            _ = try store.createNote(NoteDraft(title: "Fine"))
            for attempt in 1...3 {
                let report = try await devices[0].sync()
                #expect(report.errors == 1, "attempt \(attempt)")
            }
            let note = try store.note(id: huge.id)
            #expect(note.sync.status == .error)
            #expect(note.sync.errorMessage?.contains("at most 1000000") == true)
            #expect(note.sync.retryCount == 3)
            let summary = try store.syncSummary()
            #expect(summary.pending == 0)
            #expect(summary.failures.map(\.label) == ["Too big"])
            // Not tried again on its own.
            #expect(try await devices[0].sync().errors == 0)

            _ = try store.updateNote(id: huge.id, body: "small now")
            #expect(try store.retryFailedSync() == 0)
            try await devices[0].sync()
            #expect(try store.note(id: huge.id).sync.status == .synced)
        }
    }

    @Test("backoff doubles, caps and jitters")
    func backoff() {
        let backoff = SyncBackoff(base: .seconds(1), maximum: .seconds(60))
        #expect(backoff.delay(afterFailures: 0, jitter: 1) == .zero)
        #expect(backoff.delay(afterFailures: 1, jitter: 1) == .seconds(1))
        #expect(backoff.delay(afterFailures: 3, jitter: 1) == .seconds(4))
        #expect(backoff.delay(afterFailures: 3, jitter: 0.5) == .seconds(2))
        #expect(backoff.delay(afterFailures: 30, jitter: 1) == .seconds(60))
    }
}
