import Foundation
import NoteTakerKit
import Testing

@testable import NoteTakerSync

/// A note changed on two devices across a conversion: made on one, its answer lost, and
/// tagged on the other; tagged on one with a tag the converting device deleted; edited on one
/// and deleted on the other. A tag deleted on one before it learned of the conversion and
/// made again there after.
extension ConvertedTagTests {
    /// Converting seed 3,000,148: the phone's new note reached the server, its answer lost; the
    /// laptop tagged it (in plain text) and converted the account. The phone, taking the
    /// conversion up, sent the note again as made (against no version), was refused with the
    /// laptop's version in plain text, and took its own as replacing it, as a device sending
    /// everything again to a restored server does: the tag was lost everywhere.
    @Test("a note whose making was answered to no one, tagged elsewhere before the conversion, keeps the tag once its maker takes the conversion up")
    func madeHereTaggedElsewhere() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, _) = try await Self.twoDevices(server)
            let trip = try phone.createNote(NoteDraft(title: "Trip", body: "passport\n"))
            let lost = FaultyTransport(try phone.syncTransport(), .answersLost)
            _ = try? await SyncEngine(store: phone, transport: lost, options: .init()).sync()
            #expect(lost.injected > 0)
            try await EncryptedAccountTests.sync(laptop)
            _ = try laptop.addTags(["Green"], toNote: trip.id)
            try await EncryptedAccountTests.sync(laptop)
            try await Self.convert(laptop, server, finishing: false)

            try await Conversion.logIn(phone, server)
            _ = try phone.updateNote(id: trip.id, body: "passport\ntickets\n")
            for device in [phone, laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                let note = try device.note(id: trip.id)
                #expect(note.tags == ["Green"] && note.body == "passport\ntickets\n", "\(name): \(note)")
                let summary = try device.syncSummary()
                #expect(summary.held.isEmpty && summary.failures.isEmpty && summary.pending == 0, "\(name): \(summary)")
            }
        }
    }

    /// Converting seed 3,000,251: the converting laptop deleted Red; the phone, offline through
    /// the conversion, had tagged the note Red again, and sent it naming Red's keyed id once
    /// it took the conversion up. The laptop kept the note's reference to a tag it had deleted
    /// as waiting for the tag to arrive, and never took the conversion's last step.
    @Test("a note naming under its keyed id a tag the converting device deleted holds the conversion's last step up no longer")
    func noteNamingATagDeletedByTheConvertingDevice() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            _ = try phone.removeTags(["Red"], fromNote: note)
            try await EncryptedAccountTests.sync(phone)
            try await EncryptedAccountTests.sync(laptop)
            try await Self.convert(laptop, server, finishing: false)
            try laptop.deleteTag("Red")
            _ = try phone.addTags(["Red"], toNote: note)

            try await Conversion.logIn(phone, server)
            for device in [phone, laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            #expect(try laptop.resealingPass() == nil, "the laptop took the last step")
            #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
            try Self.expectTags(["Work"], on: note, [("laptop", laptop), ("phone", phone)])
        }
    }

    /// Converting seed 3,001,176: the phone's edit, refused three times against the tablet's
    /// version in plain text, waited as failed; the laptop then deleted the note, and the phone,
    /// meeting the deletion, reopened the note against it (an edit outranks a deletion) but
    /// left the change failed: it never went up.
    @Test("an edit refused against a version in plain text during a conversion goes up when the note's deletion arrives instead, and brings the note back")
    func editRefusedAgainstPlainTextOutranksTheDeletion() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.refusedAgainstPlainText(server) { phone, note in
                _ = try phone.updateNote(id: note, title: "Plans, from the phone")
            }
            _ = try laptop.trashNotes(ids: [note])
            _ = try laptop.purgeNotes(ids: [note])

            for device in [laptop, phone, laptop] { try await EncryptedAccountTests.sync(device) }
            #expect(try phone.syncSummary().failures.isEmpty)
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                #expect(try device.note(id: note).title == "Plans, from the phone", "\(name)")
            }
        }
    }

    /// Converting seed 3,007,204: the phone deleted a tag before it learned of the conversion
    /// and made it again after (tagging a new note), under its new id; the converting laptop's
    /// version of the tag under that id, arriving, was taken for the one the phone deleted,
    /// and the tag made again was deleted with it. A note from elsewhere tagged here since
    /// keeps it too.
    @Test("a tag deleted here before this device learned of the conversion and made again after stays, on the notes tagged since only")
    func deletedHereAndMadeAgainAfterLearningOfIt() async throws {
        try await withLiveServer { server, _ in
            let (laptop, phone, note) = try await Self.twoDevices(server)
            let shopping = try laptop.createNote(NoteDraft(title: "Shopping", body: "milk\n"))
            try await EncryptedAccountTests.sync(laptop)
            try await EncryptedAccountTests.sync(phone)
            try phone.deleteTag("Red")
            try await Self.convert(laptop, server)
            let holiday = try laptop.createNote(NoteDraft(title: "Holiday", body: "tickets\n", tags: ["Red"]))
            try await EncryptedAccountTests.sync(laptop)

            try await Conversion.logIn(phone, server)
            let again = try phone.createNote(NoteDraft(title: "Errands", body: "stamps\n", tags: ["Red"]))
            _ = try phone.addTags(["Red"], toNote: shopping.id)
            for device in [phone, laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
            for (name, device) in [("laptop", laptop), ("phone", phone)] {
                #expect(try device.tags().map(\.tag.name) == ["Red", "Work"], "\(name)")
                #expect(try device.note(id: note).tags == ["Work"], "\(name)")
                #expect(try device.note(id: again.id).tags == ["Red"], "\(name)")
                #expect(try device.note(id: shopping.id).tags == ["Red"], "\(name)")
                #expect(try device.note(id: holiday.id).tags == [], "\(name)")
            }
        }
    }
}
