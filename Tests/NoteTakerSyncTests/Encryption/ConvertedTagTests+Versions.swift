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
}
