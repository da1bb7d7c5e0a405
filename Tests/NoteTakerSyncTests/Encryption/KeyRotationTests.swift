import Crypto
import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Rotating an encrypted account's data key (docs/encryption.md §2.3): the rotating device
/// seals with the new key at once and sends everything again sealed with it; a device that
/// never saw the key learns it from the server when it meets a record sealed with it, and
/// keeps working meanwhile. A key the server made up, or moved, is not learned.
@Suite struct KeyRotationTests {
    /// The key version of every record the server holds for `store`'s account.
    static func keyVersions(_ store: NoteStore) async throws -> Set<Int> {
        let records = try await SealedSyncTests.serverRecords(try store.syncTransport())
        return Set(records.filter { !$0.deleted }.compactMap { record in
            if case .number(let version)? = record.fields["$key"] { Int(exactly: version) } else { nil }
        })
    }

    @Test("a rotation seals everything anew with the new key; another device learns it, and every edit goes on")
    func rotationReachesEveryDevice() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "the password", allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            let folder = try laptop.createFolder(name: "Plans")
            let note = try laptop.createNote(NoteDraft(title: "Before the rotation", body: "first\n", folderId: folder.id, tags: ["Work"]))
            try await EncryptedAccountTests.sync(laptop)
            let phone = try EncryptedAccountTests.device()
            try await phone.logInToSyncAccount(
                server: server.url, username: "grace", password: "the password", allowInsecure: false, allowingUnencrypted: false,
                minimumCost: 1 << 14)
            try await EncryptedAccountTests.sync(phone)
            #expect(try await Self.keyVersions(laptop) == [1])

            // An engine made before the rotation (the web app's, say) seals with the new key from its next cycle.
            let running = try laptop.syncEngine(transport: try laptop.syncTransport())
            let version = try await laptop.rotateSyncKeys(password: "the password", minimumCost: 1 << 14)
            #expect(version == 2)
            #expect(try laptop.syncKeyring()?.newestVersion == 2)
            #expect(try laptop.syncSummary().pending == 3, "the note, its folder and its tag go up again")
            try await running.sync()
            #expect(try await Self.keyVersions(laptop) == [2])
            #expect(try await laptop.syncTransport().accountKeys().dataKeys.count == 2)

            // The phone, still on key 1, edits; its push is answered with the note sealed with
            // key 2, so it learns the key and merges, holding nothing.
            _ = try phone.updateNote(id: note.id, body: "first\nfrom the phone\n")
            let report = try await phone.syncEngine(transport: try phone.syncTransport()).sync()
            #expect(report.errors == 0 && report.merged >= 1, "\(report)")
            #expect(try phone.syncKeyring()?.newestVersion == 2)
            #expect(try phone.syncSummary().held.isEmpty && phone.syncSummary().failures.isEmpty)
            #expect(try phone.note(id: note.id).body == "first\nfrom the phone\n")
            #expect(try phone.note(id: note.id).tags == ["Work"])
            try await EncryptedAccountTests.sync(laptop)
            #expect(try laptop.note(id: note.id).body == "first\nfrom the phone\n")
            #expect(try await Self.keyVersions(laptop) == [2])

            // A new device opens everything with the password: the material holds both keys.
            let spare = try EncryptedAccountTests.device()
            try await spare.logInToSyncAccount(
                server: server.url, username: "grace", password: "the password", allowInsecure: false, allowingUnencrypted: false,
                minimumCost: 1 << 14)
            try await EncryptedAccountTests.sync(spare)
            #expect(try spare.note(id: note.id).folderId == folder.id)
        }
    }

    /// Converting seed 3,004,075 of the simulation: a device whose batch went up with its
    /// answer lost sent it again once the conversion's last step had dropped the answers the
    /// server kept, and another device had rotated the keys. The server answered with the
    /// device's own note sealed with the new key; a batch sent again did not learn keys from
    /// its answer, so the note was refused unopened, never taken as this device's own save,
    /// and its tag, taken off here since, came back from a merge without a base.
    @Test("a batch sent again after its answer was lost learns the key another device rotated to since, takes its own save, and a change made here since stands")
    func batchSentAgainLearnsTheNewKey() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await AccountConversionTests.plainDevice(server)
            _ = try laptop.createNote(NoteDraft(title: "Diary", body: "Monday\n"))
            try await EncryptedAccountTests.sync(laptop)
            let phone = try await AccountConversionTests.plainDevice(server)
            _ = try await laptop.encryptSyncAccount(
                server: server.url, username: "ada", currentPassword: AccountConversionTests.oldPassword,
                newPassword: AccountConversionTests.newPassword, allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            let cut = FaultyTransport(try laptop.syncTransport(), .plaintextDropCut)
            let laptopSealing = try laptop.syncKeyring().map(RecordSealing.init(keyring:))
            _ = try? await SyncEngine(store: laptop, transport: cut, options: .init(sealing: laptopSealing)).sync()
            #expect(cut.injected == 1, "the conversion's last step is still to come")

            try await AccountConversionTests.logIn(phone, server)
            let note = try phone.createNote(NoteDraft(title: "Made on the phone", body: "first\n", tags: ["Work"]))
            let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
            let sealing = try phone.syncKeyring().map(RecordSealing.init(keyring:))
            _ = try? await SyncEngine(store: phone, transport: lost, options: .init(sealing: sealing)).sync()
            #expect(lost.injected >= 1)

            // The laptop takes the note, finishes the conversion (the answers kept go), and rotates.
            let finished = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
            #expect(finished.conversionFinished, "\(finished)")
            #expect(try laptop.note(id: note.id).tags == ["Work"])
            #expect(try await laptop.rotateSyncKeys(password: AccountConversionTests.newPassword, minimumCost: 1 << 14) == 2)
            try await EncryptedAccountTests.sync(laptop)
            #expect(try await Self.keyVersions(laptop) == [2])

            _ = try phone.removeTags(["Work"], fromNote: note.id)
            let report = try await phone.syncEngine(transport: try phone.syncTransport()).sync()
            #expect(report.errors == 0, "\(report)")
            #expect(try phone.syncKeyring()?.newestVersion == 2)
            #expect(try phone.syncSummary().held.isEmpty && phone.syncSummary().failures.isEmpty)
            try await EncryptedAccountTests.sync(laptop)
            for device in [phone, laptop] {
                #expect(try device.note(id: note.id).tags == [], "the tag taken off on the phone stays off")
                #expect(try device.note(id: note.id).body == "first\n")
            }
        }
    }

    @Test("after a rotation the note versions and files the server keeps are sealed again with the new key, once; a new device reads them all")
    func keptVersionsSealedAgain() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "the password", allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            let note = try laptop.createNote(NoteDraft(title: "Diary", body: "Monday\n"))
            let source = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).jpg")
            try Data("a photo of Monday".utf8).write(to: source)
            defer { try? FileManager.default.removeItem(at: source) }
            let attachment = try laptop.attachFile(at: source, toNote: note.id)
            try await EncryptedAccountTests.sync(laptop)
            for day in ["Tuesday", "Wednesday", "Thursday"] {
                _ = try laptop.updateNote(id: note.id, body: try laptop.note(id: note.id).body + day + "\n")
                try await EncryptedAccountTests.sync(laptop)
            }
            let transport = try laptop.syncTransport()
            let before = try await transport.recordVersions(note.id)
            #expect(before.count == 3 && before.allSatisfy { $0.fields["$key"] == .number(1) })

            try await laptop.rotateSyncKeys(password: "the password", minimumCost: 1 << 14)
            let report = try await laptop.syncEngine(transport: transport).sync()
            #expect(report.resealedVersions == 3 && report.resealedFiles == 1, "\(report)")
            let after = try await transport.recordVersions(note.id)
            #expect(after.map(\.changeTag) == before.map(\.changeTag), "the same versions, under the same change tags")
            #expect(after.allSatisfy { $0.fields["$key"] == .number(2) })
            #expect(try await transport.keptVersions(sealedBelow: 2, after: nil).versions.isEmpty)
            #expect(try await transport.keptFiles(sealedBelow: 2, after: nil).addresses.isEmpty)
            let again = try await laptop.syncEngine(transport: transport).sync()
            #expect(again.resealedVersions == 0 && again.resealedFiles == 0, "the pass is done")

            let spare = try EncryptedAccountTests.device()
            try await spare.logInToSyncAccount(
                server: server.url, username: "grace", password: "the password", allowInsecure: false, allowingUnencrypted: false,
                minimumCost: 1 << 14)
            try await EncryptedAccountTests.sync(spare)
            #expect(try Data(contentsOf: spare.attachmentFiles.url(forHash: attachment.contentHash)) == Data("a photo of Monday".utf8),
                    "the file sealed again opens")
            let keyring = try #require(try spare.syncKeyring())
            let added = try await spare.fetchServerHistory(noteId: note.id, transport: try spare.syncTransport(), sealing: RecordSealing(keyring: keyring))
            #expect(added == 3)
            let bodies = try spare.history(noteId: note.id, withBodies: true).compactMap(\.body)
            for text in ["Monday\n", "Monday\nTuesday\n", "Monday\nTuesday\nWednesday\n"] {
                #expect(bodies.contains(text), "\(text) is in the history")
            }
        }
    }

    @Test("the pass over the kept versions, then files, is remembered a stretch at a time; a later rotation's pass takes its place")
    func resealingPassRemembered() throws {
        let store = try EncryptedAccountTests.device()
        #expect(try store.resealingPass() == nil)
        try store.queueResealing(keyVersion: 2)
        #expect(try store.resealingPass() == ResealingPass(below: 2))
        try store.noteResealing(ResealingPass(below: 2), next: "a stretch further")
        #expect(try store.resealingPass() == ResealingPass(below: 2, after: "a stretch further"), "a cut-short pass goes on from there")
        try store.noteResealing(ResealingPass(below: 2, after: "a stretch further"), next: nil)
        #expect(try store.resealingPass() == ResealingPass(below: 2, stage: .files), "the versions done, the files come")
        try store.queueResealing(keyVersion: 3)
        #expect(try store.noteResealing(ResealingPass(below: 2, stage: .files), next: nil) == ResealingPass(below: 3))
        #expect(try store.resealingPass() == ResealingPass(below: 3), "the older pass ending leaves the newer one")
        try store.noteResealing(ResealingPass(below: 3), next: nil)
        #expect(try store.noteResealing(ResealingPass(below: 3, stage: .files), next: nil) == nil)
        #expect(try store.resealingPass() == nil)
    }

    @Test("a wrong password rotates nothing, and an account without encryption has no keys to rotate")
    func refusals() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "the password", allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            _ = try laptop.createNote(NoteDraft(title: "Kept"))
            try await EncryptedAccountTests.sync(laptop)
            await #expect(throws: SyncError.self) { try await laptop.rotateSyncKeys(password: "not the password", minimumCost: 1 << 14) }
            #expect(try laptop.syncKeyring()?.newestVersion == 1)
            #expect(try await laptop.syncTransport().accountKeys().dataKeys.count == 1)
            #expect(try laptop.syncSummary().pending == 0)

            let plain = try EncryptedAccountTests.device()
            try await plain.connectSyncAccount(server: server.url, username: "bob", password: "plain password", register: true, allowInsecure: false)
            await #expect(throws: SyncError.noKeysToRotate) { try await plain.rotateSyncKeys(password: "plain password") }
        }
    }

    @Test("a device learns only keys wrapped by the account key for their version: made up, moved or cut, none opens")
    func madeUpKeysAreNotLearned() throws {
        let password = try PasswordKeys(password: "the password", parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
        let (keyring, material, _) = try AccountKeyring.create(account: "grace", password: password, parameters: EncryptedAccountTests.cheap())
        let (rotated, wrapped) = try keyring.rotated()
        var grown = material
        grown.dataKeys.append(wrapped)
        let learned = try keyring.learning(grown)
        #expect(learned.newestVersion == 2)
        #expect(learned.dataKey(version: 2).map { Data($0.withUnsafeBytes { Data($0) }) } == rotated.dataKey(version: 2).map { Data($0.withUnsafeBytes { Data($0) }) })
        #expect(try keyring.learning(material).newestVersion == 1, "nothing new: the same keys")

        var madeUp = material
        madeUp.dataKeys.append(Base64URL.encode(try KeyWrap.wrap(
            SymmetricKey(size: .bits256), with: SymmetricKey(size: .bits256), data: KeyWrap.zoneKeyData(zone: "private", version: 2))))
        #expect(throws: EncryptionError.self) { try keyring.learning(madeUp) }
        var moved = material
        moved.dataKeys.append(material.dataKeys[0])
        #expect(throws: EncryptionError.self, "version 1's wrap offered as version 2") { try keyring.learning(moved) }
        var cut = material
        cut.dataKeys.append(String(wrapped.dropLast(4)))
        #expect(throws: EncryptionError.self) { try keyring.learning(cut) }
        // A material with fewer keys than the device holds takes none away.
        #expect(try learned.learning(material).newestVersion == 2)
    }

    @Test("a rotation while a conversion's pass is cut short before its last step: what the pass sealed with the older key is sealed again")
    func rotationDuringAConversionsPass() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await AccountConversionTests.plainDevice(server)
            let note = try laptop.createNote(NoteDraft(title: "Diary", body: "Monday\n"))
            for day in ["Tuesday", "Wednesday"] {
                try await EncryptedAccountTests.sync(laptop)
                _ = try laptop.updateNote(id: note.id, body: try laptop.note(id: note.id).body + day + "\n")
            }
            try await EncryptedAccountTests.sync(laptop)
            _ = try await laptop.encryptSyncAccount(
                server: server.url, username: "ada", currentPassword: AccountConversionTests.oldPassword,
                newPassword: AccountConversionTests.newPassword, allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            // The pass seals the versions kept in plain text with key 1; the last step is cut.
            let cut = FaultyTransport(try laptop.syncTransport(), .plaintextDropCut)
            let sealing = try laptop.syncKeyring().map(RecordSealing.init(keyring:))
            _ = try? await SyncEngine(store: laptop, transport: cut, options: .init(sealing: sealing)).sync()
            #expect(cut.injected == 1)
            #expect(try laptop.resealingPass() == ResealingPass(below: 1, stage: .plaintext))
            let transport = try laptop.syncTransport()
            #expect(try await transport.keptVersions(sealedBelow: 2, after: nil).versions.count >= 2)

            try await laptop.rotateSyncKeys(password: AccountConversionTests.newPassword, minimumCost: 1 << 14)
            let report = try await laptop.syncEngine(transport: transport).sync()
            #expect(report.conversionFinished && report.resealedVersions >= 2, "\(report)")
            #expect(try await transport.keptVersions(sealedBelow: 2, after: nil).versions.isEmpty, "every kept version sealed with key 2")
            #expect(try laptop.resealingPass() == nil)
        }
    }

    @Test("a rotation while the conversion's pass is still to run keeps that pass: it seals what is in plain text and has the server drop it, then the rotation's runs")
    func rotationKeepsAConversionsPass() throws {
        let store = try NoteStore.inMemory()
        _ = try store.createNote(NoteDraft(title: "Plans", body: "a list\n"))
        try store.beginEncryptionConversion(identity: KeyedIdentity(idKey: SymmetricKey(size: .bits256)))
        try store.queueResealing(keyVersion: 2)
        #expect(try store.resealingPass() == ResealingPass(below: 1, thenBelow: 2), "the rotation's pass waits for it")
        try store.noteResealing(ResealingPass(below: 1), next: "a stretch further")
        try store.restartResealing(ResealingPass(below: 1, stage: .plaintext))
        #expect(try store.resealingPass() == ResealingPass(below: 1, thenBelow: 2), "started over, it still waits")
        try store.noteResealing(ResealingPass(below: 1), next: nil)
        #expect(try store.noteResealing(ResealingPass(below: 1, stage: .plaintext), next: nil) == ResealingPass(below: 2),
                "the conversion done, the rotation's pass comes")
        // Without a conversion's pass, the rotation's is kept.
        let other = try NoteStore.inMemory()
        try other.queueResealing(keyVersion: 2)
        #expect(try other.resealingPass() == ResealingPass(below: 2))
    }
}
