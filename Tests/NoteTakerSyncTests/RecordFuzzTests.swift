import Foundation
import NoteTakerKit
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// Real records with fields mutated at random (types swapped, numbers out of range or not
/// numbers at all, strings huge or empty, references to nothing, fields missing or extra),
/// fed to a device's sync: it never traps, everything it could not apply is held, and the
/// store stays usable. `NOTETAKER_FUZZ_SEEDS` runs more seeds (`scripts/fuzz`),
/// `NOTETAKER_FUZZ_FROM` starts elsewhere.
@Suite("Record fuzzing")
struct RecordFuzzTests {
    static let seeds = TestSeeds.list("NOTETAKER_FUZZ", defaultCount: 20)

    @Test("mutated records never trap the apply step", arguments: seeds)
    func mutatedRecords(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let records = Self.records(&random)
        let store = try NoteStore.inMemory()
        let engine = SyncEngine(store: store, transport: FixedRecordsTransport(records: records), options: .init(allowMassDeletion: true))
        let report = try await engine.sync()
        let summary = try store.syncSummary()
        #expect(report.errors == summary.held.count, "seed \(seed)")
        // The store answers every question, and every date in it can be written out.
        let notes = try store.notes(NoteQuery(limit: 1000)) + store.trashedNotes(limit: 1000)
        for note in notes {
            _ = Timestamp.string(note.createdAt) + Timestamp.string(note.modifiedAt) + (note.trashedAt.map(Timestamp.string) ?? "")
        }
        _ = try store.folderTree()
        _ = try store.tags()
        _ = try store.search(SearchQuery("a"))
        #expect(notes.count + summary.held.count <= records.count)
    }

    /// A consistent set of records (folders, tags, notes, attachments that refer to each
    /// other), then about a third of them mutated.
    static func records(_ random: inout SeededGenerator) -> [SyncRecord] {
        let folders = (0..<4).map { _ in UUID() }, tags = (0..<4).map { _ in UUID() }, notes = (0..<12).map { _ in UUID() }
        let date = FieldValue.number(1_795_000_000)
        var records: [SyncRecord] = []
        func add(_ type: SyncRecordType, _ id: UUID, _ fields: RecordFields) {
            records.append(SyncRecord(recordType: type.rawValue, recordId: id, changeTag: String(records.count + 1), deleted: false, fields: fields))
        }
        for (index, id) in folders.enumerated() {
            add(.folder, id, ["name": .string("Folder \(index)"), "icon": .null, "sortOrder": .number(Double(index)), "createdAt": date,
                              "modifiedAt": date, "parentId": index == 0 ? .null : .string(folders[index - 1].uuidString.lowercased())])
        }
        for (index, id) in tags.enumerated() { add(.tag, id, ["name": .string("tag \(index)"), "createdAt": date]) }
        for (index, id) in notes.enumerated() {
            add(.note, id, ["title": .string("Note \(index)"), "body": .string("a body about apples \(index)"), "createdAt": date,
                            "modifiedAt": date, "isPinned": .bool(index % 3 == 0), "trashedAt": index % 5 == 0 ? date : .null,
                            "folderId": .string(folders[index % 4].uuidString.lowercased()),
                            "tagIds": .array([.string(tags[index % 4].uuidString.lowercased())])])
            add(.attachment, UUID(), ["noteId": .string(id.uuidString.lowercased()), "kind": .string("file"), "fileName": .string("f\(index).txt"),
                                      "fileSize": .number(10), "contentHash": .string(String(repeating: "0\(index % 10)", count: 32)), "createdAt": date])
        }
        return records.map { record in
            guard Int.random(in: 0..<3, using: &random) == 0 else { return record }
            var mutated = record
            for _ in 0..<Int.random(in: 1...3, using: &random) { mutate(&mutated.fields, &random) }
            if Int.random(in: 0..<20, using: &random) == 0 { mutated.recordType = ["notes", "", "📎"].randomElement(using: &random)! }
            return mutated
        }
    }

    /// Replaces one field (or adds one) with a value of the wrong kind or range, or drops it.
    static func mutate(_ fields: inout RecordFields, _ random: inout SeededGenerator) {
        let key = (Array(fields.keys) + ["unexpected"]).randomElement(using: &random)!
        let values: [FieldValue?] = [
            nil, .null, .bool(true), .number(1e19), .number(-1e19), .number(1e300), .number(-1),
            .number(0.5), .string(""), .string(String(repeating: "é", count: 60_000)), .string("not-a-uuid"),
            .string(UUID().uuidString), .string("\u{0}\u{202E}"), .array([]), .array([.number(1), .null]),
            .array((0..<10_001).map { _ in .string(UUID().uuidString) }),
        ]
        fields[key] = values.randomElement(using: &random)!
    }
}

/// A server that holds the given records and accepts whatever is sent up.
actor FixedRecordsTransport: SyncTransport {
    let records: [SyncRecord]
    private var sequence = 1000

    init(records: [SyncRecord]) {
        self.records = records
    }

    func health() async throws(SyncError) -> HealthResponse { HealthResponse(status: "ok", apiVersion: SyncAPI.version, serverId: "fuzz") }
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        ChangesResponse(records: query.since == nil ? records : [], token: "fuzz:1", moreComing: false)
    }
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        ModifyResponse(results: request.changes.map { change in
            sequence += 1
            return RecordResult(recordId: change.recordId, recordType: change.recordType, outcome: .saved, changeTag: String(sequence))
        })
    }
    func assetExists(hash: String) async throws(SyncError) -> Bool { true }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) {}
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try? Data().write(to: file) }
}
