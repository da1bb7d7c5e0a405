import Foundation
import GRDB
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerKit

/// Merge bases: a synced note keeps no copy of itself until it changes here, and every way
/// of changing it first copies it as it was (`SyncBase`), so that merges stay three-way.
@Suite("Merge bases copied on change")
struct MergeBaseTests {
    /// A change a person makes to a note, each through another write path of the store.
    enum Change: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case retitled, pinned, moved, folderDeleted, tagAdded, tagRemoved, tagDeleted, trashed

        var testDescription: String { rawValue }

        func make(on store: NoteStore, note: Note) throws {
            switch self {
            case .retitled: _ = try store.updateNote(id: note.id, title: "Renamed")
            case .pinned: _ = try store.setPinned(true, noteId: note.id)
            case .moved: _ = try store.moveNote(id: note.id, toFolder: try store.createFolder(name: "Elsewhere").id)
            case .folderDeleted: try store.deleteFolder(id: try #require(note.folderId))
            case .tagAdded: _ = try store.addTags(["new"], toNote: note.id)
            case .tagRemoved: _ = try store.removeTags(["old"], fromNote: note.id)
            case .tagDeleted: try store.deleteTag("old")
            case .trashed: _ = try store.trashNotes(ids: [note.id])
            }
        }

        /// Whether `seen` shows the change (besides the other device's body edit).
        func shows(_ seen: Note, on store: NoteStore) throws -> Bool {
            switch self {
            case .retitled: seen.title == "Renamed"
            case .pinned: seen.isPinned
            case .moved: try seen.folderId.map { try store.folder(id: $0).name } == "Elsewhere"
            case .folderDeleted: seen.folderId == nil
            case .tagAdded: seen.tags.sorted() == ["keep", "new", "old"]
            case .tagRemoved, .tagDeleted: seen.tags == ["keep"]
            case .trashed: seen.trashedAt != nil
            }
        }
    }

    @Test("each local change first copies the note as last synced; a concurrent edit then merges with it", arguments: Change.allCases)
    func changeCopiesTheBase(change: Change) async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let folder = try a.store.createFolder(name: "Work")
            let note = try a.store.createNote(NoteDraft(title: "Plan", body: "one\ntwo\nthree", folderId: folder.id, tags: ["keep", "old"]))
            try await a.sync()
            try await b.sync()
            for device in [a, b] {
                #expect(try storedBase(device, note.id) == SyncBase.asStored, "\(device.name) keeps a copy of a synced note")
                #expect(try copies(device) == 0)
            }
            let synced = try recordFields(b, note.id)

            try change.make(on: b.store, note: try b.store.note(id: note.id))
            #expect(try baseFields(b, note.id) == synced, "the base is not the note as synced")
            #expect(try copies(b) == 1)

            _ = try a.store.updateNote(id: note.id, body: "one\ntwo\nthree from a")
            try await settle(a, b)
            for device in [a, b] {
                let seen = try device.store.note(id: note.id)
                #expect(seen.body == "one\ntwo\nthree from a", "\(device.name) lost the other device's edit")
                #expect(try change.shows(seen, on: device.store), "\(device.name) lost the change \(change.rawValue)")
                #expect(try device.store.conflicts().isEmpty)
                #expect(try copies(device) == 0, "\(device.name) kept a copy after syncing")
            }
        }
    }

    @Test("two changes before a sync: the base stays the note as synced, not as first changed")
    func firstCopyStays() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "Lines", body: "one\ntwo\nthree"))
            try await a.sync()
            try await b.sync()
            _ = try b.store.updateNote(id: note.id, body: "ONE\ntwo\nthree")
            _ = try b.store.updateNote(id: note.id, body: "ONE!\ntwo\nthree")
            _ = try a.store.updateNote(id: note.id, body: "one\ntwo\nTHREE")
            try await settle(a, b)
            for device in [a, b] {
                // With the first change as base, line one would seem changed on both sides: a conflict.
                #expect(try device.store.note(id: note.id).body == "ONE!\ntwo\nTHREE")
                #expect(try device.store.conflicts().isEmpty)
            }
        }
    }

    @Test("a base kept whole by an older version still serves, and no copy is made beside it")
    func explicitBaseStillServes() async throws {
        try await withDevices(2) { devices, _ in
            let (a, b) = (devices[0], devices[1])
            let note = try a.store.createNote(NoteDraft(title: "Old store", body: "one\ntwo\nthree"))
            try await a.sync()
            try await b.sync()
            let synced = try recordFields(b, note.id)
            try b.store.write { db in
                try db.execute(sql: "UPDATE note SET syncBase = ? WHERE id = ?", arguments: [synced.wireJSON, note.id.key])
            }
            _ = try b.store.updateNote(id: note.id, body: "ONE\ntwo\nthree")
            #expect(try copies(b) == 0)
            _ = try a.store.updateNote(id: note.id, body: "one\ntwo\nTHREE")
            try await settle(a, b)
            for device in [a, b] {
                #expect(try device.store.note(id: note.id).body == "ONE\ntwo\nTHREE")
            }
        }
    }

    @Test("an edit made while its note is in flight keeps the version sent as the base")
    func editInFlightKeepsTheSentBase() async throws {
        try await withDevices(1) { devices, _ in
            let device = devices[0]
            let note = try device.store.createNote(NoteDraft(title: "Draft", body: "sent"))
            let batch = try #require(try device.store.nextPushBatch(after: 0, limit: 10).0)
            let begun = try device.store.beginPush(batch)
            let answer = try await device.transport.modify(begun.request)
            _ = try device.store.updateNote(id: note.id, body: "edited meanwhile")
            _ = try device.store.finishPush(begun, response: answer, policy: .localWins)
            #expect(try storedBase(device, note.id) != SyncBase.asStored)
            #expect(try baseFields(device, note.id)?["body"] == .string("sent"))
            try await device.sync()
            #expect(try storedBase(device, note.id) == SyncBase.asStored)
            #expect(try copies(device) == 0)
        }
    }

    /// The first device sends, the second merges and sends, the first receives.
    private func settle(_ a: Device, _ b: Device) async throws {
        try await a.sync()
        try await b.sync()
        try await a.sync()
    }

    private func storedBase(_ device: Device, _ id: UUID) throws -> String? {
        try device.store.read { db in try String.fetchOne(db, sql: "SELECT syncBase FROM note WHERE id = ?", arguments: [id.key]) }
    }

    private func copies(_ device: Device) throws -> Int {
        try device.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_note_base") ?? -1 }
    }

    private func recordFields(_ device: Device, _ id: UUID) throws -> RecordFields {
        try #require(try device.store.read { db in try SyncRecords.fields(db, .note, id.key) })
    }

    private func baseFields(_ device: Device, _ id: UUID) throws -> RecordFields? {
        try device.store.read { db in try SyncBase.fields(db, .note, id.key) }
    }
}
