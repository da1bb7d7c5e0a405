import Foundation
import GRDB
import NoteTakerKit
import NoteTakerSyncProtocol
import NoteTakerSync

/// The `sync` suite: a first sync of many notes from one device through a real server on a
/// loopback port to a second device; an edit's trip from one device to another over the
/// push channel; the server's throughput with many devices syncing at once.
struct SyncBenchmark {
    let noteCount: Int
    let clients: Int
    let edits: Int
    let corpus: Corpus
    let directory: URL
    let seed: UInt64
    /// An empty PostgreSQL database to run two server nodes on (`nil`: one node on SQLite).
    let postgres: String?
    let progress: (String) -> Void

    func run() async throws -> Report {
        var report = Report(suite: postgres == nil ? "sync" : "sync (PostgreSQL, two nodes)", notes: noteCount, machine: Report.machine())
        let storage = postgres.map { ["--database", $0] } ?? ["--data", directory.appendingPathComponent("server").path]
        var nodes: [ServerNode] = []
        for index in 0..<(postgres == nil ? 1 : 2) {
            nodes.append(try ServerNode.start(storage: storage, log: directory.appendingPathComponent("server-\(index).log")))
        }
        do {
            report = try await measure(into: report, urls: nodes.map(\.url))
        } catch {
            _ = nodes.map { try? $0.stop() }
            throw error
        }
        let serverMemory = try nodes.map { try $0.stop() }.max() ?? 0
        report.figures.append(Figure(
            name: "peak memory, server node process", unit: "MB", noteTaker: serverMemory, baseline: nil,
            budget: "<= 200 MB", meetsBudget: serverMemory <= 200,
            note: "a `notetaker-server` process through every measure above" + (nodes.count > 1 ? " (the larger of the two nodes)" : "")))
        let benchMemory = Clock.peakMemoryMB()
        report.figures.append(Figure(
            name: "peak memory, benchmark process", unit: "MB", noteTaker: benchMemory, baseline: nil, budget: "-", meetsBudget: nil,
            note: "the first device's notes written in-process, and the devices of the push and throughput measures"))
        return report
    }

    private func measure(into report: Report, urls: [URL]) async throws -> Report {
        var report = report
        let url = urls[0]
        progress("Writing \(noteCount) notes on the first device...")
        let first = try NoteStore.open(at: directory.appendingPathComponent("first/NoteTaker.sqlite"))
        try fill(first)
        report.figures += try await measureFirstSync(first, url: url)
        report.figures += try await measureSealedFirstSync(first, url: url)
        report.figures += try await measureSharedAcceptance(first, url: url)
        progress("Measuring an edit's trip between two watching devices...")
        let pushToken = try await HTTPSyncTransport(server: url, token: nil).register(username: "push", password: Self.password).token
        report.figures += try await measurePush(urls: urls, token: pushToken)
        progress("Measuring an edit's trip to \(Self.sharedPushMembers) members of a share...")
        report.figures += try await measureSharedPush(url: url)
        progress("Syncing \(clients) devices at once...")
        report.figures.append(try await measureConcurrentClients(urls: urls))
        return report
    }

    static let password = "benchmark password"

    private func fill(_ store: NoteStore) throws {
        let folderIds = try (0..<8).map { try store.createFolder(name: "Folder \($0)").id }
        let folders = StoreBenchmark.Folders(ids: folderIds, filtered: folderIds[0], filteredSubtree: [])
        let shaper = StoreBenchmark(noteCount: noteCount, corpus: corpus, directory: directory, repetitions: 1, seed: seed, progress: { _ in })
        var generator = SeededGenerator(seed: seed)
        for start in stride(from: 0, to: noteCount, by: 5_000) {
            let drafts = (start..<min(start + 5_000, noteCount)).map { shaper.makeDraft($0, folders: folders, &generator) }
            _ = try store.importNotes(drafts)
        }
    }

    /// Plain SQL moving the first device's notes as JSON records into a server table and out
    /// into a plain note table with its FTS5 index: the first sync's baseline.
    func baselineTransfer(from first: NoteStore) throws {
        guard let source = first.databaseURL?.path else { return }
        let reader = try DatabaseQueue(path: source)
        let serverFile = try DatabaseQueue(path: directory.appendingPathComponent("baseline-server.sqlite").path)
        try serverFile.write { db in
            try db.execute(sql: "CREATE TABLE record (id TEXT PRIMARY KEY, seq INTEGER, fields TEXT)")
        }
        let target = try Baseline(path: directory.appendingPathComponent("baseline-second.sqlite").path)
        var offset = 0
        let encoder = JSONEncoder()
        while true {
            let rows = try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT id, title, body, createdAt, modifiedAt, isPinned, folderId FROM note LIMIT 200 OFFSET ?", arguments: [offset])
            }
            if rows.isEmpty { break }
            try serverFile.write { db in
                for row in rows {
                    let fields: [String: String?] = ["title": row["title"], "body": row["body"], "folderId": row["folderId"],
                                                     "createdAt": String(row["createdAt"] as Double), "modifiedAt": String(row["modifiedAt"] as Double)]
                    try db.execute(sql: "INSERT INTO record VALUES (?, ?, ?)", arguments: [row["id"], offset, String(decoding: try encoder.encode(fields), as: UTF8.self)])
                }
            }
            offset += rows.count
        }
        let decoder = JSONDecoder()
        var page = 0
        while true {
            let rows = try serverFile.read { db in
                try Row.fetchAll(db, sql: "SELECT id, fields FROM record ORDER BY rowid LIMIT 1000 OFFSET ?", arguments: [page * 1000])
            }
            if rows.isEmpty { break }
            try target.insert(try rows.map { row in
                let fields = try decoder.decode([String: String?].self, from: Data((row["fields"] as String).utf8))
                return Baseline.Row(
                    id: row["id"], title: (fields["title"] ?? "") ?? "", body: (fields["body"] ?? "") ?? "",
                    createdAt: Double((fields["createdAt"] ?? "0") ?? "0") ?? 0, modifiedAt: Double((fields["modifiedAt"] ?? "0") ?? "0") ?? 0,
                    isPinned: false, folderId: fields["folderId"] ?? nil, tags: [])
            })
            page += 1
        }
    }

    /// An edit made on one watching device until the other device's live query shows it
    /// (on an account of its own, so the devices do not first download the large corpus);
    /// with two nodes, each device talks to its own.
    private func measurePush(urls: [URL], token: String) async throws -> [Figure] {
        let stores = try (0..<2).map { _ in try NoteStore.inMemory() }
        let tasks = try stores.enumerated().map { index, store in
            let transport = try HTTPSyncTransport(server: urls[index % urls.count], token: token)
            let watcher = SyncWatcher(engine: SyncEngine(store: store, transport: transport), store: store, transport: transport, pollInterval: .seconds(3600))
            return Task { await watcher.run() }
        }
        defer { tasks.forEach { $0.cancel() } }
        let note = try stores[0].createNote(NoteDraft(title: "Travelling note", body: "0"))
        _ = try await Self.firstValue(stores[1].observeNote(id: note.id)) { $0 != nil }
        var samples: [Double] = []
        for index in 1...edits {
            let body = "edit \(index)"
            let start = ContinuousClock.now
            _ = try stores[0].updateNote(id: note.id, body: body)
            _ = try await Self.firstValue(stores[1].observeNote(id: note.id)) { $0?.body == body }
            samples.append(Clock.milliseconds(since: start))
        }
        let median = Clock.percentile(samples, 0.5)
        return [
            Figure(name: "edit visible on another device (push), p50", unit: "ms", noteTaker: median, baseline: nil,
                   budget: "-", meetsBudget: nil, note: "\(edits) edits, each seen through the other device's live query" + (urls.count > 1 ? ", the devices on different nodes" : "")),
            Figure(name: "edit visible on another device (push), p95", unit: "ms", noteTaker: Clock.percentile(samples, 0.95),
                   baseline: nil, budget: "<= 250 ms", meetsBudget: Clock.percentile(samples, 0.95) <= 250),
        ]
    }

    /// Many devices of many accounts syncing at once: records through the server per second.
    private func measureConcurrentClients(urls: [URL]) async throws -> Figure {
        let notesEach = 100
        var devices: [(NoteStore, SyncEngine)] = []
        for index in 0..<clients {
            let token = try await HTTPSyncTransport(server: urls[0], token: nil).register(username: "client\(index)", password: Self.password).token
            for device in 0..<2 {
                let store = try NoteStore.inMemory()
                let url = urls[(index + device) % urls.count]
                devices.append((store, SyncEngine(store: store, transport: try HTTPSyncTransport(server: url, token: token))))
            }
            var generator = SeededGenerator(seed: seed + UInt64(index))
            _ = try devices[devices.count - 2].0.importNotes((0..<notesEach).map { _ in
                NoteDraft(title: corpus.title(&generator), body: corpus.body(&generator))
            })
        }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (_, engine) in devices.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
                group.addTask { try await engine.sync() }
            }
            try await group.waitForAll()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (_, engine) in devices.enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                group.addTask { try await engine.sync() }
            }
            try await group.waitForAll()
        }
        let seconds = Clock.milliseconds(since: start) / 1_000
        let moved = Double(clients * notesEach * 2)
        return Figure(
            name: "server throughput, \(clients) accounts syncing at once", unit: "records/s",
            noteTaker: moved / seconds, baseline: nil, budget: "-", meetsBudget: nil,
            note: String(format: "%d devices pushed %d notes each, then %d more pulled them: %.1f s, through %d node(s)", clients, notesEach, clients, seconds, urls.count))
    }

    static func firstValue<Value: Sendable>(
        _ stream: AsyncThrowingStream<Value, any Error>, where condition: @escaping @Sendable (Value) -> Bool
    ) async throws -> Value? {
        for try await value in stream where condition(value) { return value }
        return nil
    }
}
