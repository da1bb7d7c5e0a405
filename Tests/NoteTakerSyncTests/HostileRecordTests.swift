import Foundation
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// Records written wrong by another client (buggy, or hostile), pushed through the real
/// HTTP API: a device that syncs them never crashes, keeps its own notes exactly as they
/// were, lists the bad records in its sync status, and goes on syncing everything else.
@Suite("Hostile records")
struct HostileRecordTests {
    /// One wrong record: its type, which field is wrong, and the fields it is sent with.
    struct Case: CustomTestStringConvertible, Sendable {
        let type: SyncRecordType
        let wrong: String
        let fields: RecordFields
        var testDescription: String { "\(type.rawValue) with \(wrong)" }
    }

    static let date: FieldValue = .number(1_795_000_000)
    static let note: RecordFields = ["title": .string("Fine"), "body": .string("text"), "createdAt": date, "modifiedAt": date,
                                     "isPinned": .bool(false), "folderId": .null, "tagIds": .array([]), "trashedAt": .null]
    static let folder: RecordFields = ["name": .string("Fine"), "icon": .null, "sortOrder": .number(1), "createdAt": date,
                                       "modifiedAt": date, "parentId": .null]
    static let tag: RecordFields = ["name": .string("fine"), "createdAt": date]
    static func attachment(noteId: UUID) -> RecordFields {
        ["noteId": .string(noteId.uuidString), "kind": .string("file"), "fileName": .string("a.txt"), "fileSize": .number(3),
         "contentHash": .string(String(repeating: "ab", count: 32)), "createdAt": date]
    }

    /// Every field wrong in the ways another program could write it.
    static func cases(noteId: UUID) -> [Case] {
        let huge = FieldValue.number(1e19), far = FieldValue.number(1e300), text = FieldValue.string("yesterday")
        let bigTitle = FieldValue.string(String(repeating: "x", count: 900_000))
        var cases: [Case] = []
        func add(_ type: SyncRecordType, _ base: RecordFields, _ field: String, _ values: [(String, FieldValue?)]) {
            for (label, value) in values {
                var fields = base
                fields[field] = value
                cases.append(Case(type: type, wrong: "\(field) \(label)", fields: fields))
            }
        }
        add(.note, note, "modifiedAt", [("1e300", far), ("-1e20", .number(-1e20)), ("as text", text), ("missing", nil)])
        add(.note, note, "createdAt", [("1e300", far), ("as a list", .array([]))])
        add(.note, note, "trashedAt", [("1e300", far), ("as text", text)])
        add(.note, note, "title", [("of 900 kB", bigTitle), ("as a number", .number(1)), ("missing", nil)])
        add(.note, note, "body", [("as a bool", .bool(true)), ("missing", nil)])
        add(.note, note, "isPinned", [("as text", .string("yes"))])
        add(.note, note, "folderId", [("not a UUID", .string("../etc")), ("as a number", .number(7))])
        add(.note, note, "tagIds", [("as text", .string("red")), ("with numbers", .array([.number(1)])), ("not UUIDs", .array([.string("red")]))])
        add(.folder, folder, "sortOrder", [("1e19", huge), ("as text", text)])
        add(.folder, folder, "createdAt", [("1e300", far)])
        add(.folder, folder, "name", [("empty", .string("")), ("as a number", .number(3)), ("missing", nil)])
        add(.folder, folder, "parentId", [("not a UUID", .string("root"))])
        add(.folder, folder, "icon", [("of 10 kB", .string(String(repeating: "i", count: 10_000)))])
        add(.tag, tag, "name", [("empty", .string("")), ("as a list", .array([]))])
        add(.tag, tag, "createdAt", [("1e300", far)])
        let file = attachment(noteId: noteId)
        add(.attachment, file, "fileSize", [("1e19", huge), ("negative", .number(-5)), ("as text", text)])
        add(.attachment, file, "noteId", [("not a UUID", .string("zzz"))])
        add(.attachment, file, "contentHash", [("not a hash", .string("../../passwd"))])
        add(.attachment, file, "createdAt", [("1e300", far)])
        return cases
    }

    @Test("every wrong field of every record type is held, never applied, and sync goes on")
    func wrongRecordsAreHeld() async throws {
        try await withDevices(2) { devices, _ in
            let (device, other) = (devices[0], devices[1])
            let mine = try device.store.createNote(NoteDraft(title: "Mine", body: "kept as it is", tags: ["home"]))
            try await device.sync()
            let before = try device.allNotes()

            let cases = Self.cases(noteId: mine.id)
            // The wrong client writes a note of its own as well as bad ones.
            let changes = cases.map { RecordChange(recordType: $0.type.rawValue, recordId: UUID(), operation: .save, baseChangeTag: nil, fields: $0.fields) }
            for batch in stride(from: 0, to: changes.count, by: 20) {
                let response = try await other.transport.modify(ModifyRequest(changes: Array(changes[batch..<min(batch + 20, changes.count)])))
                #expect(response.results.allSatisfy { $0.outcome == .saved })
            }
            // And overwrites the device's own note with a version that cannot be read.
            let tag = try #require(try device.store.note(id: mine.id).sync.changeTag)
            var broken = Self.note
            broken["modifiedAt"] = .number(1e300)
            _ = try await other.transport.modify(ModifyRequest(changes: [
                RecordChange(recordType: "note", recordId: mine.id, operation: .save, baseChangeTag: tag, fields: broken),
            ]))

            let report = try await device.sync()
            #expect(report.errors == cases.count + 1)
            #expect(try device.allNotes() == before, "a bad record changed a note here")
            let held = try device.store.syncSummary().held
            #expect(held.count == cases.count + 1)
            #expect(held.contains { $0.recordId == mine.id.key && $0.reason.contains("modifiedAt") })

            // Local changes still go up, the device's edit replacing the unreadable version;
            // an ordinary note still goes both ways.
            _ = try device.store.updateNote(id: mine.id, body: "edited after")
            _ = try device.store.createNote(NoteDraft(title: "Afterwards"))
            try await device.sync()
            _ = try other.store.createNote(NoteDraft(title: "From the other device"))
            try await other.sync()
            try await device.sync()
            #expect(Set(try device.allNotes().map(\.title)) == ["Mine", "Afterwards", "From the other device"])
            #expect(try other.store.note(id: mine.id).body == "edited after")
            #expect(try device.store.syncSummary().held.count == cases.count, "the replaced version is still held")
            #expect(try device.store.pendingChanges().isEmpty)
        }
    }

    @Test("a record that fails in a way no check foresaw is held; the rest of its page is applied")
    func unforeseenFailureIsHeld() async throws {
        let store = try NoteStore.inMemory()
        // Stands for any failure of one record that the checks do not catch.
        try store.write { db in
            try db.execute(sql: "CREATE TRIGGER poison BEFORE INSERT ON note WHEN NEW.title = 'poison' BEGIN SELECT RAISE(ABORT, 'unforeseen'); END")
        }
        let records = ["first", "poison", "last"].enumerated().map { index, title in
            var fields = Self.note
            fields["title"] = .string(title)
            return SyncRecord(recordType: "note", recordId: UUID(), changeTag: String(index + 1), deleted: false, fields: fields)
        }
        let report = try await SyncEngine(store: store, transport: FixedRecordsTransport(records: records)).sync()
        #expect(report.errors == 1)
        #expect(Set(try store.notes().map(\.title)) == ["first", "last"])
        let held = try store.syncSummary().held
        #expect(held.map(\.recordId) == [records[1].recordId.key])
        #expect(held.first?.reason.contains("unforeseen") == true)
    }
}
