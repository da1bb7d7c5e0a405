import Foundation
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol
import Synchronization

/// An edit in a folder shared with 20 members, until every member's device has it (docs/sharing.md
/// §3.6): the owner's edit goes up through the zone's routes, the server's push channel tells
/// each member's device — a `notetaker sync --watch` process of its own, as a person's would
/// be — which syncs its shares and applies it, and says so on its output.
extension SyncBenchmark {
    /// How many members a share has in this measure (the budget is for 20).
    static let sharedPushMembers = 20

    func measureSharedPush(url: URL) async throws -> [Figure] {
        let folder = directory.appendingPathComponent("shared-push", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func device(_ account: String) async throws -> NoteStore {
            let path = folder.appendingPathComponent(account).appendingPathComponent("NoteTaker.sqlite")
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            let store = try NoteStore.open(at: path)
            _ = try await store.registerEncryptedSyncAccount(server: url, username: account, password: Self.password, allowInsecure: false)
            return store
        }
        let owner = try await device("share-owner")
        var members: [NoteStore] = []
        for index in 1...Self.sharedPushMembers { members.append(try await device("share-member-\(index)")) }
        let trip = try owner.createFolder(name: "Trip")
        let note = try owner.createNote(NoteDraft(title: "Travelling note", body: "0", folderId: trip.id))
        let invitees = (1...Self.sharedPushMembers).map { (account: "share-member-\($0)", role: ShareMembers.Role.editor) }
        let shared = try await owner.shareFolder(trip.id, with: invitees)
        _ = try shared.result.get()
        for member in members { _ = try await member.acceptShare(shared.zone.zone).result.get() }
        let ownerZone = try owner.sharedZoneStore(shared.zone.zone)
        let ownerTransport = try owner.syncTransport()

        let executable = try ProcessTiming.executable(named: "notetaker-full")
        let watching = try members.compactMap(\.databaseURL).map { try WatchingDevice(executable, store: $0) }
        defer { watching.forEach { $0.stop() } }
        // Edit 0 warms up: every member's device is running and has synced once.
        var samples: [Double] = []
        for index in 0...edits {
            let body = "edit \(index)"
            let start = ContinuousClock.now
            _ = try ownerZone.updateNote(id: note.id, body: body)
            _ = try await owner.syncShares(transport: ownerTransport)?.get()
            let times = try await withThrowingTaskGroup(of: Double.self) { group in
                for member in watching {
                    group.addTask {
                        let arrived = try await member.line(index + 1, within: .seconds(30))
                        return Clock.milliseconds(arrived - start)
                    }
                }
                return try await group.reduce(into: [Double]()) { $0.append($1) }
            }
            if index > 0 { samples += times }
        }
        let p95 = Clock.percentile(samples, 0.95)
        return [Figure(
            name: "edit in a share on every one of \(Self.sharedPushMembers) members' devices (push), p95", unit: "ms",
            noteTaker: p95, baseline: nil, budget: "<= 250 ms", meetsBudget: p95 <= 250,
            note: String(format: "%d edits by the owner, each from the edit until each member's `notetaker sync --watch` process said it synced the share: p50 %.0f ms, slowest %.0f ms",
                         edits, Clock.percentile(samples, 0.5), samples.max() ?? 0))]
    }
}

/// A member's device watching: `notetaker sync --watch` on its store, whose output lines (one
/// for each cycle of a share that received something) are timed as they arrive.
private final class WatchingDevice: Sendable {
    private let process: Process
    private let arrivals = Mutex<[ContinuousClock.Instant]>([])

    init(_ executable: URL, store: URL) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = ["--store", store.path, "sync", "--watch"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LANG": "C"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let now = ContinuousClock.now
            let newlines = handle.availableData.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            self?.arrivals.withLock { $0 += Array(repeating: now, count: newlines) }
        }
        try process.run()
    }

    /// When the device's `count`th line came; fails when it has not come within `limit`.
    func line(_ count: Int, within limit: Duration) async throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let arrived = arrivals.withLock({ $0.count >= count ? $0[count - 1] : nil }) { return arrived }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw BenchFailure("A member's device did not sync the edit within \(limit).")
    }

    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }
}
