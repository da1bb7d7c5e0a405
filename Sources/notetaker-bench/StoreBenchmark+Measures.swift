import Foundation
import GRDB
import NoteTakerKit

extension StoreBenchmark {
    /// Saving one note (create, then edit), each committed on its own.
    func measureSaves(_ store: NoteStore, _ baseline: Baseline, folders: Folders, _ generator: inout SeededGenerator) throws -> [Figure] {
        let count = 300
        var creates: [Double] = []
        var baselineCreates: [Double] = []
        for index in 0..<count {
            let draft = makeDraft(noteCount + index, folders: folders, &generator)
            creates.append(try Clock.milliseconds { _ = try store.createNote(draft) })
            let row = Self.baselineRow(draft)
            baselineCreates.append(try Clock.milliseconds { try baseline.insert([row]) })
        }
        let ours = try store.notes(NoteQuery(limit: count, offset: 1_000)).map(\.id)
        let theirs = try baseline.queue.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM note LIMIT ? OFFSET 1000", arguments: [count])
        }
        var edits: [Double] = []
        var baselineEdits: [Double] = []
        for (id, baselineId) in zip(ours, theirs) {
            let body = corpus.body(&generator)
            edits.append(try Clock.milliseconds { _ = try store.updateNote(id: id, body: body) })
            baselineEdits.append(try Clock.milliseconds {
                try baseline.update(id: baselineId, body: body, modifiedAt: Date().timeIntervalSince1970)
            })
        }
        return [
            timeFigure("save one new note, p50", creates, baselineCreates, 0.5, at: 0.5),
            timeFigure("save one edit, p50", edits, baselineEdits, 0.5, at: 0.5),
        ]
    }

    /// The list's first page, and a page halfway down.
    func measureLists(_ store: NoteStore, _ baseline: Baseline) throws -> [Figure] {
        var first: [Double] = []
        var baselineFirst: [Double] = []
        for _ in 0..<300 {
            first.append(try Clock.milliseconds { _ = try store.notes() })
            baselineFirst.append(try Clock.milliseconds { _ = try baseline.firstPage() })
        }
        var deep: [Double] = []
        var baselineDeep: [Double] = []
        for _ in 0..<20 {
            deep.append(try Clock.milliseconds { _ = try store.notes(NoteQuery(offset: noteCount / 2)) })
            baselineDeep.append(try Clock.milliseconds { _ = try baseline.firstPage(offset: noteCount / 2) })
        }
        return [
            timeFigure("list, first page of 50, p50", first, baselineFirst, 1, at: 0.5),
            timeFigure("list, page at offset \(noteCount / 2), p50", deep, baselineDeep, nil, at: 0.5),
        ]
    }

    /// The fixed query set, top 50 with snippets: p50 and p99 over every run of every query,
    /// and each query's median.
    func measureSearch(_ store: NoteStore, _ baseline: Baseline, folders: Folders) throws -> [Figure] {
        let commonTag = "tag1"
        let queries = BenchQuery.set(for: corpus, commonTag: commonTag)
        let baselineRepetitions = min(repetitions, 3)
        var all: [Double] = []
        var baselineAll: [Double] = []
        var perQuery: [Figure] = []
        for query in queries {
            let search = SearchQuery(
                query.text, tag: query.tag, folderId: query.inFolder ? folders.filtered : nil, pinnedOnly: query.pinned)
            let samples = try (0..<repetitions).map { _ in try Clock.milliseconds { _ = try store.search(search) } }
            let baselineSamples = try (0..<baselineRepetitions).map { _ in
                try Clock.milliseconds { _ = try baseline.search(query, folderIds: folders.filteredSubtree) }
            }
            all += samples
            baselineAll += baselineSamples
            let hits = try store.search(search).count
            perQuery.append(Figure(
                name: "  search: \(query.kind), p50", unit: "ms", noteTaker: Clock.percentile(samples, 0.5),
                baseline: Clock.percentile(baselineSamples, 0.5), budget: "", meetsBudget: nil,
                note: hits < 50 ? "\(hits) hits" : nil))
        }
        return [
            timeFigure("search top 50 + snippets, p50", all, baselineAll, 10, at: 0.5),
            timeFigure("search top 50 + snippets, p99", all, baselineAll, 20, at: 0.99),
        ] + perQuery + (try measureSubstringSearch(store, baseline))
    }

    /// `search --contains`: text inside words, from common (the page fills at once) to found
    /// nowhere (every note read); the baseline runs the same scan as one plain LIKE query.
    func measureSubstringSearch(_ store: NoteStore, _ baseline: Baseline) throws -> [Figure] {
        let words = corpus.words
        let texts = [String(words[9].dropFirst().prefix(3)), String(words[999].dropFirst().prefix(4)), "ファイル", "qzxjv"]
        var all: [Double] = []
        var baselineAll: [Double] = []
        for text in texts {
            let query = SearchQuery(text, matchesSubstring: true)
            all += try (0..<repetitions).map { _ in try Clock.milliseconds { _ = try store.search(query) } }
            baselineAll += try (0..<min(repetitions, 3)).map { _ in try Clock.milliseconds { _ = try baseline.scan(containing: text) } }
        }
        return [timeFigure("search --contains (\(texts.joined(separator: ", "))), p99", all, baselineAll, 200, at: 0.99)]
    }

    /// A time figure at a percentile, with its budget in milliseconds when there is one.
    func timeFigure(_ name: String, _ samples: [Double], _ baseline: [Double], _ budget: Double?, at fraction: Double) -> Figure {
        let value = Clock.percentile(samples, fraction)
        return Figure(
            name: name, unit: "ms", noteTaker: value, baseline: Clock.percentile(baseline, fraction),
            budget: budget.map { "<= \($0.formatted()) ms" } ?? "", meetsBudget: budget.map { value <= $0 })
    }
}
