import Foundation
import Testing
@testable import NoteTakerKit

@Suite("Live queries")
struct ObservationTests {
    /// Collects values from `stream` until `done` accepts one; fails if the stream ends first.
    func waitFor<Value: Sendable>(
        _ stream: AsyncThrowingStream<Value, any Error>, until done: (Value) -> Bool
    ) async throws -> Value {
        for try await value in stream where done(value) {
            return value
        }
        Issue.record("the stream ended before the expected value")
        throw CancellationError()
    }

    @Test func theNoteListFollowsChanges() async throws {
        let store = try NoteStore.inMemory()
        let stream = store.observeNotes()
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next()?.isEmpty == true)
        try store.make("First")
        #expect(try await iterator.next()?.map(\.title) == ["First"])
        let second = try store.make("Second", pinned: true)
        #expect(try await iterator.next()?.map(\.title) == ["Second", "First"])
        try store.trashNotes(ids: [second.id])
        #expect(try await iterator.next()?.map(\.title) == ["First"])
    }

    @Test func aSingleNoteAFolderTreeTagsAndASearch() async throws {
        let store = try NoteStore.inMemory()
        let note = try store.make("Watched", "alpha")
        async let noteValue = waitFor(store.observeNote(id: note.id)) { $0?.body == "beta" }
        async let treeValue = waitFor(store.observeFolderTree()) { $0.first?.folder.name == "Live" }
        async let tagValue = waitFor(store.observeTags()) { $0.first?.noteCount == 1 }
        async let searchValue = waitFor(store.observeSearch(SearchQuery("beta"))) { $0.count == 1 }
        try await Task.sleep(for: .milliseconds(50))
        _ = try store.updateNote(id: note.id, body: "beta")
        _ = try store.createFolder(name: "Live")
        _ = try store.addTags(["Seen"], toNote: note.id)
        #expect(try await noteValue?.body == "beta")
        #expect(try await treeValue.count == 1)
        #expect(try await tagValue.first?.tag.name == "Seen")
        #expect(try await searchValue.first?.note.id == note.id)
    }

    @Test func seesChangesMadeByAnotherConnectionToTheFile() async throws {
        let directory = TemporaryDirectory()
        let observer = try makeDiskStore(in: directory)
        let other = try makeDiskStore(in: directory)
        async let seen = waitFor(observer.observeNotes()) { $0.map(\.title) == ["From elsewhere"] }
        try await Task.sleep(for: .milliseconds(300))
        try other.make("From elsewhere")
        #expect(try await seen.count == 1)
    }

    @Test func aPurgedNoteBecomesNil() async throws {
        let store = try NoteStore.inMemory()
        let note = try store.make("Short-lived")
        async let gone = waitFor(store.observeNote(id: note.id)) { $0 == nil }
        try await Task.sleep(for: .milliseconds(50))
        try store.trashNotes(ids: [note.id])
        try store.purgeNotes(ids: [note.id])
        #expect(try await gone == nil)
    }
}
