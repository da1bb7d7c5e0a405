import Foundation
import GRDB
import NoteTakerKit

extension StoreBenchmark {
    /// The history's cost: its bytes per version and its share of a store after 10 small edits
    /// per note, and reading the history of a note with 1,000 versions.
    func measureHistory(_ generator: inout SeededGenerator) throws -> [Figure] {
        let url = directory.appendingPathComponent("history.sqlite")
        let store = try NoteStore.open(at: url)
        // Every edit keeps a version here, as if each came minutes after the last.
        try store.setHistoryRetention(HistoryRetention(everyVersionDays: 7, dailyDays: 90, weeklyDays: nil, coalescingMinutes: 0))
        let folder = try store.createFolder(name: "Notes")
        let folders = Folders(ids: [folder.id], filtered: folder.id, filteredSubtree: [folder.id.key])
        let count = min(noteCount, 2_000)
        var notes: [Note] = []
        for start in stride(from: 0, to: count, by: 1_000) {
            let drafts = (start..<min(start + 1_000, count)).map { makeDraft($0, folders: folders, &generator) }
            let outcome = try store.importNotes(drafts)
            notes += try outcome.imported.map { try store.note(id: $0) }
        }
        try checkpoint(url)
        let sizeBefore = try fileSize(url)
        for _ in 0..<10 {
            for index in notes.indices {
                notes[index] = try store.updateNote(id: notes[index].id, body: smallEdit(of: notes[index].body, &generator))
            }
        }
        try checkpoint(url)
        let sizeAfter = try fileSize(url)
        let historyBytes = Double(try store.historyBytes())
        let versions = Double(notes.count * 10)

        let long = notes[0]
        var body = long.body
        for _ in 0..<1_000 {
            body = smallEdit(of: body, &generator)
            _ = try store.updateNote(id: long.id, body: body)
        }
        var reads: [Double] = []
        for _ in 0..<20 { reads.append(try Clock.milliseconds { _ = try store.history(noteId: long.id) }) }
        let share = historyBytes / Double(sizeAfter) * 100
        return [
            Figure(name: "history, bytes per version (10 small edits per note)", unit: "bytes", noteTaker: historyBytes / versions,
                   baseline: nil, budget: "", meetsBudget: nil,
                   note: "\(count) notes of the corpus, each edited 10 times (a sentence added or a word changed); each version is a delta against the next newer text"),
            Figure(name: "history, share of the store after 10 edits per note", unit: "%", noteTaker: share, baseline: nil,
                   budget: "<= 30 %", meetsBudget: share <= 30,
                   note: "store \(sizeBefore / 1_048_576) MB before the edits, \(sizeAfter / 1_048_576) MB after (the search index grows with every edit); history \(Int(historyBytes) / 1_024) kB"),
            Figure(name: "`history ID` of a note with 1,000 versions, p50", unit: "ms", noteTaker: Clock.percentile(reads, 0.5),
                   baseline: nil, budget: "", meetsBudget: nil, note: "every version's text rebuilt and its change summarized"),
        ]
    }

    /// A small edit, as people make them: a sentence added after a paragraph, or a word changed.
    private func smallEdit(of body: String, _ generator: inout SeededGenerator) -> String {
        var words = body.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if generator.next() % 2 == 0, !words.isEmpty {
            words[Int(generator.next() % UInt64(words.count))] = corpus.word(&generator)
            return words.joined(separator: " ")
        }
        let sentence = (0..<(6 + Int(generator.next() % 10))).map { _ in corpus.word(&generator) }.joined(separator: " ")
        return body + " " + sentence.capitalizingFirst + "."
    }

    private func checkpoint(_ url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    private func fileSize(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
