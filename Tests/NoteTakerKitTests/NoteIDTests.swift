import Foundation
import Synchronization
import Testing
@testable import NoteTakerKit

@Suite("Note ids")
struct NoteIDTests {
    @Test func idsMadeInABatchSortInOrderAndDifferInTheirShortForm() {
        var sequence = NoteIDSequence(sources: .system)
        let now = Date(timeIntervalSince1970: 1_790_000_000.25)
        // Faster than the clock ticks: all at the same instant.
        let ids = (0..<5_000).map { _ in sequence.next(at: now) }
        #expect(ids.map(\.key) == ids.map(\.key).sorted())
        #expect(Set(ids.map { $0.key.prefix(8) }).count == ids.count)
        for id in ids {
            #expect(id.key.dropFirst(14).first == "8")
            #expect("89ab".contains(id.key.dropFirst(19).first ?? "x"))
        }
        // The first 32 bits are the low bits of the microseconds since 1970.
        #expect(ids[0].key.prefix(8) == String(UInt32(truncatingIfNeeded: UInt64(1_790_000_000_250_000)), radix: 16))
    }

    @Test func idsMadeAtRandomTimesSpreadLikeRandomOnes() {
        var generator = SystemRandomNumberGenerator()
        let firstCharacters = (0..<2_000).map { _ -> Character in
            var sequence = NoteIDSequence(sources: .system)
            let date = Date(timeIntervalSince1970: 1_790_000_000 + Double.random(in: 0..<30 * 86_400, using: &generator))
            return sequence.next(at: date).key.first ?? " "
        }
        #expect(Set(firstCharacters).count == 16)
    }

    @Test func aClockOutOfRangeStillGivesDistinctIds() {
        var sequence = NoteIDSequence(sources: .system)
        let ids = [-1e12, 0, 1e15, .infinity, .nan].map { sequence.next(at: Date(timeIntervalSince1970: $0)) }
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(UUID(key: id.key) == id) }
    }

    @Test func notesImportedTogetherGetNeighbouringIdsWithDistinctShortForms() throws {
        let store = try NoteStore.inMemory()
        let batch = try store.importNotes((0..<500).map { NoteDraft(title: "imported \($0)") }).imported
        #expect(batch.map(\.key) == batch.map(\.key).sorted())
        #expect(Set(batch.map { $0.key.prefix(8) }).count == batch.count)
        let single = try store.make("one")
        #expect(single.id.key.dropFirst(14).first == "8")
    }

    /// Sources that follow from `seed`: a clock a millisecond on at each reading, and the
    /// numbers of a linear congruential generator.
    static func seeded(_ seed: UInt64) -> StoreSources {
        let state = LCGState(seed: seed)
        return StoreSources(now: { state.tick() }, randomBits: { state.next() })
    }

    @Test func aStoreGivenSeededSourcesMakesTheSameIdsAndTimesEveryTime() throws {
        func run() throws -> [String] {
            let store = try NoteStore.inMemory(sources: Self.seeded(42))
            let folder = try store.createFolder(name: "Work")
            let note = try store.createNote(NoteDraft(title: "One", folderId: folder.id, tags: ["red"]))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("seeded-\(UUID()).txt")
            try Data("a file".utf8).write(to: file)
            let attachment = try store.attachFile(at: file, toNote: note.id)
            let edited = try store.updateNote(id: note.id, body: "changed")
            let tag = try #require(try store.tags().first?.tag)
            return [folder.id.key, note.id.key, attachment.id.key, "\(folder.createdAt.timeIntervalSince1970)",
                    "\(edited.modifiedAt.timeIntervalSince1970)", "\(tag.createdAt.timeIntervalSince1970)"]
        }
        let first = try run()
        #expect(try run() == first)
        // Not the system's: the clock starts where the seeded one does.
        #expect(first[3].hasPrefix("1790000000"))
        let other = try NoteStore.inMemory(sources: Self.seeded(43)).createFolder(name: "Work")
        #expect(other.id.key != first[0])
    }

    @Test func randomIdsAreVersion4() {
        let sources = Self.seeded(7)
        for _ in 0..<100 {
            let id = sources.newID().key
            #expect(id.dropFirst(14).first == "4")
            #expect("89ab".contains(id.dropFirst(19).first ?? "x"))
        }
    }
}

/// The clock and the generator behind `NoteIDTests.seeded(_:)`, shared by its two closures.
private final class LCGState: Sendable {
    private let state: Mutex<(bits: UInt64, time: Double)>

    init(seed: UInt64) {
        state = Mutex((seed, 1_790_000_000))
    }

    func tick() -> Date {
        Date(timeIntervalSince1970: state.withLock { $0.time += 0.001; return $0.time })
    }

    func next() -> UInt64 {
        state.withLock { $0.bits = $0.bits &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return $0.bits }
    }
}
