import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Note ids")
struct NoteIDTests {
    @Test func idsMadeInABatchSortInOrderAndDifferInTheirShortForm() {
        var sequence = NoteIDSequence()
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
            var sequence = NoteIDSequence()
            let date = Date(timeIntervalSince1970: 1_790_000_000 + Double.random(in: 0..<30 * 86_400, using: &generator))
            return sequence.next(at: date).key.first ?? " "
        }
        #expect(Set(firstCharacters).count == 16)
    }

    @Test func aClockOutOfRangeStillGivesDistinctIds() {
        var sequence = NoteIDSequence()
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
}
