import Foundation
import NoteTakerKit
import Testing

@testable import NoteTakerSync

/// Which version of a tag its new id carries, when more than one device sends it there.
extension ConvertedTagTests {
    /// Converting seeds 706 and 838: the laptop changed Red's case to RED and synced (in plain
    /// text), then had the server take the keys and stopped; the phone, which last synced
    /// before the new case, took the conversion up and sent its Red under the new id first.
    /// The laptop, finding nothing changed here, took it, and RED was lost everywhere.
    @Test("a tag's later case, held by one device taking a conversion up, wins over the older case another sent first under the new id",
          arguments: [false, true])
    func laterCaseWinsUnderTheNewID(laptopSendsFirst: Bool) async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try laptop.renameTag("Red", to: "RED")
            try await EncryptedAccountTests.sync(laptop)
            try await Self.convert(laptop, server, finishing: false)

            try await Conversion.logIn(phone, server)
            let order = laptopSendsFirst ? [laptop, phone] : [phone, laptop]
            for device in order + order { try await EncryptedAccountTests.sync(device) }
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            try Self.expectTags(["RED", "Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    /// Converting seed 1015: the laptop renamed Red to Blue (a new tag, under its unkeyed id)
    /// and synced; the phone's edit of the note was refused with that version and merged, and
    /// its fetch cut before the tag Blue came, so its note named Blue by its old id, with no
    /// tag of that id here. Taking the conversion up, it sent the note sealed so; the laptop's
    /// conversion merged it and took the old id, which the last step then deleted.
    @Test("a note sent sealed naming a tag by its old id, by a device that never received the tag, keeps the tag on the devices that hold it")
    func noteNamingATagByItsOldID() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try laptop.renameTag("Red", to: "Blue")
            try await EncryptedAccountTests.sync(laptop)
            _ = try phone.updateNote(id: note, title: "Plans for May")
            let cut = FaultyTransport(try phone.syncTransport(), .fetchCut)
            _ = try? await SyncEngine(store: phone, transport: cut, options: .init()).sync()
            #expect(cut.injected > 0)
            #expect(try !phone.tags().map(\.tag.name).contains("Blue"), "the phone holds no tag Blue")
            try await Self.convert(laptop, server, finishing: false)

            try await Conversion.logIn(phone, server)
            for device in [phone, laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            try Self.expectTags(["Blue", "Work"], on: note, [("laptop", laptop), ("phone", phone)])
            #expect(try phone.note(id: note).title == "Plans for May")
        }
    }

    /// Converting seed 3,000,126: the phone's pull was cut after a page that held the laptop's
    /// new tag Green and the note it tagged, staged (in plain text, under Green's unkeyed id)
    /// and not applied. Following the conversion, it applied them at its next sync, unopened:
    /// it held Green under its old id beside the keyed one, and the note named the old one.
    @Test("a page staged in plain text before a device follows the conversion is held, not applied: the sealed versions replace it")
    func stagedPlaintextIsHeldAtTheAdoption() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try laptop.updateNote(id: note, title: "Plans for June")
            _ = try laptop.addTags(["Green"], toNote: note)
            try await EncryptedAccountTests.sync(laptop)
            let cut = FaultyTransport(try phone.syncTransport(), .fetchCutAfterFirstPage)
            _ = try? await SyncEngine(store: phone, transport: cut, options: .init()).sync()
            #expect(try cut.injected > 0 && phone.stagedCount() > 0, "the phone's pull stopped with a page staged")
            try await Self.convert(laptop, server, finishing: false)

            try await Conversion.logIn(phone, server)
            #expect(try phone.stagedCount() == 0)
            for device in [phone, laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            try Self.expectTags(["Green", "Red", "Work"], on: note, [("laptop", laptop), ("phone", phone)])
            #expect(try phone.note(id: note).title == "Plans for June")
            let held = try phone.syncSummary().held
            #expect(held.isEmpty, "\(held)")
        }
    }

    /// Converting seed 3,000,427: the phone made Red (tagging a note with it) and sent it, its
    /// answer lost, then changed its case to RED; the laptop fetched Red and converted. Taking
    /// the conversion up, the phone held RED as a tag never synced, with no base: Red arrived
    /// under the new id from the laptop, and the merge could not tell which side had changed.
    @Test("a tag made here whose answer was lost, its case changed since, keeps the new case when another device's conversion sends the old one first")
    func caseChangedAfterALostAnswer() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try phone.addTags(["Green"], toNote: note)
            let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
            _ = try? await SyncEngine(store: phone, transport: lost, options: .init()).sync()
            #expect(lost.injected > 0)
            _ = try phone.renameTag("Green", to: "GREEN")
            try await EncryptedAccountTests.sync(laptop)
            #expect(try laptop.tags().map(\.tag.name).contains("Green"))
            try await Self.convert(laptop, server, finishing: false)

            try await Conversion.logIn(phone, server)
            for device in [laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            try Self.expectTags(["GREEN", "Red", "Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }
}
