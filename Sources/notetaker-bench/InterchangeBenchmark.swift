import Foundation
import GRDB
import NoteTakerKit

/// Import and export as a user runs them: whole `notetaker export` / `notetaker import`
/// processes on a store of N notes, with their rate and peak memory (GNU time). The baseline
/// does the same work with plain SQL: every row written out as JSON lines, and read back
/// into a fresh plain SQLite file with its FTS5 index.
struct InterchangeBenchmark {
    let store: StoreBenchmark
    /// The notes exported to PDF (a PDF of 100,000 notes is not a thing people print).
    let pdfNotes: Int

    func run() throws -> Report {
        var report = Report(suite: "interchange", notes: store.noteCount, machine: Report.machine())
        let directory = store.directory
        let storeURL = directory.appendingPathComponent("NoteTaker.sqlite")
        let source = try NoteStore.open(at: storeURL)
        let baseline = try Baseline(path: directory.appendingPathComponent("baseline.sqlite").path)
        var generator = SeededGenerator(seed: store.seed)
        _ = try store.importCorpus(into: source, baseline, &generator)
        let notetaker = try ProcessTiming.notetakerExecutable()
        let count = Double(store.noteCount)

        store.progress("Exporting and importing JSON...")
        let json = directory.appendingPathComponent("export-json")
        let exportJSON = try ProcessTiming.measure(notetaker, ["export", "--format", "json", "--out", json.path, "--store", storeURL.path])
        let baselineJSON = directory.appendingPathComponent("baseline.jsonl")
        let baselineExport = try Clock.milliseconds { try Self.baselineExport(baseline, to: baselineJSON) }
        report.figures.append(rate("export JSON", count, exportJSON.milliseconds, baselineExport, memory: exportJSON.peakMB))

        let imported = directory.appendingPathComponent("imported.sqlite")
        let importJSON = try ProcessTiming.measure(notetaker, ["import", json.path, "--store", imported.path])
        let reloaded = try Baseline(path: directory.appendingPathComponent("baseline-imported.sqlite").path)
        let baselineImport = try Clock.milliseconds { try Self.baselineImport(baselineJSON, into: reloaded) }
        report.figures.append(rate("import JSON into an empty store", count, importJSON.milliseconds, baselineImport, memory: importJSON.peakMB))

        store.progress("Exporting and importing Markdown...")
        let markdown = directory.appendingPathComponent("export-markdown")
        let exportMarkdown = try ProcessTiming.measure(notetaker, ["export", "--format", "markdown", "--out", markdown.path, "--store", storeURL.path])
        report.figures.append(rate("export Markdown (a file per note)", count, exportMarkdown.milliseconds, baselineExport, memory: exportMarkdown.peakMB))
        let importMarkdown = try ProcessTiming.measure(
            notetaker, ["import", markdown.path, "--store", directory.appendingPathComponent("from-markdown.sqlite").path])
        report.figures.append(rate("import Markdown folder", count, importMarkdown.milliseconds, baselineImport, memory: importMarkdown.peakMB))

        store.progress("Importing Evernote...")
        let enex = directory.appendingPathComponent("notes.enex")
        try Self.writeENEX(of: source, to: enex)
        let importENEX = try ProcessTiming.measure(
            notetaker, ["import", enex.path, "--store", directory.appendingPathComponent("from-enex.sqlite").path])
        report.figures.append(rate("import Evernote .enex", count, importENEX.milliseconds, baselineImport, memory: importENEX.peakMB))

        store.progress("Importing an Obsidian-style vault of 10,000 notes with 3 links each...")
        let vault = directory.appendingPathComponent("vault")
        let linksWritten = try Self.writeVault(notes: 10_000, linksPerNote: 3, corpus: store.corpus, generator: &generator, to: vault)
        let vaultStore = directory.appendingPathComponent("from-vault.sqlite")
        let importVault = try ProcessTiming.measure(notetaker, ["import", vault.path, "--store", vaultStore.path])
        let linksKept = try DatabaseQueue(path: vaultStore.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_link") ?? 0 }
        var vaultFigure = rate("import an Obsidian vault, 10,000 notes", 10_000, importVault.milliseconds, nil, memory: importVault.peakMB)
        vaultFigure.note = "whole `notetaker` process; 3 [[links]] a note to other notes by title: \(linksKept) of \(linksWritten) distinct links kept as links by id"
        report.figures.append(vaultFigure)

        store.progress("Importing a Google Keep Takeout of 10,000 notes...")
        let takeout = directory.appendingPathComponent("takeout-keep.zip")
        try KeepTakeout.write(notes: 10_000, corpus: store.corpus, generator: &generator, to: takeout)
        report.figures.append(try exportImport(
            "import a Google Keep Takeout, 10,000 notes", of: takeout, with: notetaker,
            about: "a deflated Takeout .zip read in place (JSON and HTML per note, a picture per 50 notes)"))

        store.progress("Importing a Joplin export (.jex) of 10,000 notes...")
        let jex = directory.appendingPathComponent("joplin.jex")
        try JoplinExport.write(notes: 10_000, corpus: store.corpus, generator: &generator, to: jex)
        report.figures.append(try exportImport(
            "import a Joplin export (.jex), 10,000 notes", of: jex, with: notetaker,
            about: "a .jex tar read in place (40 notebooks, tags, to-dos, links between notes, a picture per 50 notes)"))

        store.progress("Exporting PDF...")
        let pdfStore = directory.appendingPathComponent("pdf.sqlite")
        let small = try NoteStore.open(at: pdfStore)
        try source.forEachNote(in: NoteSelection()) { notes throws(NoteTakerError) in
            guard try small.statistics().notes < pdfNotes else { return }
            _ = try small.importNotes(notes.prefix(pdfNotes).map { NoteDraft(title: $0.title, body: $0.body, id: $0.id) })
        }
        let pdf = try ProcessTiming.measure(notetaker, ["export", "--format", "pdf", "--out", directory.appendingPathComponent("notes.pdf").path, "--store", pdfStore.path])
        report.figures.append(rate("export PDF (\(pdfNotes) notes)", Double(pdfNotes), pdf.milliseconds, nil, memory: pdf.peakMB))
        return report
    }

    /// The figure of `notetaker import` reading another app's 10,000-note export at `file` into
    /// a new store; `about` says what the export holds.
    private func exportImport(_ name: String, of file: URL, with notetaker: URL, about: String) throws -> Figure {
        let target = store.directory.appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".sqlite")
        let timing = try ProcessTiming.measure(notetaker, ["import", file.path, "--store", target.path])
        var figure = rate(name, 10_000, timing.milliseconds, nil, memory: timing.peakMB)
        figure.note = "whole `notetaker` process on \(about); budget: >= 2,500 notes/s, peak <= 200 MB"
        return figure
    }

    private func rate(_ name: String, _ notes: Double, _ ours: Double, _ theirs: Double?, memory: Double?) -> Figure {
        Figure(
            name: name, unit: "notes/s", noteTaker: notes / ours * 1_000, baseline: theirs.map { notes / $0 * 1_000 },
            budget: memory.map { String(format: "peak %.0f MB", $0) } ?? "-", meetsBudget: memory.map { $0 <= 200 },
            note: "whole `notetaker` process; budget column: its peak memory (<= 200 MB)")
    }

    /// A vault as Obsidian keeps one: a folder per few hundred notes, each note linking to
    /// `linksPerNote` others by title (`[[Title]]`, some with an alias or a heading). Returns
    /// how many distinct links between notes it wrote.
    static func writeVault(notes: Int, linksPerNote: Int, corpus: Corpus, generator: inout SeededGenerator, to folder: URL) throws -> Int {
        let titles = (0..<notes).map { "\(corpus.title(&generator)) \($0)" }
        var distinct = 0
        for (index, title) in titles.enumerated() {
            var targets = Set<Int>()
            while targets.count < linksPerNote { targets.insert(Int(generator.next() % UInt64(notes))) }
            targets.remove(index)
            distinct += targets.count
            let links = targets.sorted().enumerated().map { position, target in
                position == 1 ? "[[\(titles[target])|that note]]" : position == 2 ? "[[\(titles[target])#Notes]]" : "[[\(titles[target])]]"
            }
            let body = "\(corpus.body(&generator))\n\nSee \(links.joined(separator: ", ")).\n"
            let subfolder = folder.appendingPathComponent("Area \(index / 500)", isDirectory: true)
            try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
            try Data(body.utf8).write(to: subfolder.appendingPathComponent("\(title).md"))
        }
        return distinct
    }

    /// Plain SQL: every row, written as a JSON line.
    static func baselineExport(_ baseline: Baseline, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try baseline.queue.read { db in
            let rows = try GRDB.Row.fetchCursor(db, sql: "SELECT id, title, body, createdAt, modifiedAt, isPinned, folderId, tagNames FROM note")
            var buffer = Data()
            while let row = try rows.next() {
                let object: [String: Any] = [
                    "id": row["id"] as String, "title": row["title"] as String, "body": row["body"] as String,
                    "createdAt": row["createdAt"] as Double, "modifiedAt": row["modifiedAt"] as Double,
                    "isPinned": row["isPinned"] as Bool, "folderId": (row["folderId"] as String?) ?? NSNull(),
                    "tagNames": row["tagNames"] as String,
                ]
                buffer.append(try JSONSerialization.data(withJSONObject: object))
                buffer.append(UInt8(ascii: "\n"))
                if buffer.count > 1 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: buffer)
        }
    }

    /// Plain SQL: the JSON lines read back into a fresh file, in batches of 5,000 rows.
    static func baselineImport(_ file: URL, into baseline: Baseline) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        var rows: [Baseline.Row] = []
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            rows.append(Baseline.Row(
                id: object["id"] as? String ?? "", title: object["title"] as? String ?? "", body: object["body"] as? String ?? "",
                createdAt: object["createdAt"] as? Double ?? 0, modifiedAt: object["modifiedAt"] as? Double ?? 0,
                isPinned: object["isPinned"] as? Bool ?? false, folderId: object["folderId"] as? String,
                tags: (object["tagNames"] as? String ?? "").split(separator: " ").map(String.init)))
            if rows.count == 5_000 {
                try baseline.insert(rows)
                rows = []
            }
        }
        try baseline.insert(rows)
    }

    /// The store's notes as an Evernote export (paragraphs as `<div>`s, tags, dates).
    static func writeENEX(of store: NoteStore, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<en-export application=\"Evernote\">\n".utf8))
        try store.forEachNote(in: NoteSelection()) { notes throws(NoteTakerError) in
            var chunk = ""
            for note in notes {
                let paragraphs = note.body.components(separatedBy: "\n\n").map { "<div>\(escape($0))</div>" }.joined()
                chunk += "<note><title>\(escape(note.title))</title><content><![CDATA[<en-note>\(paragraphs)</en-note>]]></content>"
                    + "<created>20231015T083000Z</created>" + note.tags.map { "<tag>\(escape($0))</tag>" }.joined() + "</note>\n"
            }
            do { try handle.write(contentsOf: Data(chunk.utf8)) } catch { throw NoteTakerError.fileWriteFailed(path: file.path, reason: "\(error)") }
        }
        try handle.write(contentsOf: Data("</en-export>\n".utf8))
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
