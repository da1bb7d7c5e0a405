import Foundation
@testable import NoteTakerKit
import Testing
@testable import NoteTakerSync

@Suite("Live sync over the push channel")
struct LiveTests {
    @Test("an edit on one watching device appears on another without a manual sync")
    func pushed() async throws {
        try await withDevices(2) { devices, server in
            let token = try await server.register("live")
            let stores = try (0..<2).map { _ in try NoteStore.inMemory() }
            let watchers = try stores.map { store in
                let transport = try HTTPSyncTransport(server: server.url, token: token)
                return SyncWatcher(engine: SyncEngine(store: store, transport: transport), store: store, transport: transport,
                                   pollInterval: .seconds(3600))
            }
            let tasks = watchers.map { watcher in Task { await watcher.run() } }
            defer { tasks.forEach { $0.cancel() } }

            let note = try stores[0].createNote(NoteDraft(title: "Typed on the laptop"))
            let seen = try await firstValue(of: stores[1].observeNote(id: note.id)) { $0 != nil }
            #expect(seen??.title == "Typed on the laptop")

            _ = try stores[1].updateNote(id: note.id, body: "answered on the phone")
            let back = try await firstValue(of: stores[0].observeNote(id: note.id)) { $0?.body == "answered on the phone" }
            #expect(back != nil)
        }
    }

    @Test("the event stream parser reads changes and zone events and skips comments")
    func parser() {
        #expect(EventParser.changesToken(in: "event: changes\ndata: {\"token\":\"abc:3\"}") == "abc:3")
        #expect(EventParser.changesToken(in: ": heartbeat") == nil)
        #expect(EventParser.changesToken(in: "event: other\ndata: {\"token\":\"x\"}") == nil)
        #expect(EventParser.changesToken(in: "event: zone\ndata: {\"token\":\"def:4\",\"zone\":\"0b6e\"}") == "def:4", "a shared zone's change")
    }
}
