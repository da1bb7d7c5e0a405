import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Synchronization
import Testing

@testable import NoteTakerSync

/// A server that changes what it hands out, between the real server and one device: what a
/// compromised or dishonest operator could do to an encrypted account.
final class TamperingTransport: SyncTransport, Sendable {
    private let base: HTTPSyncTransport
    /// Changes each page of changes before the device sees it.
    let page = Mutex<@Sendable (inout ChangesResponse) -> Void>({ _ in })
    /// Changes each sealed file downloaded before the device opens it.
    let fileTamper = Mutex<@Sendable (URL) -> Void>({ _ in })
    /// Changes each answer to a batch before the device sees it.
    let answer = Mutex<@Sendable (inout ModifyResponse) -> Void>({ _ in })

    init(_ base: HTTPSyncTransport) {
        self.base = base
    }

    func health() async throws(SyncError) -> HealthResponse { try await base.health() }

    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        var fetched = try await base.fetchChanges(query)
        page.withLock { $0 }(&fetched)
        return fetched
    }

    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        var answered = try await base.modify(request, fieldsJSON: fieldsJSON)
        answer.withLock { $0 }(&answered)
        return answered
    }

    func assetExists(hash: String) async throws(SyncError) -> Bool { try await base.assetExists(hash: hash) }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await base.uploadAsset(hash: hash, from: file) }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try await base.downloadAsset(hash: hash, to: file) }
    func downloadSealedAsset(address: String, to file: URL) async throws(SyncError) {
        try await base.downloadSealedAsset(address: address, to: file)
        fileTamper.withLock { $0 }(file)
    }
    func recordVersions(_ recordId: UUID) async throws(SyncError) -> [RecordVersion] { try await base.recordVersions(recordId) }
}

/// The server's moves against sealed records (docs/encryption.md §3.4, §7): a changed byte, a
/// record's envelope under another record's id, plaintext of its own, an envelope under a key
/// or a format the device does not know, an older version replayed as new, and a tampered
/// conflict. Each is held in quarantine with its reason, nothing of it applied, and nothing of
/// the device's lost; the records the server left alone arrive as usual.
@Suite struct MaliciousServerTests {
    struct Setup {
        let honest: Device
        let victim: Device
        let tampering: TamperingTransport
        let sealing: RecordSealing
    }

    private func withVictim(_ body: (Setup) async throws -> Void) async throws {
        try await SealedSyncTests.withSealedAccount { server, token, sealing in
            let honest = try Device("honest", server: server, token: token, sealing: sealing)
            let store = try NoteStore.inMemory()
            let tampering = TamperingTransport(try HTTPSyncTransport(server: server.url, token: token))
            let engine = SyncEngine(store: store, transport: tampering, options: .init(policy: .localWins, sealing: sealing))
            let victim = Device(name: "victim", store: store, transport: try HTTPSyncTransport(server: server.url, token: token), engine: engine)
            try await body(Setup(honest: honest, victim: victim, tampering: tampering, sealing: sealing))
        }
    }

    private func held(_ device: Device) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try device.store.syncSummary().held.map { ($0.recordId, $0.reason) })
    }

    @Test func recordsChangedOnTheServerAreHeldWithTheirReason() async throws {
        try await withVictim { setup in
            let titles = ["flipped", "swapped", "plaintext", "newer key", "newer format", "other zone", "honest"]
            var ids: [String: UUID] = [:]
            for title in titles { ids[title] = try setup.honest.store.createNote(NoteDraft(title: title, body: "\(title) body")).id }
            try await setup.honest.sync()
            let byTitle = ids
            setup.tampering.page.withLock {
                $0 = { page in
                    let envelopes = Dictionary(uniqueKeysWithValues: page.records.map { ($0.recordId, $0.fields) })
                    for index in page.records.indices {
                        let id = page.records[index].recordId
                        var fields = page.records[index].fields
                        switch id {
                        case byTitle["flipped"]:
                            let sealed = fields["$sealed"]?.string ?? ""
                            let flipped = sealed.first == "A" ? "B" : "A"
                            fields["$sealed"] = .string(flipped + sealed.dropFirst())
                        case byTitle["swapped"]: fields = envelopes[byTitle["honest"]!] ?? [:]
                        case byTitle["plaintext"]: fields = ["title": .string("Written by the server"), "body": .string("pay here")]
                        case byTitle["newer key"]: fields["$key"] = .number(2)
                        case byTitle["newer format"]: fields["$enc"] = .number(2)
                        case byTitle["other zone"]: fields["$zone"] = .string("shared")
                        default: break
                        }
                        page.records[index].fields = fields
                    }
                }
            }
            let report = try await setup.victim.sync()
            #expect(try setup.victim.titles() == ["honest"])
            #expect(report.errors == 6)
            let reasons = try held(setup.victim)
            #expect(reasons[ids["flipped"]!.key]?.contains("changed on the server") == true)
            #expect(reasons[ids["swapped"]!.key]?.contains("changed on the server, or moved from another record") == true)
            #expect(reasons[ids["plaintext"]!.key]?.contains("was not encrypted") == true)
            #expect(reasons[ids["newer key"]!.key]?.contains("a key this device does not have") == true)
            #expect(reasons[ids["newer format"]!.key]?.contains("newer NoteTaker") == true)
            #expect(reasons[ids["other zone"]!.key]?.contains("a key this device does not have") == true)

            // The server stops: the next versions of the held records arrive and replace them.
            setup.tampering.page.withLock { $0 = { _ in } }
            for title in titles where title != "honest" { _ = try setup.honest.store.updateNote(id: ids[title]!, body: "\(title) again") }
            try await setup.honest.sync()
            try await setup.victim.sync()
            #expect(try setup.victim.titles() == titles.sorted())
            #expect(try held(setup.victim).isEmpty)
        }
    }

    @Test func anOlderVersionReplayedAsNewIsHeldAndTheNewerKept() async throws {
        try await withVictim { setup in
            let note = try setup.honest.store.createNote(NoteDraft(title: "Balance", body: "owed: 10"))
            try await setup.honest.sync()
            try await setup.victim.sync()
            let first = try #require(try await SealedSyncTests.serverRecords(setup.honest.transport).first { $0.recordId == note.id })
            _ = try setup.honest.store.updateNote(id: note.id, body: "owed: 0")
            try await setup.honest.sync()
            try await setup.victim.sync()
            #expect(try setup.victim.store.note(id: note.id).body == "owed: 0")

            // The server hands out the first version again, as a new change.
            setup.tampering.page.withLock {
                $0 = { page in
                    var replayed = first
                    replayed.changeTag = "999999"
                    page.records = [replayed]
                }
            }
            let report = try await setup.victim.sync()
            #expect(report.errors == 1)
            #expect(try setup.victim.store.note(id: note.id).body == "owed: 0")
            #expect(try held(setup.victim)[note.id.key]?.contains("An older version of this record came back") == true)
        }
    }

    /// A device keeps no record of a first revision (a first sync writes none): an edit of a
    /// record it saw only at revision 1 still goes up above it, and the first version, handed
    /// out again, is a replay.
    @Test func aRecordSeenOnlyAtItsFirstRevisionIsEditedAboveIt() async throws {
        try await withVictim { setup in
            let note = try setup.honest.store.createNote(NoteDraft(title: "Balance", body: "owed: 10"))
            try await setup.honest.sync()
            try await setup.victim.sync()
            let key = RecordRevision.Key(recordType: "note", recordId: note.id)
            #expect(try setup.victim.store.seenRevisions([key]).isEmpty)
            let first = try #require(try await SealedSyncTests.serverRecords(setup.honest.transport).first { $0.recordId == note.id })

            _ = try setup.victim.store.updateNote(id: note.id, body: "owed: 0")
            try await setup.victim.sync()
            let edited = try #require(try await SealedSyncTests.serverRecords(setup.honest.transport).first { $0.recordId == note.id })
            #expect(try setup.sealing.unseal(edited).get().revision == 2)
            #expect(try setup.victim.store.seenRevisions([key]) == [key: 2])

            setup.tampering.page.withLock {
                $0 = { page in
                    var replayed = first
                    replayed.changeTag = "999999"
                    page.records = [replayed]
                }
            }
            #expect(try await setup.victim.sync().errors == 1)
            #expect(try setup.victim.store.note(id: note.id).body == "owed: 0")
        }
    }

    @Test func aSealedFileChangedCutOrSwappedOnTheServerIsNotKept() async throws {
        try await withVictim { setup in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tampered-files-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let content = Data((0..<(2 * FileSeal.chunkSize + 99)).map { UInt8($0 % 253) })
            let note = try setup.honest.store.createNote(NoteDraft(title: "Scan", body: ""))
            try content.write(to: folder.appendingPathComponent("scan.pdf"))
            let attachment = try setup.honest.store.attachFile(at: folder.appendingPathComponent("scan.pdf"), toNote: note.id)
            let other = try setup.honest.store.createNote(NoteDraft(title: "Other", body: ""))
            try Data("another file".utf8).write(to: folder.appendingPathComponent("other.txt"))
            let otherAttachment = try setup.honest.store.attachFile(at: folder.appendingPathComponent("other.txt"), toNote: other.id)
            try await setup.honest.sync()
            let otherAddress = try #require(try await SealedSyncTests.sealing(of: setup.honest).fileAddress(forHash: otherAttachment.contentHash))
            let otherSealed = folder.appendingPathComponent("other.sealed")
            try await setup.honest.transport.downloadSealedAsset(address: otherAddress, to: otherSealed)
            let destination = setup.victim.store.attachmentFiles.url(forHash: attachment.contentHash)

            let moves: [(String, @Sendable (URL) -> Void)] = [
                ("a byte changed", { url in
                    var bytes = (try? Data(contentsOf: url)) ?? Data()
                    bytes[bytes.count / 2] ^= 0x01
                    try? bytes.write(to: url)
                }),
                ("cut after a whole chunk", { url in
                    let bytes = (try? Data(contentsOf: url)) ?? Data()
                    try? bytes.prefix(FileSeal.headerSize + FileSeal.chunkSize + 16).write(to: url)
                }),
                ("another file of the account", { url in
                    guard url.lastPathComponent.contains(otherAddress) == false else { return }
                    try? FileManager.default.removeItem(at: url)
                    try? FileManager.default.copyItem(at: otherSealed, to: url)
                }),
            ]
            for (move, tamper) in moves {
                setup.tampering.fileTamper.withLock { $0 = tamper }
                let report = try await setup.victim.sync()
                #expect(report.downloadedFiles <= 1 && report.errors >= 1, "\(move)")
                #expect(!FileManager.default.fileExists(atPath: destination.path), "\(move): nothing kept")
            }
            setup.tampering.fileTamper.withLock { $0 = { _ in } }
            try await setup.victim.sync()
            #expect(try Data(contentsOf: destination) == content, "asked for again, the untouched file arrives whole")
        }
    }

    @Test func aTamperedConflictIsNotMergedAndTheEditWaits() async throws {
        try await withVictim { setup in
            let note = try setup.honest.store.createNote(NoteDraft(title: "Shared", body: "one\ntwo\nthree"))
            try await setup.honest.sync()
            try await setup.victim.sync()
            _ = try setup.honest.store.updateNote(id: note.id, body: "ONE\ntwo\nthree")
            try await setup.honest.sync()
            _ = try setup.victim.store.updateNote(id: note.id, body: "one\ntwo\nTHREE")
            // The victim's push meets the honest device's version, which the server changes, and
            // the victim does not fetch it either.
            setup.tampering.answer.withLock {
                $0 = { answer in
                    for index in answer.results.indices {
                        guard var fields = answer.results[index].serverRecord?.fields else { continue }
                        fields["$salt"] = .string(String(repeating: "A", count: 43))
                        answer.results[index].serverRecord?.fields = fields
                    }
                }
            }
            setup.tampering.page.withLock { $0 = { page in page.records = [] } }
            _ = try await setup.victim.sync()
            #expect(try setup.victim.store.note(id: note.id).body == "one\ntwo\nTHREE", "the edit here is kept")
            #expect(try held(setup.victim)[note.id.key]?.contains("changed on the server") == true)
            #expect(try setup.victim.store.syncSummary().pending == 1, "the edit waits to go up again")

            // The server behaves again: the edit merges with the honest device's.
            setup.tampering.answer.withLock { $0 = { _ in } }
            setup.tampering.page.withLock { $0 = { _ in } }
            try await setup.victim.sync()
            try await setup.honest.sync()
            #expect(try setup.victim.store.note(id: note.id).body == "ONE\ntwo\nTHREE")
            #expect(try setup.honest.store.note(id: note.id).body == "ONE\ntwo\nTHREE")
        }
    }
}
