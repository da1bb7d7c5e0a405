import Foundation
import NoteTakerKit
import NoteTakerModel
import NoteTakerServer
import NoteTakerSyncProtocol
import Synchronization
import Testing

@testable import NoteTakerSync

/// Sync with end-to-end encryption (docs/encryption.md §3): devices seal what they send and
/// open what they receive, so the server holds envelopes only, while notes, folders, tags,
/// merges and history work as without it.
@Suite struct SealedSyncTests {
    /// The marker every field written here holds: it must never reach the server.
    static let canary = "Canary7f3e"

    static func sealing() throws -> RecordSealing {
        try account().sealing
    }

    /// The sealing a device's engine uses.
    static func sealing(of device: Device) async throws -> RecordSealing {
        try #require(await device.engine.options.sealing as? RecordSealing)
    }

    /// An encrypted account's keys: the device's sealing, the server's material, and the
    /// login secret the device logs in with.
    static func account() throws -> (sealing: RecordSealing, material: AccountKeys, loginSecret: String) {
        let parameters = EncryptedAccountTests.cheap()
        let password = try PasswordKeys(password: "correct horse", parameters: parameters, minimumCost: 1 << 14)
        let made = try AccountKeyring.create(account: "ada", password: password, parameters: parameters)
        return (RecordSealing(keyring: made.keyring), made.material, Base64URL.encode(password.loginSecret.withUnsafeBytes { Data($0) }))
    }

    /// A live server with an encrypted account "ada" (its key material kept there), its token
    /// and keys given; stopped when `body` ends.
    static func withSealedAccount(_ body: (LiveServer, String, RecordSealing) async throws -> Void) async throws {
        let server = try await LiveServer.start()
        do {
            let account = try account()
            let token = try await HTTPSyncTransport(server: server.url, token: nil)
                .register(username: "ada", password: account.loginSecret, keys: account.material).token
            try await body(server, token, account.sealing)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Devices of an encrypted account on a live server.
    static func withSealedDevices(_ count: Int, _ body: ([Device], LiveServer) async throws -> Void) async throws {
        try await withSealedAccount { server, token, sealing in
            try await body(try (0..<count).map { try Device("device \($0 + 1)", server: server, token: token, sealing: sealing) }, server)
        }
    }

    /// Every record the server holds for the account, as it holds them.
    static func serverRecords(_ server: LiveServer) async throws -> [SyncRecord] {
        let account = try #require(try await server.service.storage.account(named: "ada"))
        return try await server.service.storage.changes(account: account.id, after: 0, skipping: nil, limit: 10_000, maxBytes: 100_000_000).records
    }

    /// Every record the server lists to a device of the account.
    static func serverRecords(_ transport: HTTPSyncTransport) async throws -> [SyncRecord] {
        var records: [SyncRecord] = []
        var query = ChangesQuery(since: nil)
        while true {
            let page = try await transport.fetchChanges(query)
            records += page.records
            guard page.moreComing else { return records }
            query.since = page.token
        }
    }

    @Test func notesFoldersAndTagsGoUpSealedAndComeDownWhole() async throws {
        try await Self.withSealedDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "\(Self.canary) folder", icon: "🦜")
            var draft = NoteDraft(title: "\(Self.canary) title", body: "# \(Self.canary)\n\nThe body, [[\(Self.canary) link]].")
            draft.folderId = folder.id
            draft.isPinned = true
            draft.tags = ["\(Self.canary)tag"]
            let note = try a.store.createNote(draft)
            try await a.sync()

            let records = try await Self.serverRecords(server)
            #expect(Set(records.map(\.recordType)) == ["note", "folder", "tag"])
            for record in records {
                #expect(record.fields.isSealed && record.fields.keys.allSatisfy { $0.hasPrefix("$") }, "\(record.fields)")
                #expect(!record.fields.wireJSON.contains(Self.canary))
            }
            if case .sqlite(let directory) = server.database {
                for file in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) where file.pathExtension != "" || file.lastPathComponent.hasPrefix("NoteTaker") {
                    guard let bytes = try? Data(contentsOf: file) else { continue }
                    #expect(bytes.range(of: Data(Self.canary.utf8)) == nil, "\(file.lastPathComponent) holds the marker")
                }
            }

            try await b.sync()
            let arrived = try b.store.note(id: note.id)
            #expect(arrived.title == draft.title && arrived.body == draft.body && arrived.isPinned)
            #expect(arrived.folderId == folder.id && arrived.tags == draft.tags)
            #expect(try b.store.folder(id: folder.id).name == folder.name)
            #expect(try b.store.syncSummary().held.isEmpty)
        }
    }

    @Test func attachmentFilesGoUpSealedUnderAKeyedAddressAndComeDownWhole() async throws {
        try await Self.withSealedDevices(2) { devices, server in
            let (a, b) = (devices[0], devices[1])
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-files-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // Three chunks and a bit, and a file of exactly one chunk (its last chunk is empty).
            let contents = [
                Data((0..<(3 * FileSeal.chunkSize + 1234)).map { UInt8($0 % 251) }) + Data(Self.canary.utf8),
                Data(Self.canary.utf8) + Data(repeating: 0x2A, count: FileSeal.chunkSize - Self.canary.utf8.count),
            ]
            let note = try a.store.createNote(NoteDraft(title: "With files", body: ""))
            var attachments: [NoteTakerModel.Attachment] = []
            for (index, content) in contents.enumerated() {
                let file = folder.appendingPathComponent("\(Self.canary)-\(index).bin")
                try content.write(to: file)
                attachments.append(try a.store.attachFile(at: file, toNote: note.id))
            }
            let report = try await a.sync()
            #expect(report.uploadedFiles == 2)

            if case .sqlite(let directory) = server.database {
                let stored = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
                for attachment in attachments {
                    #expect(!stored.contains { $0.lastPathComponent == attachment.contentHash }, "no file is kept under its SHA-256")
                }
                for file in stored {
                    guard let bytes = try? Data(contentsOf: file) else { continue }
                    #expect(bytes.range(of: Data(Self.canary.utf8)) == nil, "\(file.lastPathComponent) holds the marker")
                }
            }

            let pulled = try await b.sync()
            #expect(pulled.downloadedFiles == 2 && pulled.errors == 0)
            for (attachment, content) in zip(attachments, contents) {
                #expect(try Data(contentsOf: b.store.attachmentFiles.url(forHash: attachment.contentHash)) == content)
            }
        }
    }

    @Test func editsOnTwoDevicesStillMerge() async throws {
        try await Self.withSealedDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "List", body: "one\ntwo\nthree\nfour\nfive"))
            try await a.sync()
            try await b.sync()
            _ = try a.store.updateNote(id: note.id, body: "ONE\ntwo\nthree\nfour\nfive")
            _ = try b.store.updateNote(id: note.id, body: "one\ntwo\nthree\nfour\nFIVE")
            try await a.sync()
            try await b.sync()  // its push meets a's sealed version, opens it and merges
            try await a.sync()
            #expect(try a.store.note(id: note.id).body == "ONE\ntwo\nthree\nfour\nFIVE")
            #expect(try b.store.note(id: note.id).body == "ONE\ntwo\nthree\nfour\nFIVE")
            #expect(try a.store.syncSummary().held.isEmpty && b.store.syncSummary().held.isEmpty)
        }
    }

    @Test func anEditThatOutranksADeletionBringsTheNoteBackEverywhere() async throws {
        try await Self.withSealedDevices(3) { devices, _ in
            let (a, b, c) = (devices[0], devices[1], devices[2])
            let note = try a.store.createNote(NoteDraft(title: "Kept", body: "one"))
            for device in devices { try await device.sync() }
            _ = try b.store.updateNote(id: note.id, body: "one\ntwo")
            try await b.sync()
            try await c.sync()  // has seen the second version
            _ = try a.store.updateNote(id: note.id, body: "one\nthree")  // offline, on the first
            _ = try b.store.trashNotes(ids: [note.id])
            _ = try b.store.purgeNotes(ids: [note.id])
            try await b.sync()
            try await a.sync()  // meets the deletion, learns its revision, and brings the note back above it
            try await c.sync()
            try await b.sync()
            for device in devices {
                #expect(try device.store.note(id: note.id).body.contains("three"), "\(device.name)")
                #expect(try device.store.syncSummary().held.isEmpty, "\(device.name)")
            }
        }
    }

    @Test func historyOnTheServerOpensOnANewDevice() async throws {
        try await Self.withSealedAccount { server, token, sealing in
            let (a, b) = (try Device("a", server: server, token: token, sealing: sealing), try Device("b", server: server, token: token, sealing: sealing))
            let note = try a.store.createNote(NoteDraft(title: "Plan", body: "first draft"))
            try await a.sync()
            _ = try a.store.updateNote(id: note.id, body: "second draft")
            try await a.sync()
            let kept = try await a.transport.recordVersions(note.id)
            #expect(kept.count == 1 && kept.allSatisfy { $0.fields.isSealed })
            try await b.sync()
            #expect(try await b.store.fetchServerHistory(noteId: note.id, transport: b.transport, sealing: sealing) == 1)
            #expect(try b.store.history(noteId: note.id, withBodies: true).map(\.body) == ["first draft"])
        }
    }
}
