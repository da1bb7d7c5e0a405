import Foundation
import NoteTakerKit
import NoteTakerServer
import Testing
@testable import NoteTakerSync

extension RestoredServerHealTests {
    @Test("a server restored from a backup made while the account was converted to encryption: the devices seal again what it holds in plain text, and every edit stays")
    func restoredDuringAConversion() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try await AccountConversionTests.plainDevice(admin.server)
        let note = try laptop.createNote(NoteDraft(title: "Plans", body: "a list\n", tags: ["Work"]))
        try await EncryptedAccountTests.sync(laptop)
        _ = try laptop.updateNote(id: note.id, body: "a list\nmilk\n")
        try await EncryptedAccountTests.sync(laptop)
        let phone = try await AccountConversionTests.plainDevice(admin.server)
        // The copy holds the keys and the records still in plain text.
        try await ConvertedTagTests.convert(laptop, admin.server, finishing: false)
        try await admin.backUp()
        try await EncryptedAccountTests.sync(laptop)
        try await AccountConversionTests.logIn(phone, admin.server)
        _ = try phone.updateNote(id: note.id, title: "Plans, from the phone")
        try await EncryptedAccountTests.sync(phone)
        try await admin.restore()

        let report = try await laptop.syncEngine(transport: try laptop.syncTransport()).sync()
        #expect(report.serverRestored && report.conversionFinished, "\(report)")
        // The phone's session was made after the copy: it logs in again.
        try await AccountConversionTests.logIn(phone, admin.server)
        for device in [phone, laptop] { try await EncryptedAccountTests.sync(device) }
        let transport = try laptop.syncTransport()
        #expect(try await transport.accountStatus().unsealedRecords == 0)
        #expect(try await transport.keptVersions(sealedBelow: 1, after: nil).versions.isEmpty, "no version stays in plain text")
        for (name, device) in [("laptop", laptop), ("phone", phone)] {
            let summary = try device.syncSummary()
            #expect(summary.held.isEmpty && summary.failures.isEmpty && summary.pending == 0, "\(name): \(summary)")
            let merged = try device.note(id: note.id)
            #expect(merged.title == "Plans, from the phone" && merged.body == "a list\nmilk\n" && merged.tags == ["Work"], "\(name): \(merged)")
        }
        await admin.stop()
    }

    /// Converting seed 3,017,192: the server was restored from a copy made before the
    /// conversion, and a device that had synced after the copy was made logged in again only
    /// after another device converted the account. Its heal sent the note again against no
    /// version, refused with the version in plain text another device had written after the
    /// restore (its edit, the conversion not yet sent sealed); that save replaced it as if the
    /// version dated from before the conversion sealed the note, and the other device then
    /// merged the edit away against it. A device replaces only what it had seen sealed: the
    /// phone never had, so it waits for the laptop to seal its edit, and merges with it.
    @Test("a heal taken up after a conversion does not replace a version in plain text this device never saw sealed: another device's edit stays")
    func healAfterTheConversionKeepsAnEditInPlainText() async throws {
        let admin = try await ServerOperator.start()
        let laptop = try await AccountConversionTests.plainDevice(admin.server)
        let note = try laptop.createNote(NoteDraft(title: "Plans", body: "a list\n"))
        try await EncryptedAccountTests.sync(laptop)
        let phone = try await AccountConversionTests.plainDevice(admin.server)
        try await admin.backUp()
        // The phone syncs after the copy was made: its token names the history the restore loses.
        _ = try phone.createNote(NoteDraft(title: "Errands", body: "stamps\n"))
        try await EncryptedAccountTests.sync(phone)
        try await admin.restore()
        _ = try laptop.updateNote(id: note.id, body: "a list\nmilk\n")
        try await EncryptedAccountTests.sync(laptop)
        // Converted, the laptop sends nothing sealed yet; the phone edits offline, then logs in.
        try await ConvertedTagTests.convert(laptop, admin.server, finishing: false)
        _ = try phone.updateNote(id: note.id, body: "a list\neggs\n")
        try await AccountConversionTests.logIn(phone, admin.server)
        let report = try await phone.syncEngine(transport: try phone.syncTransport()).sync()
        #expect(report.serverRestored, "\(report)")

        for device in [laptop, phone, laptop, phone] { try await EncryptedAccountTests.sync(device) }
        for (name, device) in [("laptop", laptop), ("phone", phone)] {
            let summary = try device.syncSummary()
            #expect(summary.held.isEmpty && summary.failures.isEmpty && summary.pending == 0, "\(name): \(summary)")
            let bodies = try device.notes().map { try device.note(id: $0.id).body }.joined()
            #expect(bodies.contains("milk") && bodies.contains("eggs"), "\(name): \(bodies)")
        }
        #expect(try await laptop.syncTransport().accountStatus().unsealedRecords == 0)
        await admin.stop()
    }
}
