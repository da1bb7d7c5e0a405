import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// In a shared folder, History names the account that wrote each version beside its device
/// (docs/sharing.md §4: as the signature its device checked attests), on the members' devices
/// as they apply each other's edits and on a member who joined later and reads the server's.
@Suite struct SharedHistoryAuthorTests {
    private typealias Devices = SharedFolderTests

    @Test("each version in a share names the account and device that wrote it; one's own names no account")
    func versionsNameTheirAuthors() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Devices.device("ines", on: server)
            let bob = try await Devices.device("bob", on: server)
            try ines.setDeviceName("ines's laptop")
            try bob.setDeviceName("bob's phone")
            let menu = try ines.createFolder(name: "Menu")
            let soup = try ines.createNote(NoteDraft(title: "Soup", body: "Leeks", folderId: menu.id))
            let zone = try await ines.shareFolder(menu.id, with: [("bob", .editor)]).zone.zone
            _ = try await bob.acceptShare(zone).result.get()

            _ = try bob.sharedZoneStore(zone).updateNote(id: soup.id, body: "Leeks, potatoes")
            try await Devices.sync(bob)
            try await Devices.sync(ines)
            _ = try ines.sharedZoneStore(zone).updateNote(id: soup.id, body: "Leeks, potatoes, cream")
            try await Devices.sync(ines)
            try await Devices.sync(bob)

            func writers(_ store: NoteStore) throws -> [String: String] {
                let shared = try store.sharedZoneStore(zone)
                var named: [String: String] = [:]
                for version in try shared.history(noteId: soup.id, withBodies: true) {
                    named[version.body ?? ""] = "\(version.author ?? "-") / \(version.isThisDevice ? "here" : version.device ?? "?")"
                }
                return named
            }
            #expect(try writers(ines) == ["Leeks, potatoes": "bob / bob's phone", "Leeks": "- / here"])
            #expect(try writers(bob) == ["Leeks, potatoes": "- / here", "Leeks": "ines / ines's laptop"])

            // Cara, invited afterwards, reads both from the server, each with its author.
            let cara = try await Devices.device("cara", on: server)
            try await ines.setShareMember(zone, account: "cara", role: .viewer)
            _ = try await cara.acceptShare(zone).result.get()
            let history = try await cara.completeSharedHistory(zone: zone, noteId: soup.id)
            #expect(history.serverProblem == nil)
            let store = try cara.sharedZoneStore(zone)
            let read = try history.versions.map { "\(try store.version($0.id, of: soup.id).body ?? ""): \($0.author ?? "-")" }
            #expect(read.sorted() == ["Leeks, potatoes: bob", "Leeks: ines"])

            // A version the server keeps that no member sealed and signed (a raw client's, in
            // bob's name) is left out of every member's history, the rest read as before.
            let forged: RecordFields = [
                "$enc": .number(1), "$zone": .string(zone), "$key": .number(1), "$salt": .string("AAAAAAAAAAAAAAAAAAAAAA"),
                "$sealed": .string("AAAA"), "$by": .string("bob"), "$sig": .string(Base64URL.encode(Data(repeating: 7, count: 64))),
            ]
            let moved = MovedVersions(versions: [MovedVersion(replacedAt: Date().timeIntervalSince1970 - 60, fields: forged)])
            #expect(try await bob.syncTransport().inZone(zone).addVersions(soup.id, moved) == 1, "the server cannot tell")
            let after = try await cara.completeSharedHistory(zone: zone, noteId: soup.id)
            #expect(after.serverProblem == nil && after.versions.count == 2, "\(after.versions)")
        }
    }

    @Test("the author is the account whose signature was checked: a name a writer puts inside its record is replaced")
    func authorIsTheSigner() {
        let claimed: RecordFields = ["title": .string("Soup"), RecordFields.writerKey: .string("ines")]
        #expect(ZoneRecordSealing.naming("bob", in: claimed, for: "cara")[RecordFields.writerKey] == .string("bob"))
        #expect(ZoneRecordSealing.naming("cara", in: claimed, for: "cara")[RecordFields.writerKey] == nil, "one's own names no account")
        #expect(ZoneRecordSealing.naming("bob", in: claimed, for: "cara")["title"] == .string("Soup"))
    }
}
