import Foundation
import NoteTakerKit

/// `notetaker` as whole processes, as a user waits for them: `list` on the large store;
/// `new` and `search` on a store of 2,000 notes. The baseline is the `sqlite3` shell running
/// the same SQL.
struct WholeProcessBenchmark {
    let directory: URL
    let corpus: Corpus
    let seed: UInt64
    let progress: (String) -> Void

    private let runs = 20

    func run(largeStore: URL, largeBaseline: String) throws -> [Figure] {
        let notetaker = try ProcessTiming.notetakerExecutable()
        let sqlite = ProcessTiming.sqliteShell()
        var figures: [Figure] = []

        let listArguments = ["list", "--limit", "50", "--store", largeStore.path]
        let listSQL = "SELECT id, title, modifiedAt FROM note ORDER BY isPinned DESC, modifiedAt DESC LIMIT 50"
        figures.append(try measure("`notetaker list` process", notetaker, listArguments, sqlite, [largeBaseline, listSQL], 50))
        let searchLarge = ["search", corpus.words[0], "--store", largeStore.path]
        if let peak = try ProcessTiming.measure(notetaker, searchLarge).peakMB {
            figures.append(Figure(
                name: "peak memory, `notetaker search` process", unit: "MB", noteTaker: peak, baseline: nil,
                budget: "<= 200 MB", meetsBudget: peak <= 200, note: "the most common word, on the large store"))
        }

        progress("Preparing a store of 2,000 notes...")
        let small = directory.appendingPathComponent("small.sqlite")
        let smallStore = try NoteStore.open(at: small)
        let smallBaseline = try Baseline(path: directory.appendingPathComponent("small-baseline.sqlite").path)
        var generator = SeededGenerator(seed: seed &+ 1)
        let drafts = (0..<2_000).map { _ in NoteDraft(title: corpus.title(&generator), body: corpus.body(&generator)) }
        _ = try smallStore.importNotes(drafts)
        try smallBaseline.insert(drafts.map {
            Baseline.Row(id: UUID().uuidString, title: $0.title, body: $0.body, createdAt: 0, modifiedAt: 0,
                         isPinned: false, folderId: nil, tags: [])
        })

        let word = corpus.words[99]
        let newSQL = "INSERT INTO note (id, title, body, createdAt, modifiedAt, isPinned, tagNames) "
            + "VALUES (lower(hex(randomblob(16))), 'Benchmark', 'a new note', unixepoch(), unixepoch(), 0, '')"
        figures.append(try measure(
            "`notetaker new` process, 2,000 notes", notetaker, ["new", "Benchmark", "--body", "a new note", "--store", small.path],
            sqlite, [smallBaseline.path, newSQL], 10))
        let searchSQL = "SELECT rowid, snippet(note_fts, 1, '[', ']', '…', 16) FROM note_fts WHERE note_fts MATCH '\"\(word)\"' "
            + "ORDER BY bm25(note_fts, 10.0, 1.0, 5.0) LIMIT 50"
        figures.append(try measure(
            "`notetaker search` process, 2,000 notes", notetaker, ["search", word, "--store", small.path],
            sqlite, [smallBaseline.path, searchSQL], 10))
        return figures
    }

    private func measure(_ name: String, _ executable: URL, _ arguments: [String],
                         _ sqlite: URL?, _ sqliteArguments: [String], _ budget: Double) throws -> Figure {
        let samples = try (0..<runs).map { _ in try ProcessTiming.run(executable, arguments) }
        let baseline = try sqlite.map { shell in try (0..<runs).map { _ in try ProcessTiming.run(shell, sqliteArguments) } }
        let value = Clock.percentile(samples, 0.5)
        return Figure(
            name: name + ", p50 wall", unit: "ms", noteTaker: value, baseline: baseline.map { Clock.percentile($0, 0.5) },
            budget: "<= \(Int(budget)) ms", meetsBudget: value <= budget,
            note: sqlite == nil ? "no sqlite3 shell here for the baseline" : nil)
    }
}
