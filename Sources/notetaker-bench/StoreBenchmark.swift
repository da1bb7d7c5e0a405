import Foundation
import NoteTakerKit

/// The `store` suite: DESIGN.md's local budgets, each beside plain SQL doing the same work
/// on the same kind of SQLite file, in the same run.
struct StoreBenchmark {
    let noteCount: Int
    let corpus: Corpus
    let directory: URL
    let repetitions: Int
    let seed: UInt64
    let progress: (String) -> Void
    /// Japanese and Chinese prose, for ``cjkShare`` of the notes (the store suite's corpus;
    /// the other suites keep theirs as before).
    var prose: CJKProse? = nil

    private static let batchSize = 5_000
    /// The share of notes written in Japanese or Chinese.
    static let cjkShare = 0.1
    private static let folderNames = ["Work", "Personal", "Projects", "Archive", "Reading"]
    private static let tagNames = (1...50).map { "tag\($0)" }

    /// Notes per second an import must reach: DESIGN.md asks less of a store ten times as large.
    var importBudget: Int { noteCount >= 1_000_000 ? 8_000 : 10_000 }

    func run() throws -> Report {
        var report = Report(suite: "store", notes: noteCount, machine: Report.machine())
        let storeURL = directory.appendingPathComponent("NoteTaker.sqlite")
        let store = try NoteStore.open(at: storeURL)
        let baseline = try Baseline(path: directory.appendingPathComponent("baseline.sqlite").path)
        var generator = SeededGenerator(seed: seed)
        let (folders, ours, theirs) = try importCorpus(into: store, baseline, &generator)
        report.figures.append(Figure(
            name: "import \(noteCount) notes, searchable", unit: "notes/s",
            noteTaker: Double(noteCount) / ours * 1_000, baseline: Double(noteCount) / theirs * 1_000,
            budget: ">= \(importBudget) notes/s", meetsBudget: Double(noteCount) / ours * 1_000 >= Double(importBudget)))

        progress("Measuring the search index...")
        report.figures.append(try measureIndexSize(storeURL))
        progress("Saving single notes...")
        report.figures += try measureSaves(store, baseline, folders: folders, &generator)
        progress("Measuring the history...")
        report.figures += try measureHistory(&generator)
        progress("Listing...")
        report.figures += try measureLists(store, baseline)
        progress("Searching...")
        report.figures += try measureSearch(store, baseline, folders: folders)
        progress("Running whole notetaker processes...")
        report.figures += try WholeProcessBenchmark(directory: directory, corpus: corpus, seed: seed, progress: progress)
            .run(largeStore: storeURL, largeBaseline: baseline.path)

        let memory = Clock.peakMemoryMB()
        report.figures.append(Figure(
            name: "peak memory, benchmark process", unit: "MB", noteTaker: memory, baseline: nil,
            budget: "<= 200 MB", meetsBudget: memory <= 200,
            note: "the whole benchmark: corpus generation, both stores, every measure"))
        return report
    }

    // MARK: - Corpus

    /// Imports the corpus into the store and the baseline, in batches; returns the folders
    /// and the milliseconds each took.
    func importCorpus(
        into store: NoteStore, _ baseline: Baseline, _ generator: inout SeededGenerator
    ) throws -> (folders: Folders, ours: Double, theirs: Double) {
        let folders = try makeFolders(store, baseline)
        progress("Importing \(noteCount) notes into NoteTaker and into the baseline...")
        var ours = 0.0
        var theirs = 0.0
        for start in stride(from: 0, to: noteCount, by: Self.batchSize) {
            let drafts = (start..<min(start + Self.batchSize, noteCount)).map { makeDraft($0, folders: folders, &generator) }
            ours += try Clock.milliseconds { _ = try store.importNotes(drafts, indexing: .deferred) }
            let rows = drafts.map(Self.baselineRow)
            theirs += try Clock.milliseconds { try baseline.insert(rows) }
            if start % 100_000 == 0, start > 0 { progress("  \(start) notes") }
        }
        // Searchable at the end, as `notetaker import` leaves it.
        ours += try Clock.milliseconds { try store.indexPendingNotes() }
        return (folders, ours, theirs)
    }

    struct Folders {
        var ids: [UUID]
        /// The first top-level folder and its subfolders, for the folder-filtered search.
        var filtered: UUID
        var filteredSubtree: [String]
    }

    private func makeFolders(_ store: NoteStore, _ baseline: Baseline) throws -> Folders {
        var ids: [UUID] = []
        var subtree: [String] = []
        for name in Self.folderNames {
            let top = try store.createFolder(name: name)
            try baseline.addFolder(id: top.id.uuidString, name: name, parentId: nil)
            ids.append(top.id)
            for index in 1...3 {
                let child = try store.createFolder(name: "\(name) \(index)", parentId: top.id)
                try baseline.addFolder(id: child.id.uuidString, name: child.name, parentId: top.id.uuidString)
                ids.append(child.id)
                if name == Self.folderNames[0] { subtree.append(child.id.uuidString) }
            }
            if name == Self.folderNames[0] { subtree.append(top.id.uuidString) }
        }
        return Folders(ids: ids, filtered: ids[0], filteredSubtree: subtree)
    }

    /// Note `index` of the corpus: dated over five years in import order, 70 % in a folder,
    /// 1 % pinned, zero to three tags drawn by Zipf's law; one in ten in Japanese or Chinese.
    func makeDraft(_ index: Int, folders: Folders, _ generator: inout SeededGenerator) -> NoteDraft {
        let span = 5 * 365 * 24 * 3600.0
        let created = Date().addingTimeInterval(-span + span * Double(index) / Double(noteCount))
        let modified = min(created.addingTimeInterval(generator.unit() * 30 * 24 * 3600), Date())
        let tagCount = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3][Int(generator.next() % 10)]
        let tags = (0..<tagCount).map { _ in Self.tagNames[min(Int(-log(max(generator.unit(), 1e-9)) * 6), 49)] }
        let cjk = prose.flatMap { generator.unit() < Self.cjkShare ? $0 : nil }
        return NoteDraft(
            title: cjk?.title(&generator) ?? corpus.title(&generator),
            body: cjk?.body(&generator) ?? corpus.body(&generator),
            isPinned: generator.next() % 100 == 0,
            folderId: generator.unit() < 0.7 ? folders.ids[Int(generator.next() % UInt64(folders.ids.count))] : nil,
            tags: tags, createdAt: created, modifiedAt: modified)
    }

    static func baselineRow(_ draft: NoteDraft) -> Baseline.Row {
        Baseline.Row(
            id: UUID().uuidString, title: draft.title, body: draft.body,
            createdAt: (draft.createdAt ?? Date()).timeIntervalSince1970,
            modifiedAt: (draft.modifiedAt ?? Date()).timeIntervalSince1970,
            isPinned: draft.isPinned, folderId: draft.folderId?.uuidString, tags: draft.tags)
    }
}
