import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// History survives the loss of a device: the server keeps the versions of each note it
/// replaces, and a device set up later sees them, merged with its own, each once.
@Suite("History on the server")
struct ServerHistoryTests {
    @Test("a device that joins later sees the versions made before it joined, each once")
    func laterDeviceSeesEarlierVersions() async throws {
        try await withDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "Plan", body: "first draft"))
            try await a.sync()
            for body in ["second draft", "third draft"] {
                _ = try a.store.updateNote(id: note.id, body: body)
                try await a.sync()
            }
            let onServer = try await a.transport.recordVersions(note.id)
            #expect(onServer.compactMap { $0.fields["body"]?.string } == ["second draft", "first draft"])

            try await b.sync()
            #expect(try b.store.history(noteId: note.id, withBodies: true).isEmpty, "a new device holds no versions of its own")
            #expect(try await b.store.fetchServerHistory(noteId: note.id, transport: b.transport) == 2)
            #expect(try await b.store.fetchServerHistory(noteId: note.id, transport: b.transport) == 0, "each version once")
            #expect(try b.store.history(noteId: note.id, withBodies: true).map(\.body) == ["second draft", "first draft"])

            // The device's own versions and the server's merge by time: an edit here comes first.
            _ = try b.store.updateNote(id: note.id, body: "fourth draft")
            #expect(try b.store.history(noteId: note.id, withBodies: true).map(\.body) == ["third draft", "second draft", "first draft"])
            try await b.sync()
            try await a.sync()
            // Device 1's two quick edits were one run of editing, so it kept "first draft" only;
            // the server kept each synced version, and fills in the one it lacks.
            #expect(try await a.store.fetchServerHistory(noteId: note.id, transport: a.transport) == 1)
            #expect(try a.store.history(noteId: note.id, withBodies: true).map(\.body) == ["third draft", "second draft", "first draft"])

        }
    }

    @Test("versions count in the account's usage, and go when the note is purged")
    func versionsInUsage() async throws {
        try await withDevices(1) { devices, server in
            let a = devices[0]
            let account = try #require(try await server.service.storage.account(named: "ada"))
            let note = try a.store.createNote(NoteDraft(title: "Big", body: String(repeating: "x", count: 10_000)))
            try await a.sync()
            let before = try await server.service.status(of: account).usedBytes
            _ = try a.store.updateNote(id: note.id, body: String(repeating: "y", count: 10_000))
            try await a.sync()
            let after = try await server.service.status(of: account).usedBytes
            #expect(after - before > 10_000, "the replaced 10 kB body is kept and counted")
            _ = try a.store.trashNotes(ids: [note.id])
            _ = try a.store.purgeNotes(ids: [note.id])
            try await a.sync()
            let purged = try await server.service.status(of: account).usedBytes
            #expect(purged < before, "the purge dropped the note's versions and its body: \(purged) ≥ \(before)")
        }
    }

    @Test("versions of another account's note, an unknown note or a malformed id are not found")
    func notFound() async throws {
        try await withDevices(1) { devices, server in
            let a = devices[0]
            let note = try a.store.createNote(NoteDraft(title: "Mine"))
            try await a.sync()
            let intruder = try HTTPSyncTransport(server: server.url, token: try await server.register("eve", password: "another password"))
            let theirs = await #expect(throws: SyncError.self) { try await intruder.recordVersions(note.id) }
            #expect(theirs?.message.contains("has no note") == true, "\(theirs?.message ?? "")")
            await #expect(throws: SyncError.self) { try await a.transport.recordVersions(UUID()) }
            var request = URLRequest(url: server.url.appendingPathComponent("v1/records/not-a-uuid/versions"))
            request.setValue("Bearer \(try #require(a.transport.token))", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
        }
    }
}
