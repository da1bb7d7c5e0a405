import Foundation
import GRDB
import NoteTakerKit
import NoteTakerSync

/// The first sync, beside `notetaker import` of the same notes' JSON export.
///
/// Measured in rounds: each round copies the first device's store as it rests on disk,
/// syncs it up on an account of its own, down to a new device, and imports the export into
/// an empty store, each a whole process. The figures are the rounds' medians, every round
/// listed: one process of ten seconds on this shared machine varies by a third from one
/// run to the next (the same binary has sent the notes in 3.8 and in 5.3 s), more than the
/// margin a budget leaves, and alternating the two measures exposes both to the same
/// moments of the machine.
extension SyncBenchmark {
    /// How many rounds the first sync and the import are measured in.
    static let firstSyncRounds = 3

    /// One round's times (seconds) and peak memory (MB, where GNU time is installed).
    struct FirstSyncRound {
        var up: Double
        var down: Double
        var importing: Double
        var memory: [Double]

        var total: Double { up + down }
        var ratio: Double { total / importing }
    }

    /// Device → server → device, each a whole `notetaker sync` process, timed with its
    /// peak memory, beside the import; and plain SQL moving the same rows as JSON records
    /// into a server table and out into a plain note table with its FTS5 index.
    func measureFirstSync(_ first: NoteStore, url: URL) async throws -> [Figure] {
        guard let source = first.databaseURL else { throw BenchFailure("the first device's store has no file") }
        let notetaker = try ProcessTiming.notetakerExecutable()
        let resting = try restingCopy(of: source)
        let export = directory.appendingPathComponent("first-export")
        _ = try ProcessTiming.run(notetaker, ["export", "--format", "json", "--out", export.path, "--store", resting.path])
        var rounds: [FirstSyncRound] = []
        for round in 1...Self.firstSyncRounds {
            progress("First sync, round \(round) of \(Self.firstSyncRounds): up from the first device, down to the second, and the import...")
            rounds.append(try await firstSyncRound(round, from: resting, export: export, url: url))
        }
        progress("Plain SQL baseline of the same transfer...")
        let baseline = try Clock.milliseconds { try baselineTransfer(from: first) }
        let total = Clock.percentile(rounds.map(\.total), 0.5)
        let ratio = Clock.percentile(rounds.map(\.ratio), 0.5)
        let memory = rounds.flatMap(\.memory)
        func list(_ format: (FirstSyncRound) -> String) -> String { rounds.map(format).joined(separator: "; ") }
        return [
            Figure(
                name: "first sync of \(noteCount) notes, device → server → device", unit: "s",
                noteTaker: total, baseline: baseline / 1_000, budget: "<= 20 s", meetsBudget: total <= 20,
                note: "median of \(rounds.count) rounds (" + list { String(format: "%.1f s: up %.1f, down %.1f", $0.total, $0.up, $0.down) }
                    + "), each a `notetaker sync` process; baseline: the same rows as JSON through a plain records table into a plain FTS5 table, no HTTP"),
            Figure(
                name: "first sync ÷ `notetaker import` of the same notes' JSON export", unit: "×",
                noteTaker: ratio, baseline: nil, budget: "<= 1.5", meetsBudget: ratio <= 1.5,
                note: "median of the rounds' ratios (" + list { String(format: "%.2f×, import %.1f s", $0.ratio, $0.importing) }
                    + "); the import, a whole process into an empty store"),
        ] + (memory.count < 2 * rounds.count ? [] : [
            Figure(
                name: "peak memory, device process (first sync)", unit: "MB", noteTaker: memory.max() ?? 0, baseline: nil,
                budget: "<= 200 MB", meetsBudget: memory.allSatisfy { $0 <= 200 },
                note: String(format: "`notetaker sync` sending %d notes: at most %.0f MB; receiving them: at most %.0f MB (GNU time, every round)",
                             noteCount, rounds.map { $0.memory[0] }.max() ?? 0, rounds.map { $0.memory[1] }.max() ?? 0)),
        ])
    }

    /// A copy of the store at `source` as it rests on disk, its log folded in: what every
    /// round starts from.
    func restingCopy(of source: URL, named name: String = "first-at-rest.sqlite") throws -> URL {
        try DatabaseQueue(path: source.path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let copy = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: copy)
        return copy
    }

    /// One round on a fresh account: the resting store synced up, a new device synced down,
    /// the export imported into an empty store. The round's stores are removed after it.
    private func firstSyncRound(_ round: Int, from resting: URL, export: URL, url: URL) async throws -> FirstSyncRound {
        let notetaker = try ProcessTiming.notetakerExecutable()
        let folder = directory.appendingPathComponent("first-sync-\(round)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let username = "first-sync-\(round)"
        _ = try await HTTPSyncTransport(server: url, token: nil).register(username: username, password: Self.password)
        var runs: [(milliseconds: Double, peakMB: Double?)] = []
        for device in ["first", "second"] {
            let path = folder.appendingPathComponent("\(device)/NoteTaker.sqlite")
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            if device == "first" { try FileManager.default.copyItem(at: resting, to: path) }
            try await NoteStore.open(at: path)
                .connectSyncAccount(server: url, username: username, password: Self.password, register: false, allowInsecure: false)
            runs.append(try ProcessTiming.measure(notetaker, ["sync", "--store", path.path]))
        }
        let received = try NoteStore.open(at: folder.appendingPathComponent("second/NoteTaker.sqlite")).statistics().notes
        guard received == noteCount else {
            throw BenchFailure("The second device received \(received) of \(noteCount) notes in round \(round).")
        }
        let importing = try ProcessTiming.run(notetaker, ["import", export.path, "--store", folder.appendingPathComponent("imported/NoteTaker.sqlite").path])
        return FirstSyncRound(up: runs[0].milliseconds / 1_000, down: runs[1].milliseconds / 1_000, importing: importing / 1_000,
                              memory: runs.compactMap(\.peakMB))
    }
}
