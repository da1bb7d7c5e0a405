import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

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

    @Test("each version names the device that wrote it, on every device and from the server")
    func versionsNameTheirDevice() async throws {
        try await withDevices(3) { devices, server in
            let (laptop, phone, later) = (devices[0], devices[1], devices[2])
            try laptop.store.setDeviceName("Ada's laptop")
            try phone.store.setDeviceName("Ada's phone")
            try later.store.setDeviceName("New tablet")
            let note = try laptop.store.createNote(NoteDraft(title: "Plan", body: "written on the laptop"))
            try await laptop.sync()
            try await phone.sync()
            _ = try phone.store.updateNote(id: note.id, body: "written on the phone")
            #expect(try phone.store.history(noteId: note.id).map(\.device) == ["Ada's laptop"], "the text came from the laptop")
            try await phone.sync()
            try await laptop.sync()
            _ = try laptop.store.updateNote(id: note.id, body: "the laptop again")
            #expect(try laptop.store.history(noteId: note.id).map(\.device) == ["Ada's phone", "Ada's laptop"])
            try await laptop.sync()

            // A device set up later reads the names from the server's versions.
            try await later.sync()
            try await later.store.fetchServerHistory(noteId: note.id, transport: later.transport)
            let versions = try later.store.history(noteId: note.id, withBodies: true)
            #expect(versions.map(\.body) == ["written on the phone", "written on the laptop"])
            #expect(versions.map(\.device) == ["Ada's phone", "Ada's laptop"])

            // Renaming a device names its own versions anew everywhere they are its own.
            try laptop.store.setDeviceName("Work laptop")
            #expect(try laptop.store.history(noteId: note.id).map(\.device) == ["Ada's phone", "Work laptop"])
            #expect(try laptop.store.syncSettings().deviceName == "Work laptop")
            try laptop.store.setDeviceName("")
            #expect(try laptop.store.syncSettings().deviceName == ProcessInfo.processInfo.hostName)
            #expect(throws: NoteTakerError.self) { try laptop.store.setDeviceName("two\nlines") }
            #expect(throws: NoteTakerError.self) { try laptop.store.setDeviceName(String(repeating: "x", count: 101)) }
        }
    }

    @Test("a device name that is not one is left out; the note still applies")
    func badDeviceNameIsLeftOut() async throws {
        try await withDevices(2) { devices, server in
            let (device, other) = (devices[0], devices[1])
            let note = try device.store.createNote(NoteDraft(title: "Plan", body: "mine"))
            try await device.sync()
            let tag = try #require(try device.store.note(id: note.id).sync.changeTag)
            var fields = try #require(try await other.transport.fetchChanges(ChangesQuery(since: nil)).records.first { $0.recordId == note.id }).fields
            fields["body"] = .string("from a device with a strange name")
            fields["editedOn"] = .string(String(repeating: "long ", count: 100))
            _ = try await other.transport.modify(ModifyRequest(changes: [
                RecordChange(recordType: "note", recordId: note.id, operation: .save, baseChangeTag: tag, fields: fields),
            ]))
            fields["body"] = .string("and from one that sent a number")
            fields["editedOn"] = .number(7)
            let next = try #require(try await other.transport.fetchChanges(ChangesQuery(since: nil)).records.first { $0.recordId == note.id }).changeTag
            _ = try await other.transport.modify(ModifyRequest(changes: [
                RecordChange(recordType: "note", recordId: note.id, operation: .save, baseChangeTag: next, fields: fields),
            ]))
            try await device.sync()
            // The first change was replaced before this device pulled: it sees the second.
            #expect(try device.store.note(id: note.id).body == "and from one that sent a number")
            #expect(try device.store.syncSummary().held.isEmpty)
            let versions = try device.store.history(noteId: note.id, withBodies: true)
            #expect(versions.map(\.body) == ["mine"])
            #expect(versions.map(\.device) == [ProcessInfo.processInfo.hostName])
            _ = try device.store.updateNote(id: note.id, body: "edited here")
            #expect(try device.store.history(noteId: note.id).first?.device == nil, "the text came from a device that did not say")
        }
    }

    @Test("offline, a history is this device's versions, and says why the server's are missing")
    func offlineHistory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try NoteStore.open(at: directory.appendingPathComponent("NoteTaker.sqlite"))
        let note = try disk.createNote(NoteDraft(title: "Plan", body: "one"))
        _ = try disk.updateNote(id: note.id, body: "two")
        let alone = try await disk.completeHistory(noteId: note.id)
        #expect(alone.versions.count == 1 && alone.serverProblem == nil, "a store that does not sync has nothing to miss")
        try disk.setSyncAccount(serverURL: try #require(URL(string: "http://127.0.0.1:1")), username: "ada", allowInsecure: false)
        try disk.saveSyncToken("token")
        let offline = try await disk.completeHistory(noteId: note.id)
        #expect(offline.versions.count == 1)
        #expect(offline.serverProblem?.message.isEmpty == false)
    }
}
