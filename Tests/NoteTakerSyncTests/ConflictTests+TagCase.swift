import Foundation
import NoteTakerKit
import NoteTakerSync
import Testing

/// A tag's change of case made before the tag first synced.
extension ConflictTests {
    /// Converting seed 3,000,849 (the same without encryption): a device tagged a note Work,
    /// not knowing the server held Work already, and changed its case to WORK before syncing.
    /// Sent with no base (a derived save), it met the server's Work and yielded to it.
    @Test("a tag made here and its case changed before it first synced keeps the new case over the same tag made elsewhere",
          arguments: [true, false])
    func caseOfATagMadeHereWins(otherSyncsAgainFirst: Bool) async throws {
        try await withDevices(2) { devices, _ in
            let (other, here) = (devices[0], devices[1])
            let theirs = try other.store.createNote(NoteDraft(title: "Theirs", tags: ["Work"]))
            try await other.sync()
            let mine = try here.store.createNote(NoteDraft(title: "Mine", tags: ["Work"]))
            _ = try here.store.renameTag("Work", to: "WORK")
            for device in otherSyncsAgainFirst ? [other, here, other, here] : [here, other, here, other] { try await device.sync() }
            for device in devices {
                #expect(try device.store.tags().map(\.tag.name) == ["WORK"], "\(device.name)")
                #expect(try device.store.note(id: theirs.id).tags == ["WORK"] && device.store.note(id: mine.id).tags == ["WORK"], "\(device.name)")
            }
        }
    }
}
