import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Converting an account that holds notes to end-to-end encryption (docs/encryption.md §2.4):
/// one device sends everything again sealed and has the server drop its plaintext; the others
/// log in again with the new password, rename their tags as it did, and keep their unsent edits.
@Suite struct AccountConversionTests {
    static let oldPassword = "correct horse"
    static let newPassword = "a new password, never sent"

    /// A device logged in to the live server's account (without encryption), synced.
    static func plainDevice(_ server: LiveServer) async throws -> NoteStore {
        let store = try EncryptedAccountTests.device()
        try await store.connectSyncAccount(server: server.url, username: "ada", password: oldPassword, register: false, allowInsecure: false)
        try await EncryptedAccountTests.sync(store)
        return store
    }

    static func logIn(_ store: NoteStore, _ server: LiveServer) async throws {
        _ = try await store.logInToSyncAccount(
            server: server.url, username: "ada", password: newPassword, allowInsecure: false, allowingUnencrypted: false, minimumCost: 1 << 14)
    }

    @Test("three devices: one converts, one with an unsent edit and one offline through it log in again; every note, tag, file and version is on each, sealed on the server")
    func threeDevices() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Self.plainDevice(server)
            let folder = try laptop.createFolder(name: "Health")
            let note = try laptop.createNote(NoteDraft(title: "Diagnosis", body: "first opinion\n", folderId: folder.id, tags: ["Medical", "Work"]))
            let source = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID()).pdf")
            try Data("a scan of the results".utf8).write(to: source)
            defer { try? FileManager.default.removeItem(at: source) }
            let attachment = try laptop.attachFile(at: source, toNote: note.id)
            try await EncryptedAccountTests.sync(laptop)
            _ = try laptop.updateNote(id: note.id, body: "first opinion\nsecond opinion\n")
            try await EncryptedAccountTests.sync(laptop)
            let phone = try await Self.plainDevice(server)
            let tablet = try await Self.plainDevice(server)
            #expect(try tablet.note(id: note.id).tags == ["Medical", "Work"])

            // The phone edits and tags without syncing; the tablet goes offline.
            _ = try phone.updateNote(id: note.id, body: "first opinion\nsecond opinion\nfrom the phone\n")
            let travel = try phone.createNote(NoteDraft(title: "Trip", body: "tickets\n", tags: ["Travel", "Work"]))

            // The laptop converts: it syncs first, then sends everything sealed.
            let converted = try await laptop.encryptSyncAccount(
                server: server.url, username: "ada", currentPassword: Self.oldPassword, newPassword: Self.newPassword,
                allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            #expect(converted.encrypted && converted.recoveryCode != nil)
            #expect(try laptop.resealingPass() == ResealingPass(below: 1))
            let report = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
            #expect(report.conversionFinished && report.errors == 0 && report.resealedVersions == 1, "\(report)")
            #expect(try laptop.resealingPass() == nil)

            let transport = try laptop.syncTransport()
            let records = try await SealedSyncTests.serverRecords(transport)
            #expect(records.filter { !$0.deleted }.allSatisfy { $0.fields.isSealed }, "every record the server holds is sealed")
            let plainTagIDs = Set(["Medical", "Work"].map { Tag.id(forName: $0) })
            #expect(!records.contains { plainTagIDs.contains($0.recordId) }, "the tags' guessable ids are gone, tombstones too")
            #expect(try await transport.keptVersions(sealedBelow: 1, after: nil).versions.isEmpty, "no version is left readable")
            #expect(try await transport.assetExists(hash: attachment.contentHash) == false, "the readable file is gone")
            #expect(try await transport.recordVersions(note.id).count == 1)

            // The phone's session ended; it logs in again and its unsent edits go up sealed and merge.
            await #expect(throws: SyncError.self) { try await EncryptedAccountTests.sync(phone) }
            try await Self.logIn(phone, server)
            #expect(try phone.syncSummary().pending == 3, "the unsent edits wait still: the note's, the new note's, its new tag's")
            let phoneReport = try await phone.syncEngine(transport: try phone.syncTransport()).sync()
            #expect(phoneReport.errors == 0, "\(phoneReport)")
            #expect(try phone.syncSummary().held.isEmpty && phone.syncSummary().failures.isEmpty && phone.syncSummary().pending == 0)
            try await EncryptedAccountTests.sync(laptop)

            // The tablet, offline through it all, edits, then logs in again.
            _ = try tablet.updateNote(id: note.id, title: "Diagnosis (kept)")
            try await Self.logIn(tablet, server)
            try await EncryptedAccountTests.sync(tablet)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)

            for (name, device) in [("laptop", laptop), ("phone", phone), ("tablet", tablet)] {
                let merged = try device.note(id: note.id)
                #expect(merged.title == "Diagnosis (kept)" && merged.body == "first opinion\nsecond opinion\nfrom the phone\n", "\(name): \(merged)")
                #expect(merged.tags == ["Medical", "Work"] && merged.folderId == folder.id, "\(name)")
                let trip = try device.note(id: travel.id).tags
                #expect(trip == ["Travel", "Work"], "\(name): \(trip)")
                let names = try device.tags().map(\.tag.name)
                #expect(names == ["Medical", "Travel", "Work"], "\(name): one tag of each name, \(names)")
                #expect(try Data(contentsOf: device.attachmentFiles.url(forHash: attachment.contentHash)) == Data("a scan of the results".utf8), "\(name)")
                #expect(try device.syncKeyring() != nil, "\(name)")
            }
            #expect(try await SealedSyncTests.serverRecords(transport).filter { !$0.deleted }.allSatisfy { $0.fields.isSealed })

            // A new device reads the whole history, sealed.
            let spare = try EncryptedAccountTests.device()
            try await Self.logIn(spare, server)
            try await EncryptedAccountTests.sync(spare)
            let keyring = try #require(try spare.syncKeyring())
            _ = try await spare.fetchServerHistory(noteId: note.id, transport: try spare.syncTransport(), sealing: RecordSealing(keyring: keyring))
            let bodies = try spare.history(noteId: note.id, withBodies: true).compactMap(\.body)
            for text in ["first opinion\n", "first opinion\nsecond opinion\n"] {
                #expect(bodies.contains(text), "\(text) is in the history")
            }
        }
    }

    @Test("a conversion cut short once the server took the keys is taken up by the next login of a device that syncs with the account")
    func cutShortThenTakenUp() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Self.plainDevice(server)
            let note = try laptop.createNote(NoteDraft(title: "Diagnosis", body: "first opinion\n", tags: ["Medical"]))
            try await EncryptedAccountTests.sync(laptop)
            _ = try laptop.updateNote(id: note.id, body: "first opinion\nsecond opinion\n")
            try await EncryptedAccountTests.sync(laptop)

            // The laptop stops right after the server took the keys: nothing converted yet.
            let parameters = EncryptedAccountTests.cheap()
            let keys = try PasswordKeys(password: Self.newPassword, parameters: parameters, minimumCost: 1 << 14)
            let made = try AccountKeyring.create(account: "ada", password: keys, parameters: parameters)
            try await laptop.syncTransport().changePassword(current: Self.oldPassword, new: keys.loginSecretText, keys: made.material)
            let anonymous = try HTTPSyncTransport(server: server.url, token: nil)
            let status = try await HTTPSyncTransport(server: server.url, token: try await anonymous.login(username: "ada", password: keys.loginSecretText).token)
                .accountStatus()
            #expect(status.unsealedRecords == 2, "the note and its tag are not sealed")

            // A new device waits for the conversion without taking it up: it holds nothing of the account.
            let spare = try EncryptedAccountTests.device()
            try await Self.logIn(spare, server)
            #expect(try spare.resealingPass() == nil)

            try await Self.logIn(laptop, server)
            #expect(try laptop.resealingPass() == ResealingPass(below: 1), "the laptop takes the conversion up")
            let report = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
            #expect(report.conversionFinished && report.errors == 0, "\(report)")
            let transport = try laptop.syncTransport()
            #expect(try await transport.accountStatus().unsealedRecords == 0)
            #expect(try await transport.keptVersions(sealedBelow: 1, after: nil).versions.isEmpty)

            try await EncryptedAccountTests.sync(spare)
            #expect(try spare.note(id: note.id).body == "first opinion\nsecond opinion\n")
            #expect(try spare.note(id: note.id).tags == ["Medical"])
            #expect(try spare.syncSummary().held.isEmpty)
        }
    }

    /// The laptop converts the account and stops once the server took the keys; the phone
    /// takes the conversion up, edits the note and deletes it (sealed revisions 1 and 2). The
    /// laptop's save of the note, sealed, is refused with the deletion, to which it yields
    /// (the software's own): the note goes here, and the sync ends there. Months
    /// later (the deletion purged), the tablet, offline throughout, brings the note back with
    /// an edit sealed at revision 1, the only one it knows of.
    @Test("a note brought back by a device that never saw its deletion opens on a device whose conversion's save yielded to that deletion")
    func broughtBackAfterAConversionsSaveYielded() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Self.plainDevice(server)
            let note = try laptop.createNote(NoteDraft(title: "Recipe", body: "flour\n"))
            try await EncryptedAccountTests.sync(laptop)
            let (phone, tablet) = (try await Self.plainDevice(server), try await Self.plainDevice(server))
            _ = try tablet.updateNote(id: note.id, body: "flour\nsugar\n")

            _ = try await laptop.encryptSyncAccount(
                server: server.url, username: "ada", currentPassword: Self.oldPassword, newPassword: Self.newPassword,
                allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            try await Self.logIn(phone, server)
            _ = try phone.updateNote(id: note.id, body: "flour\neggs\n")
            try await EncryptedAccountTests.sync(phone)
            _ = try phone.trashNotes(ids: [note.id])
            _ = try phone.purgeNotes(ids: [note.id])
            try await EncryptedAccountTests.sync(phone)
            // The laptop's sync ends as it fetches, right after the answer.
            let cut = FaultyTransport(try laptop.syncTransport(), .fetchCut)
            let sealing = try laptop.syncKeyring().map(RecordSealing.init(keyring:))
            _ = try? await SyncEngine(store: laptop, transport: cut, options: .init(sealing: sealing)).sync()
            #expect(cut.injected > 0)
            #expect(throws: NoteTakerError.self, "the laptop's save yielded to the deletion") { try laptop.note(id: note.id) }

            #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(400 * 86_400)).tombstones >= 1)
            try await Self.logIn(tablet, server)
            for device in [tablet, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            for (name, device) in [("laptop", laptop), ("phone", phone), ("tablet", tablet)] {
                #expect(try device.note(id: note.id).body == "flour\nsugar\n", "\(name)")
                #expect(try device.syncSummary().held.isEmpty, "\(name): nothing held as a replay")
            }
        }
    }

    /// The phone pins a note and tags it; the server applies the batch, and its answer is
    /// lost. The laptop converts the account, sealing the note as the phone left it. The
    /// phone, logged out, undoes both, then logs in again: it forgets the batch (it names the
    /// tag's old id), and its edit is refused with the laptop's sealed version (converting seed 486).
    @Test("an edit in a batch forgotten at a conversion, applied with its answer lost, is undone by the same device's later edit")
    func forgottenEditUndone() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Self.plainDevice(server)
            let note = try laptop.createNote(NoteDraft(title: "Groceries", body: "milk\n", tags: ["Home"]))
            try await EncryptedAccountTests.sync(laptop)
            let phone = try await Self.plainDevice(server)
            _ = try phone.changeNote(id: note.id, NoteChanges(isPinned: true, tags: ["Home", "Errands"]))
            let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
            _ = try? await SyncEngine(store: phone, transport: lost).sync()
            #expect(lost.injected == 1)

            _ = try await laptop.encryptSyncAccount(
                server: server.url, username: "ada", currentPassword: Self.oldPassword, newPassword: Self.newPassword,
                allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            let report = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
            #expect(report.conversionFinished, "\(report)")
            #expect(try laptop.note(id: note.id).isPinned && laptop.note(id: note.id).tags == ["Errands", "Home"])

            _ = try phone.changeNote(id: note.id, NoteChanges(isPinned: false, tags: ["Home"]))
            try await Self.logIn(phone, server)
            for device in [phone, laptop] { try await EncryptedAccountTests.sync(device) }
            for (name, device) in [("phone", phone), ("laptop", laptop)] {
                let held = try device.note(id: note.id)
                #expect(!held.isPinned, "\(name): the later unpin stands")
                #expect(held.tags == ["Home"], "\(name): the tag taken off stays off")
            }
        }
    }

    /// Converting seed 3,004,856 of the simulation: a note made on a phone went up, its answer
    /// lost; the phone edited it, took up the conversion (forgetting that batch, keeping its
    /// creation as the note's base) and sent the note, as a creation, refused (the answer lost
    /// too); the laptop deleted the note. Sent again, the creation met the deletion and was
    /// taken for the only save that could have made the note, which the deletion followed:
    /// the note went, and the phone's edit with it.
    @Test("an edit sent with a note's creation after a conversion forgot an earlier creation of it outranks a deletion that never saw it")
    func editAfterForgottenCreationBeatsDeletion() async throws {
        try await withLiveServer { server, _ in
            let laptop = try await Self.plainDevice(server)
            let phone = try await Self.plainDevice(server)
            let note = try phone.createNote(NoteDraft(title: "Draft", body: "one\n"))
            let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
            _ = try? await SyncEngine(store: phone, transport: lost).sync()
            #expect(lost.injected == 1)
            try await EncryptedAccountTests.sync(laptop)
            _ = try await laptop.encryptSyncAccount(
                server: server.url, username: "ada", currentPassword: Self.oldPassword, newPassword: Self.newPassword,
                allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            #expect(try await laptop.syncEngine(transport: try laptop.syncTransport()).sync().conversionFinished)

            _ = try phone.updateNote(id: note.id, body: "one\ntwo\n")
            try await Self.logIn(phone, server)
            let lostAgain = FaultyTransport(try phone.syncTransport(), .answersLost)
            let sealing = try phone.syncKeyring().map(RecordSealing.init(keyring:))
            _ = try? await SyncEngine(store: phone, transport: lostAgain, options: .init(sealing: sealing)).sync()
            #expect(lostAgain.injected == 1)

            _ = try laptop.trashNotes(ids: [note.id])
            _ = try laptop.purgeNotes(ids: [note.id])
            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            for (name, device) in [("phone", phone), ("laptop", laptop)] {
                #expect(try device.note(id: note.id).body == "one\ntwo\n", "\(name): the edit the deletion never saw brings the note back")
            }
        }
    }

    @Test("a device that does not hold everything converts nothing: it says what is left, and the account stays as it was")
    func refusedUntilEverythingIsHeld() async throws {
        try await withLiveServer { server, token in
            let laptop = try await Self.plainDevice(server)
            _ = try laptop.createNote(NoteDraft(title: "Diagnosis", body: "first opinion\n"))
            try await EncryptedAccountTests.sync(laptop)
            // Another client writes a note no device can read: the laptop holds it back.
            var broken = HostileRecordTests.note
            broken["modifiedAt"] = .number(1e300)
            _ = try await HTTPSyncTransport(server: server.url, token: token).modify(ModifyRequest(changes: [
                RecordChange(recordType: "note", recordId: UUID(), operation: .save, baseChangeTag: nil, fields: broken),
            ]))
            await #expect(throws: SyncError.cannotEncrypt(.unsynced(changes: 0, held: 1, files: 0))) {
                try await laptop.encryptSyncAccount(
                    server: server.url, username: "ada", currentPassword: Self.oldPassword, newPassword: Self.newPassword,
                    allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            }
            let anonymous = try HTTPSyncTransport(server: server.url, token: nil)
            #expect(try await anonymous.loginParameters(username: "ada").kdf == KDFParameters.none.kdf, "the account is not encrypted")
            _ = try await anonymous.login(username: "ada", password: Self.oldPassword)
            #expect(try laptop.resealingPass() == nil && laptop.syncKeyring() == nil)
        }
    }
}
