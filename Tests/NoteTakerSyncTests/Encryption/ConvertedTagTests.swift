import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// Tags across a conversion to end-to-end encryption (docs/encryption.md §4): their ids change
/// (keyed by the account), so a deletion made under the old ids, on the server before the
/// conversion or here before this device learned of it, must still reach the tag under its
/// new id, and the converting device's own renames must not outrank a deletion made since.
@Suite struct ConvertedTagTests {
    typealias Conversion = AccountConversionTests

    /// The laptop converts the account, and syncs until the conversion is finished.
    static func convert(_ laptop: NoteStore, _ server: LiveServer, finishing: Bool = true) async throws {
        _ = try await laptop.encryptSyncAccount(
            server: server.url, username: "ada", currentPassword: Conversion.oldPassword, newPassword: Conversion.newPassword,
            allowInsecure: false, parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
        guard finishing else { return }
        let report = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
        #expect(report.conversionFinished && report.errors == 0, "\(report)")
    }

    /// A note tagged Red and Work, on a laptop and a phone, both synced.
    static func twoDevices(_ server: LiveServer) async throws -> (laptop: NoteStore, phone: NoteStore, note: UUID) {
        let laptop = try await Conversion.plainDevice(server)
        let note = try laptop.createNote(NoteDraft(title: "Plans", body: "a list\n", tags: ["Red", "Work"]))
        try await EncryptedAccountTests.sync(laptop)
        let phone = try await Conversion.plainDevice(server)
        #expect(try phone.note(id: note.id).tags == ["Red", "Work"])
        return (laptop, phone, note.id)
    }

    /// Every device holds `tags`, and the note carries them.
    static func expectTags(_ tags: [String], on note: UUID, _ devices: [(String, NoteStore)]) throws {
        for (name, device) in devices {
            #expect(try device.tags().map(\.tag.name) == tags, "\(name)")
            #expect(try device.note(id: note).tags == tags, "\(name)")
        }
    }

    @Test("a tag deleted on the server before the conversion, held by a device offline through it, is deleted there once it logs in again")
    func deletedBeforeTheConversion() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            try laptop.deleteTag("Red")
            try await EncryptedAccountTests.sync(laptop)
            try await Self.convert(laptop, server)

            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            try Self.expectTags(["Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    @Test("a tag deleted or renamed here before this device learned of the conversion is deleted under its new id; one made again here since stays")
    func deletedHereBeforeLearningOfIt() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            let other = try laptop.createNote(NoteDraft(title: "Shopping", body: "milk\n", tags: ["Blue"]))
            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try phone.deleteTag("Red")
            _ = try phone.renameTag("Work", to: "Job")
            try phone.deleteTag("Blue")
            _ = try phone.addTags(["Blue"], toNote: other.id)
            try await Self.convert(laptop, server)

            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                #expect(try device.tags().map(\.tag.name) == ["Blue", "Job"], "\(name)")
                #expect(try device.note(id: note).tags == ["Job"], "\(name)")
                #expect(try device.note(id: other.id).tags == ["Blue"], "\(name)")
            }
        }
    }

    @Test("a tag taken off a note after the conversion stays off, though a device offline through it had edited the note under the old ids")
    func takenOffANoteEditedUnderTheOldIds() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try phone.updateNote(id: note, body: "a list\nfrom the phone\n")
            try await Self.convert(laptop, server)
            _ = try laptop.removeTags(["Red"], fromNote: note)
            try await EncryptedAccountTests.sync(laptop)

            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                let merged = try device.note(id: note)
                #expect(merged.tags == ["Work"] && merged.body == "a list\nfrom the phone\n", "\(name): \(merged)")
            }
        }
    }

    /// A tablet edits the note and syncs; the laptop, which fetched it, converts and stops once
    /// the server took the keys; the phone, which has not seen the edit, takes the conversion
    /// up, makes its `change`, and syncs three times: refused each time against the tablet's
    /// version in plain text, the change waits as failed.
    static func refusedAgainstPlainText(_ server: LiveServer, change: (NoteStore, UUID) throws -> Void) async throws -> (laptop: NoteStore, phone: NoteStore, note: UUID) {
        let (laptop, phone, note) = try await twoDevices(server)
        let tablet = try await Conversion.plainDevice(server)
        _ = try tablet.updateNote(id: note, body: "a list\nfrom the tablet\n")
        try await EncryptedAccountTests.sync(tablet)
        try await EncryptedAccountTests.sync(laptop)
        try await convert(laptop, server, finishing: false)
        try await Conversion.logIn(phone, server)
        try change(phone, note)
        for _ in 0..<3 { _ = try await phone.syncEngine(transport: try phone.syncTransport()).sync() }
        #expect(try phone.syncSummary().failures.map(\.recordId).contains(note), "refused: the server's version is not sealed")
        return (laptop, phone, note)
    }

    @Test("an edit refused against a version still in plain text while a conversion goes on goes up once the sealed version arrives")
    func editRefusedAgainstPlainTextGoesUpLater() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.refusedAgainstPlainText(server) { phone, note in
                _ = try phone.updateNote(id: note, title: "Plans, from the phone")
            }

            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            #expect(try phone.syncSummary().failures.isEmpty)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                let merged = try device.note(id: note)
                #expect(merged.title == "Plans, from the phone" && merged.body == "a list\nfrom the tablet\n", "\(name): \(merged)")
            }
        }
    }

    @Test("a deletion refused against a version still in plain text while a conversion goes on goes up once the sealed version arrives")
    func deletionRefusedAgainstPlainTextGoesUpLater() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.refusedAgainstPlainText(server) { phone, note in
                _ = try phone.trashNotes(ids: [note])
                _ = try phone.purgeNotes(ids: [note])
            }

            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            // The tablet's edit, which the phone had not seen, outranks its deletion.
            #expect(try phone.syncSummary().failures.isEmpty)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                #expect(try device.note(id: note).body == "a list\nfrom the tablet\n", "\(name)")
            }
        }
    }

    @Test("a tag the converting device deletes before it sent it under its new id stays deleted, though a device taking the conversion up sent it meanwhile")
    func deletedByTheConvertingDeviceBeforeItSentIt() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            try await Self.convert(laptop, server, finishing: false)
            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try laptop.deleteTag("Red")

            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try Self.expectTags(["Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    /// What happened on the server while the phone was away, besides the deletion.
    enum WhileAway: CaseIterable, Sendable {
        /// Nothing more: the deletion arrives as the phone fetches.
        case nothing
        /// The deletion was purged months later, before the conversion began (no session used
        /// since; none is purged while a conversion is under way): the phone lists everything,
        /// and misses it all the same.
        case purged
        /// The laptop finished the conversion after the phone logged in: its last step deleted
        /// the tags under unkeyed ids, the deletion's tombstone among them.
        case finished
    }

    @Test("a device taking a conversion up does not send under its new id a tag deleted elsewhere since it last synced, even once the deletion was purged or the conversion finished; the others it sends",
          arguments: WhileAway.allCases)
    func takingUpLeavesDeletedTagsDeleted(whileAway: WhileAway) async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            let tablet = try await Conversion.plainDevice(server)
            try tablet.deleteTag("Red")
            try await EncryptedAccountTests.sync(tablet)
            try await EncryptedAccountTests.sync(laptop)
            if whileAway == .purged {
                #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones >= 1)
            }
            // The laptop stops once the server took the keys; the phone, behind, takes the conversion up.
            try await Self.convert(laptop, server, finishing: false)
            try await Conversion.logIn(phone, server)
            if whileAway == .finished {
                let report = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
                #expect(report.conversionFinished, "\(report)")
            }
            _ = try await phone.syncEngine(transport: try phone.syncTransport()).sync()
            #expect(try phone.tags().map(\.tag.name) == ["Work"], "the tag deleted elsewhere is deleted here, not sent")

            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            try Self.expectTags(["Work"], on: note, [("laptop", laptop), ("phone", phone)])
            #expect(try await phone.syncTransport().accountStatus().unsealedRecords == 0)
        }
    }

    /// The laptop converts; of its batches, the one with the old id's deletion of Red (sealed)
    /// arrives, the one with its save under the new id not yet. The phone takes the conversion
    /// up and fetches that deletion alone.
    @Test("a device taking a conversion up keeps a tag whose old id the converting device deleted, sealed, when its save under the new id has not arrived")
    func renameDeletionWithoutItsSave() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            let oldRed = try #require(try phone.tags().first { $0.tag.name == "Red" }).tag.id
            try await Self.convert(laptop, server, finishing: false)
            let sealing = try #require(try laptop.syncKeyring().map(RecordSealing.init(keyring:)))
            let base = try #require(try await SealedSyncTests.serverRecords(server).first { $0.recordId == oldRed }).changeTag
            let envelope = try sealing.seal(fieldsJSON: "{}", recordType: "tag", recordId: oldRed, revision: 1)
            let deletion = RecordChange(recordType: "tag", recordId: oldRed, operation: .delete, baseChangeTag: base, fields: envelope.fields)
            let answer = try await laptop.syncTransport().modify(ModifyRequest(changes: [deletion]), fieldsJSON: [envelope.json])
            #expect(answer.results.map(\.outcome) == [.saved])

            try await Conversion.logIn(phone, server)
            _ = try await phone.syncEngine(transport: try phone.syncTransport()).sync()
            #expect(try phone.tags().map(\.tag.name) == ["Red", "Work"], "a rename, not a deletion")
            for device in [laptop, phone, laptop, phone] { _ = try await device.syncEngine(transport: try device.syncTransport()).sync() }
            try Self.expectTags(["Red", "Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    @Test("a tag whose new case went up with its answer lost stays on a device following the conversion, though the server's version came back as the answer to its own")
    func recasedWithItsAnswerLost() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try phone.renameTag("Red", to: "RED")
            let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
            _ = try? await SyncEngine(store: phone, transport: lost, options: .init()).sync()
            #expect(lost.injected > 0)
            try await EncryptedAccountTests.sync(laptop)
            try await Self.convert(laptop, server)

            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            try Self.expectTags(["RED", "Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    /// With `purged`, the laptop is away for months: the phone finished the conversion, and
    /// the deletion's tombstone was purged before the laptop syncs again (converting seed 593).
    @Test("the converting device's tags, sent again under their new ids, yield to a deletion another device made since, its tombstone purged or not",
          arguments: [false, true])
    func renamedTagsYieldToADeletion(purged: Bool) async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            // The laptop stops once the server took the keys; the phone takes the conversion up.
            try await Self.convert(laptop, server, finishing: false)
            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try phone.deleteTag("Red")
            try await EncryptedAccountTests.sync(phone)
            if purged {
                #expect(try await phone.syncTransport().accountStatus().unsealedRecords == 0, "the phone finished the conversion")
                #expect(try await server.service.purgeTombstones(now: Date().addingTimeInterval(91 * 86_400)).tombstones >= 1)
            }

            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try Self.expectTags(["Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    /// Converting seed 596: the laptop converts, deletes a note and the tag Red, and makes Red
    /// again before the deletion went up; the phone, offline through all of it, had edited the
    /// note (an edit outranks a deletion, so the note comes back). Its Red, renamed to the new id
    /// as it logs in, has no version under that id, yet is from before the deletion.
    @Test("a tag deleted and made again after the conversion is taken off a note brought back by a device that held it from before")
    func madeAgainOverADeletionAfterTheConversion() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            try await Self.convert(laptop, server)
            _ = try phone.updateNote(id: note, title: "Plans, edited offline")
            _ = try laptop.trashNotes(ids: [note])
            _ = try laptop.emptyTrash()
            try laptop.deleteTag("Red")
            let again = try laptop.createNote(NoteDraft(title: "Tagged again", tags: ["Red"]))
            // The deletion goes up, then Red made again over it: the phone never sees the deletion.
            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(laptop)

            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                #expect(try device.note(id: note).title == "Plans, edited offline", "\(name)")
                #expect(try device.note(id: note).tags == ["Work"], "\(name) kept the deleted tag on the note brought back")
                #expect(try device.note(id: again.id).tags == ["Red"], "\(name)")
            }
        }
    }

    @Test("a tag deleted here before this device took a conversion up stays deleted when the converting device sends it under its new id afterwards")
    func deletedHereBeforeTakingUp() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            let tablet = try await Conversion.plainDevice(server)
            try phone.deleteTag("Red")
            // The laptop stops once the server took the keys; the phone takes the conversion up
            // and fetches everything before the laptop sends the tags under their new ids.
            try await Self.convert(laptop, server, finishing: false)
            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)

            try await EncryptedAccountTests.sync(laptop)
            try await Conversion.logIn(tablet, server)
            try await EncryptedAccountTests.sync(tablet)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            try Self.expectTags(["Work"], on: note, [("laptop", laptop), ("phone", phone), ("tablet", tablet)])
        }
    }

    /// Converting seed 1057: the laptop's notes went up sealed, naming its tags by their new
    /// ids, and the batch with the tags was lost; the tablet, which never held the tags (it
    /// cannot take them up from the server's plain text, which it does not trust), took the
    /// conversion up and finished it, dropping the tags' old ids with nothing in their place,
    /// and the phone, following, took its tags for ones deleted before the conversion.
    ///
    /// Converting seed 3,001,062: the laptop took the tags off the note first, so no note the
    /// tablet held named their new ids; it finished all the same, while the server held them
    /// under their old ids only (which the tablet held in quarantine, never having had them).
    @Test("a device taking a conversion up does not finish it while its notes name tags under new ids that have not arrived, or the server holds a tag under its old id only",
          arguments: [false, true])
    func notFinishedBeforeTheRenamedTagsArrive(tagsTakenOff: Bool) async throws {
        try await withLiveServer { server, _ in
            let tablet = try await Conversion.plainDevice(server)
            let (laptop, phone, note) = try await Self.twoDevices(server)
            try await Self.convert(laptop, server, finishing: false)
            if tagsTakenOff { _ = try laptop.removeTags(["Red", "Work"], fromNote: note) }
            let cut = FaultyTransport(try laptop.syncTransport(), .secondBatchLost)
            let sealing = try laptop.syncKeyring().map(RecordSealing.init(keyring:))
            await #expect(throws: SyncError.self) {
                try await SyncEngine(store: laptop, transport: cut, options: .init(policy: .localWins, sealing: sealing)).sync()
            }
            #expect(cut.injected == 1)
            try await Conversion.logIn(tablet, server)
            for _ in 0..<2 { try await EncryptedAccountTests.sync(tablet) }
            #expect(try tablet.resealingPass() != nil, "the tablet finished the conversion before the tags arrived")

            try await Conversion.logIn(phone, server)
            try await EncryptedAccountTests.sync(phone)
            for device in [laptop, tablet, phone, laptop, tablet, phone] { try await EncryptedAccountTests.sync(device) }
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            for (name, device) in [("laptop", laptop), ("phone", phone), ("tablet", tablet)] {
                #expect(try device.tags().map(\.tag.name) == ["Red", "Work"], "\(name)")
                #expect(try device.note(id: note).tags == (tagsTakenOff ? [] : ["Red", "Work"]), "\(name)")
            }
        }
    }

    /// The phone syncs and the server applies what it sent, but the answer is lost; the laptop,
    /// not knowing of it, has the server take the keys and stops there; both log in again (taking
    /// the conversion up) and sync twice each. The conversion is then finished, with nothing
    /// held, failed or waiting on either.
    static func lostAnswerThenTakenUp(_ laptop: NoteStore, _ phone: NoteStore, _ server: LiveServer) async throws {
        let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
        _ = try? await SyncEngine(store: phone, transport: lost, options: .init()).sync()
        #expect(lost.injected > 0)
        let parameters = EncryptedAccountTests.cheap()
        let keys = try PasswordKeys(password: Conversion.newPassword, parameters: parameters, minimumCost: 1 << 14)
        let made = try AccountKeyring.create(account: "ada", password: keys, parameters: parameters)
        try await laptop.syncTransport().changePassword(current: Conversion.oldPassword, new: keys.loginSecretText, keys: made.material)

        for device in [laptop, phone] { try await Conversion.logIn(device, server) }
        for device in [laptop, phone, laptop, phone] { _ = try await device.syncEngine(transport: try device.syncTransport()).sync() }
        #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
        for (name, device) in [("laptop", laptop), ("phone", phone)] {
            #expect(try device.resealingPass() == nil, "\(name): the conversion finished")
            let summary = try device.syncSummary()
            #expect(summary.held.isEmpty && summary.failures.isEmpty && summary.pending == 0, "\(name): \(summary)")
        }
    }

    @Test("a tag a lost answer left on the server under its old id holds no conversion up: it goes at the last step, and nothing stays held")
    func tagLeftByALostAnswer() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            // The phone's new tag and note reach the server in plain text: the phone sends them
            // again, sealed, the tag under its keyed id.
            let urgent = try phone.createNote(NoteDraft(title: "Call back", body: "today\n", tags: ["Urgent"]))
            try await Self.lostAnswerThenTakenUp(laptop, phone, server)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                #expect(try device.tags().map(\.tag.name) == ["Red", "Urgent", "Work"], "\(name)")
                #expect(try device.note(id: urgent.id).tags == ["Urgent"], "\(name)")
                #expect(try device.note(id: note).tags == ["Red", "Work"], "\(name)")
            }
        }
    }

    @Test("an edit whose answer was lost before the conversion is sent again sealed over its own plain-text version; an edit made elsewhere meanwhile merges with it")
    func editLeftByALostAnswer() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try phone.updateNote(id: note, body: "a list\nfrom the phone\n")
            _ = try laptop.removeTags(["Red"], fromNote: note)
            try await Self.lostAnswerThenTakenUp(laptop, phone, server)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                let merged = try device.note(id: note)
                #expect(merged.body == "a list\nfrom the phone\n" && merged.tags == ["Work"], "\(name): \(merged)")
            }
        }
    }
}
