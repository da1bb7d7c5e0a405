import Foundation
@testable import NoteTakerKit

/// A folder under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("NoteTakerTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `data` to a file inside the folder and returns its URL.
    func write(_ data: Data, named name: String) throws -> URL {
        let file = self.file(name)
        try data.write(to: file)
        return file
    }
}

/// A store on disk in a temporary folder, as the programs use it.
func makeDiskStore(in directory: TemporaryDirectory) throws -> NoteStore {
    try NoteStore.open(at: directory.file("NoteTaker.sqlite"))
}

extension NoteStore {
    /// Creates a note with just a title and body, for brevity in tests.
    @discardableResult
    func make(_ title: String, _ body: String = "", tags: [String] = [], folder: UUID? = nil, pinned: Bool = false) throws -> Note {
        try createNote(NoteDraft(title: title, body: body, isPinned: pinned, folderId: folder, tags: tags))
    }

    /// The titles a search returns, best first.
    func searchTitles(_ text: String, tag: String? = nil, folder: UUID? = nil, pinned: Bool = false, trash: Bool = false) throws -> [String] {
        try search(SearchQuery(text, tag: tag, folderId: folder, pinnedOnly: pinned, inTrash: trash)).map(\.note.title)
    }

    /// The titles of a note list page.
    func listTitles(_ query: NoteQuery = NoteQuery()) throws -> [String] {
        try notes(query).map(\.title)
    }
}
