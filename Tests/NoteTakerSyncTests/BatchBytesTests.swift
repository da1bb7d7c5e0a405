import Foundation
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@Suite("Batches bounded by bytes")
struct BatchBytesTests {
    @Test("long notes go up in batches that fit the server's request limit, and come down whole")
    func longNotes() async throws {
        try await withDevices(2) { devices, _ in
            // 60 notes of 200 kB: 12 MB, over the 8 MB a request may carry, in fewer notes
            // than a batch holds.
            let paragraph = String(repeating: "Long minutes of a long meeting, kept whole. ", count: 4_600)
            for index in 0..<60 {
                _ = try devices[0].store.createNote(NoteDraft(title: "Minutes \(index)", body: "\(index) \(paragraph)"))
            }
            let report = try await devices[0].sync()
            #expect(report.pushed == 60)
            #expect(report.errors == 0)
            try await devices[1].sync()
            let received = try devices[1].allNotes()
            #expect(received.count == 60)
            #expect(received.allSatisfy { $0.body.hasSuffix(paragraph) })
        }
    }
}

@Suite("A record larger than the server takes")
struct OversizedRecordTests {
    @Test("a note too large to send says so and what to do, and the notes beside it still go up")
    func oversizedNote() async throws {
        try await withDevices(2) { devices, _ in
            // 1.2 MB of text: allowed in a note here, over the 1 MB a sync record may be.
            let huge = try devices[0].store.createNote(NoteDraft(title: "Export dump", body: String(repeating: "0123456789", count: 120_000)))
            _ = try devices[0].store.createNote(NoteDraft(title: "Small", body: "fits"))
            let report = try await devices[0].sync()
            #expect(report.pushed == 1)
            let refused = try devices[0].store.note(id: huge.id)
            #expect(refused.sync.status != .synced)
            #expect(refused.sync.errorMessage?.contains("Shorten it or split it into several notes") == true, "\(String(describing: refused.sync.errorMessage))")
            try await devices[1].sync()
            #expect(try devices[1].allNotes().map(\.title) == ["Small"])
        }
    }
}

@Suite("The batch in flight")
struct InflightBatchTests {
    @Test("a batch kept in flight (written by hand) reads back whole through its Codable form")
    func roundTrip() throws {
        let store = try NoteStore.inMemory()
        let fields: RecordFields = [
            "title": .string("Caf\u{E9} / \"quoted\"\n\u{1}"), "modifiedAt": .number(1_763_942_400.125), "isPinned": .bool(true),
            "tagIds": .array([.string("a"), .string("b")]), "trashedAt": .null,
        ]
        let batch = PushBatch(
            request: ModifyRequest(changes: [
                RecordChange(recordType: "note", recordId: UUID(), operation: .save, baseChangeTag: "41", fields: fields),
                RecordChange(recordType: "folder", recordId: UUID(), operation: .delete, baseChangeTag: nil, fields: nil),
            ], deviceId: UUID()),
            sequences: [7, 9], assetHashes: ["abc123"])
        try store.writer.write { db in try batch.save(db) }
        let loaded = try #require(try store.writer.read { db in try PushBatch.loadAll(db).first })
        #expect(loaded.request == batch.request)
        #expect(loaded.sequences == [7, 9])
        #expect(loaded.assetHashes == ["abc123"])
    }
}
