import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

@Suite struct JSONRoundTripTests {
    /// A store with nested folders, tags, a pinned note, a trashed note and attachments.
    static func sampleStore(in directory: TemporaryDirectory) throws -> NoteStore {
        let store = try directory.store("source")
        let work = try store.createFolder(name: "Work", icon: "briefcase")
        let projects = try store.createFolder(name: "Projects", parentId: work.id)
        let plans = try store.createNote(NoteDraft(
            title: "Café plans", body: "# Menu\n\nΕλληνικά, русский, 日本語 — \"quotes\" \\ and\ttabs\n- [x] book", isPinned: true,
            folderId: projects.id, tags: ["Errands", "Food & Drink"]))
        let picture = try directory.write(pngData(), to: "in/red square.png")
        let attached = try store.attachFile(at: picture, toNote: plans.id)
        _ = try store.updateNote(id: plans.id, body: plans.body + "\n\n![red](attachment:\(attached.id.key))")
        let paper = try directory.write("A plain file", to: "in/notes.txt")
        _ = try store.attachFile(at: paper, toNote: plans.id)
        try store.make("Unfiled", "no folder, no tags")
        let old = try store.make("Old idea", "in the trash", folder: work.id)
        _ = try store.trashNotes(ids: [old.id])
        return store
    }

    @Test func exportImportExportIsIdentical() throws {
        let directory = TemporaryDirectory()
        let source = try Self.sampleStore(in: directory)
        let first = directory.file("first")
        let report = try Exporter(store: source).export(.json, to: first)
        #expect(report.notes == 3)
        #expect(report.attachments == 2)
        #expect(report.folders == 2)

        let copy = try directory.store("copy")
        let imported = try Importer(store: copy).importItems(at: first)
        #expect(imported.kind == .notetakerJSON)
        #expect(imported.found == 3 && imported.imported == 3 && imported.skipped.isEmpty)
        let second = directory.file("second")
        _ = try Exporter(store: copy).export(.json, to: second)
        let a = try contents(of: first)
        let b = try contents(of: second)
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, data) in a { #expect(b[path] == data, "\(path) differs") }

        let notes = try copy.allNotes()
        #expect(notes["Old idea"]?.isTrashed == true)
        #expect(notes["Café plans"]?.isPinned == true)
        #expect(notes["Café plans"]?.tags.sorted() == ["Errands", "Food & Drink"])
        #expect(try copy.folderPath(id: #require(notes["Café plans"]?.folderId)) == "Work/Projects")
        #expect(try copy.search(SearchQuery("русский")).map(\.note.title) == ["Café plans"])
    }

    @Test func importingTwiceAddsNothingTheSecondTime() throws {
        let directory = TemporaryDirectory()
        let source = try Self.sampleStore(in: directory)
        _ = try Exporter(store: source).export(.json, to: directory.file("export"))
        let copy = try directory.store("copy")
        _ = try Importer(store: copy).importItems(at: directory.file("export"))
        let again = try Importer(store: copy).importItems(at: directory.file("export/notetaker-export.json"))
        #expect(again.imported == 0 && again.alreadyPresent == 3)
        #expect(try copy.noteCount() == 3)
        #expect(try copy.folderTree().count == 1)
    }

    @Test func theImportBuildsTheSearchIndexOnceAtItsEndAndSaysSo() throws {
        let directory = TemporaryDirectory()
        let source = try Self.sampleStore(in: directory)
        _ = try Exporter(store: source).export(.json, to: directory.file("export"))
        let copy = try directory.store("copy")
        let reports = ProgressReports()
        _ = try Importer(store: copy).importItems(at: directory.file("export")) { reports.append($0) }
        let indexing = reports.all.filter(\.indexing)
        #expect(indexing.first.map { [$0.done, $0.total] } == [0, 3])
        #expect(indexing.last.map { [$0.done, $0.total] } == [3, 3])
        // The index pass comes after every note is in.
        let afterFirstIndexing = reports.all.drop { !$0.indexing }
        #expect(afterFirstIndexing.allSatisfy { $0.indexing })
        #expect(try copy.search(SearchQuery("plain")).isEmpty)
        #expect(try copy.search(SearchQuery("folder")).map(\.note.title) == ["Unfiled"])
        #expect(try copy.search(SearchQuery("trash", inTrash: true)).map(\.note.title) == ["Old idea"])
    }

    @Test func aSelectionExportsItsNotesAndTheirFolders() throws {
        let directory = TemporaryDirectory()
        let source = try Self.sampleStore(in: directory)
        let byTag = try Exporter(store: source).export(.json, selection: NoteSelection(tag: "errands"), to: directory.file("tag"))
        #expect(byTag.notes == 1 && byTag.folders == 2)
        let work = try source.resolveFolder("Work")
        let byFolder = try Exporter(store: source).export(.json, selection: NoteSelection(folderId: work.id), to: directory.file("folder"))
        #expect(byFolder.notes == 1, "the trashed note in Work is left out of a folder export")
        let trashed = try #require(try source.allNotes()["Old idea"])
        let asked = try Exporter(store: source).export(.markdown, selection: NoteSelection(noteId: trashed.id), to: directory.file("trashed"))
        #expect(asked.notes == 1, "a note asked for by id is exported even from the trash")
        let note = try #require(try source.allNotes()["Unfiled"])
        let one = try Exporter(store: source).export(.json, selection: NoteSelection(noteId: note.id), to: directory.file("one"))
        #expect(one.notes == 1 && one.folders == 0 && one.attachments == 0)
    }

    @Test func anExportNeverOverwrites() throws {
        let directory = TemporaryDirectory()
        let source = try Self.sampleStore(in: directory)
        try directory.write("keep me", to: "taken/file.txt")
        #expect(throws: InterchangeError.outputExists(path: directory.file("taken").path)) {
            try Exporter(store: source).export(.json, to: directory.file("taken"))
        }
        #expect(try String(contentsOf: directory.file("taken/file.txt"), encoding: .utf8) == "keep me")
        #expect(throws: InterchangeError.self) { try Exporter(store: source).export(.pdf, to: directory.file("taken/file.txt")) }
        #expect(throws: InterchangeError.store(.tagNotFound("nope"))) {
            try Exporter(store: source).export(.json, selection: NoteSelection(tag: "nope"), to: directory.file("new"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("new").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }
}

/// Progress reports, collected from the handler.
private final class ProgressReports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [InterchangeProgress] = []

    func append(_ report: InterchangeProgress) { lock.withLock { reports.append(report) } }
    var all: [InterchangeProgress] { lock.withLock { reports } }
}
