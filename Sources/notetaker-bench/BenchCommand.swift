import ArgumentParser
import Foundation

/// `notetaker-bench`: measures DESIGN.md's budgets beside a plain-SQL baseline.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notetaker-bench",
        abstract: "Measure NoteTaker's performance budgets beside plain SQL doing the same work.",
        subcommands: [StoreSuite.self, SyncSuite.self, WebSuite.self, InterchangeSuite.self])
}

struct StoreSuite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "The local store: save, import, list, search, and whole `notetaker` processes.")

    @Option(help: "How many notes to generate.") var notes = 100_000
    @Option(help: "Repetitions of each search.") var repetitions = 10
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if notes < 1_000 { throw ValidationError("--notes must be at least 1000.") }
        if repetitions < 1 { throw ValidationError("--repetitions must be at least 1.") }
    }

    func run() async throws {
        try await common.withFolder { folder in
            let benchmark = StoreBenchmark(
                noteCount: notes, corpus: try common.corpus(), directory: folder, repetitions: repetitions,
                seed: common.seed, progress: CommonOptions.progress, prose: try CJKProse())
            try common.print(try benchmark.run())
        }
    }
}

struct SyncSuite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync: a first sync device → server → device, an edit's push latency, many devices at once.")

    @Option(help: "How many notes the first sync carries.") var notes = 100_000
    @Option(help: "How many accounts sync at once for the throughput measure.") var clients = 50
    @Option(help: "How many edits travel for the push latency.") var edits = 20
    @Option(help: "An empty PostgreSQL database (postgres://USER@HOST[:PORT]/DB): run two server nodes on it instead of one on SQLite.")
    var postgres: String?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if notes < 100 { throw ValidationError("--notes must be at least 100.") }
        if clients < 1 || edits < 1 { throw ValidationError("--clients and --edits must be at least 1.") }
    }

    func run() async throws {
        try await common.withFolder { folder in
            let benchmark = SyncBenchmark(
                noteCount: notes, clients: clients, edits: edits, corpus: try common.corpus(),
                directory: folder, seed: common.seed, postgres: postgres, progress: CommonOptions.progress)
            try common.print(try await benchmark.run())
        }
    }
}

struct WebSuite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "The web app: the list API's first page and the page loaded in headless Chromium.")

    @Option(help: "How many notes the store holds.") var notes = 100_000
    @Option(help: "How many list requests to time.") var requests = 200
    @Option(help: "How many page loads to time.") var pageLoads = 20
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if notes < 1_000 { throw ValidationError("--notes must be at least 1000.") }
        if requests < 1 || pageLoads < 1 { throw ValidationError("--requests and --page-loads must be at least 1.") }
    }

    func run() async throws {
        try await common.withFolder { folder in
            let store = StoreBenchmark(
                noteCount: notes, corpus: try common.corpus(), directory: folder, repetitions: 1, seed: common.seed,
                progress: CommonOptions.progress)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../scripts/bench-page.py").standardized
            try common.print(try await WebBenchmark(store: store, requests: requests, pageLoads: pageLoads, pageScript: script).run())
        }
    }
}

struct InterchangeSuite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interchange",
        abstract: "Import and export: JSON, Markdown, Evernote and PDF, as whole notetaker processes (rate, peak memory).")

    @Option(help: "How many notes the store holds.") var notes = 100_000
    @Option(help: "How many notes go into the PDF.") var pdfNotes = 1_000
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if notes < 100 || pdfNotes < 1 { throw ValidationError("--notes must be at least 100 and --pdf-notes at least 1.") }
    }

    func run() async throws {
        try await common.withFolder { folder in
            let store = StoreBenchmark(
                noteCount: notes, corpus: try common.corpus(), directory: folder, repetitions: 1, seed: common.seed,
                progress: CommonOptions.progress)
            try common.print(try InterchangeBenchmark(store: store, pdfNotes: min(pdfNotes, notes)).run())
        }
    }
}

/// Options every suite shares: the word list, the work folder, the seed, JSON output.
struct CommonOptions: ParsableArguments {
    @Option(help: "The word list to draw text from.") var words = "/usr/share/dict/words"
    @Option(help: "The folder for the stores (a temporary folder, removed after, by default).") var directory: String?
    @Option(help: "The random seed of the corpus.") var seed: UInt64 = 2026
    @Flag(help: "Print JSON instead of a table.") var json = false

    /// Runs `body` with the work folder, removing it after unless it was given.
    func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(at: folder) } }
        return try await body(folder)
    }

    /// The corpus of this run.
    func corpus() throws -> Corpus { try Corpus(wordList: words, seed: seed) }

    /// Prints the report as asked.
    func print(_ report: Report) throws {
        if json { try report.printJSON() } else { report.printText() }
    }

    /// Progress lines on standard error.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }
}
