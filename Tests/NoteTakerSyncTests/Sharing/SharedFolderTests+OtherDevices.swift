import Foundation
import NoteTakerKit
import Testing

@testable import NoteTakerSync

extension SharedFolderTests {
    @Test("the owner's other device takes a folder of many notes moved into a share as a move, not as notes deleted")
    func manyNotesSharedAreNoMassDeletion() async throws {
        try await withLiveServer { server, _ in
            let ines = try await Self.device("ines", on: server)
            let laptop = try await Self.device("ines", on: server, registering: false)
            _ = try await Self.device("bob", on: server)
            let trip = try ines.createFolder(name: "Trip")
            for day in 1...60 { _ = try ines.createNote(NoteDraft(title: "Day \(day)", folderId: trip.id)) }
            _ = try ines.createNote(NoteDraft(title: "Kept private"))
            try await Self.sync(ines)
            try await Self.sync(laptop)
            #expect(try laptop.notes(NoteQuery(limit: 100)).count == 61)

            let shared = try await ines.shareFolder(trip.id, with: [(account: "bob", role: .editor)])
            _ = try shared.result.get()
            try await Self.sync(ines)
            // Pulled before the share is on the laptop, the 60 notes leaving are 60 deletions:
            // more than the guard lets through without asking.
            let engine = try laptop.syncEngine(transport: try laptop.syncTransport())
            do throws(SyncError) {
                try await engine.sync()
                Issue.record("the notes leaving were not counted as deletions before the share was here")
            } catch .massDeletion(let count) {
                #expect(count == 60)
            } catch {
                Issue.record("\(error)")
            }
            // Synced as every sync is, the shares first: the share's store holds the notes, so
            // their leaving the account's own notes is a move and goes through without asking.
            try await Self.sync(laptop)
            #expect(try Self.titles(laptop, zone: shared.zone.zone).count == 60)
            #expect(try laptop.notes(NoteQuery(limit: 100)).map(\.title) == ["Kept private"])
        }
    }
}
