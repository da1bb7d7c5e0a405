import Foundation
import GRDB
import Testing
@testable import NoteTakerKit

/// A note's history: versions kept and coalesced, stored as deltas, restored, thinned.
@Suite("History")
struct HistoryTests {
    let store: NoteStore

    init() throws {
        store = try NoteStore.inMemory()
    }

    /// Makes every version of every note look `days` older, as a clock would.
    func age(days: Double) throws {
        try store.write { db in
            try db.execute(sql: "UPDATE note_version SET replacedAt = replacedAt - ?, modifiedAt = modifiedAt - ?",
                           arguments: [days * 86_400, days * 86_400])
        }
    }

    @Test("continuous editing keeps one version per few minutes; each text comes back exactly")
    func coalescedEdits() throws {
        let note = try store.make("Plan", "one")
        _ = try store.updateNote(id: note.id, body: "one two")
        _ = try store.updateNote(id: note.id, body: "one two three")
        #expect(try store.history(noteId: note.id, withBodies: true).map(\.body) == ["one"], "edits within minutes are one run")
        try age(days: 0.01)
        _ = try store.updateNote(id: note.id, title: "Plans", body: "one two three four")
        let versions = try store.history(noteId: note.id, withBodies: true)
        #expect(versions.map(\.body) == ["one two three", "one"])
        #expect(versions.map(\.title) == ["Plan", "Plan"])
        #expect(versions.allSatisfy { $0.replacedBy == .edit })
        #expect(versions[0].id > versions[1].id)
    }

    @Test("older versions are stored as small deltas against the next newer one")
    func deltas() throws {
        let long = String(repeating: "A long paragraph of a note that people keep for years. ", count: 200)
        let note = try store.make("Long", long)
        for index in 0..<20 {
            try age(days: 0.01)
            _ = try store.updateNote(id: note.id, body: long + " edit \(index)")
        }
        let versions = try store.history(noteId: note.id, withBodies: true)
        #expect(versions.count == 20)
        #expect(versions.last?.body == long)
        #expect(versions.first?.body == long + " edit 18")
        let stored = try store.read { db in try Int.fetchOne(db, sql: "SELECT SUM(length(body)) FROM note_version") ?? 0 }
        #expect(stored < long.utf8.count + 20 * 40, "one full body and 19 deltas of a few bytes: \(stored) bytes")
        #expect(TextDelta.apply(TextDelta.make(from: "héllo wörld", to: "héllo brave wörld"), to: "héllo wörld") == "héllo brave wörld")
        #expect(TextDelta.apply(Data([0xFF, 0xFF]), to: "x") == nil, "a damaged delta is refused, never trapped on")
    }

    @Test("restoring is an ordinary edit: the replaced text becomes a version, and the note syncs")
    func restore() throws {
        let note = try store.make("Draft", "first")
        try age(days: 0.01)
        _ = try store.updateNote(id: note.id, body: "a mistaken paste")
        let first = try #require(try store.history(noteId: note.id, withBodies: true).first)
        let restored = try store.restoreVersion(first.id, of: note.id)
        #expect(restored.body == "first" && restored.sync.status == .pending)
        let versions = try store.history(noteId: note.id, withBodies: true)
        #expect(versions.first?.body == "a mistaken paste" && versions.first?.replacedBy == .restore)
    }

    @Test("an unknown version, or a version of another note, is not found and changes nothing")
    func unknownVersions() throws {
        let note = try store.make("Mine", "one")
        let other = try store.make("Other", "x")
        try age(days: 0.01)
        _ = try store.updateNote(id: other.id, body: "y")
        let otherVersion = try #require(try store.history(noteId: other.id, withBodies: true).first)
        #expect(throws: NoteTakerError.versionNotFound(note: note.id.key, version: otherVersion.id)) {
            try store.restoreVersion(otherVersion.id, of: note.id)
        }
        #expect(throws: NoteTakerError.versionNotFound(note: note.id.key, version: 999)) { try store.version(999, of: note.id) }
        #expect(try store.note(id: note.id).body == "one")
        #expect(throws: NoteTakerError.noteNotFound(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)).key)) {
            try store.history(noteId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
        }
    }

    @Test("thinning keeps every young version, then one a day, then one a week")
    func thinning() throws {
        let note = try store.make("Journal", "v0")
        // 40 versions, 12 hours apart: 20 days of history.
        for index in 1...40 {
            try age(days: 0.5)
            _ = try store.updateNote(id: note.id, body: "v\(index)")
        }
        #expect(try store.history(noteId: note.id, withBodies: true).count == 40)
        try store.setHistoryRetention(HistoryRetention(everyVersionDays: 7, dailyDays: 14, weeklyDays: nil))
        let removed = try store.pruneHistory()
        let kept = try store.history(noteId: note.id, withBodies: true)
        #expect(removed == 40 - kept.count && removed > 0)
        let young = kept.filter { Date().timeIntervalSince($0.replacedAt) < 7 * 86_400 }
        #expect(young.count >= 13, "every version of the last 7 days is kept")
        let daily = kept.filter { (7 * 86_400 ..< 14 * 86_400).contains(Date().timeIntervalSince($0.replacedAt)) }
        #expect(Set(daily.map { Int($0.replacedAt.timeIntervalSince1970 / 86_400) }).count == daily.count, "one a day")
        // Every text left still reads back exactly, deltas rebuilt around the removed ones.
        for version in kept { #expect(version.body == "v\(Int(version.body?.dropFirst() ?? "") ?? -1)") }
        #expect(kept.first?.body == "v39")
        #expect(throws: NoteTakerError.self) { try store.setHistoryRetention(HistoryRetention(everyVersionDays: 10, dailyDays: 5, weeklyDays: nil)) }
    }

    @Test("a change from sync, a merge and a resolution each keep what they replace; purging the note drops its history")
    func everyKindKeepsAndPurgeDrops() throws {
        let note = try store.make("Shared", "line one\nline two\nline three")
        let base = NoteBase(note)
        _ = try store.updateNote(id: note.id, body: "line one\nline two EDITED\nline three")
        let merged = try store.changeNote(id: note.id, NoteChanges(body: "line one\nline two\nline three\nbrowser typed A", base: base))
        #expect(merged.body == "line one\nline two EDITED\nline three\nbrowser typed A")
        let versions = try store.history(noteId: note.id, withBodies: true)
        #expect(versions.first?.replacedBy == .merge && versions.first?.body == "line one\nline two EDITED\nline three")
        _ = try store.trashNotes(ids: [note.id])
        #expect(try store.purgeNotes(ids: [note.id]) == 1)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_version") } == 0)
    }
}
