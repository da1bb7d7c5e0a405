import Foundation
import GRDB
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol

/// A shared folder of every note, accepted by a member and brought down whole, beside a new
/// device of the owner's own account bringing the same notes down from its private zone (both
/// end-to-end encrypted, in this process, alternating): the cost of a zone's members records,
/// key boxes, signatures and checks over the first sync it is (docs/sharing.md §3.6, §4).
extension SyncBenchmark {
    /// How many rounds of each kind.
    static let sharedRounds = 2

    func measureSharedAcceptance(_ first: NoteStore, url: URL) async throws -> [Figure] {
        guard let source = first.databaseURL else { throw BenchFailure("the first device's store has no file") }
        let resting = try restingCopy(of: source, named: "shared-at-rest.sqlite")
        var accepted: [Double] = []
        var own: [Double] = []
        for round in 1...Self.sharedRounds {
            progress("A share of \(noteCount) notes accepted, and the same notes on a new device of their owner, round \(round) of \(Self.sharedRounds)...")
            let (share, firstSync) = try await sharedRound(round, from: resting, url: url)
            accepted.append(share)
            own.append(firstSync)
        }
        let (share, baseline) = (Clock.percentile(accepted, 0.5), Clock.percentile(own, 0.5))
        let listed = { (values: [Double]) in values.map { String(format: "%.1f", $0) }.joined(separator: ", ") }
        return [Figure(
            name: "a share of \(noteCount) notes accepted and whole on a member's device", unit: "s",
            noteTaker: share, baseline: baseline, budget: "<= 1.5× baseline", meetsBudget: share <= 1.5 * baseline,
            note: "median of \(Self.sharedRounds) (\(listed(accepted)) s): checking the members record, opening the key, accepting, then every record fetched, checked against its writer's signature and applied, every file; baseline: a new device of the owner's account bringing the same notes down from its private zone, end-to-end encrypted (\(listed(own)) s)")]
    }

    /// One round: an owner whose notes are all in one folder syncs them up, shares the folder
    /// with a member (its notes move into the zone and go up sealed for it), and the member
    /// accepts (timed); then a new device of the owner syncs its private zone down (timed),
    /// after the same notes went up there from a copy of the resting store.
    private func sharedRound(_ round: Int, from resting: URL, url: URL) async throws -> (share: Double, firstSync: Double) {
        let folder = directory.appendingPathComponent("shared-\(round)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func device(_ name: String, _ account: String, from copy: URL? = nil, registering: Bool = true) async throws -> NoteStore {
            let path = folder.appendingPathComponent(name).appendingPathComponent("NoteTaker.sqlite")
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            if let copy { try FileManager.default.copyItem(at: copy, to: path) }
            let store = try NoteStore.open(at: path)
            if registering {
                _ = try await store.registerEncryptedSyncAccount(server: url, username: account, password: Self.password, allowInsecure: false)
            } else {
                _ = try await store.logInToSyncAccount(server: url, username: account, password: Self.password, allowInsecure: false,
                                                        allowingUnencrypted: false)
            }
            return store
        }
        // The owner's notes, every one in one folder.
        let filed = folder.appendingPathComponent("filed.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: resting, to: filed)
        let root = UUID()
        try await DatabaseQueue(path: filed.path).write { db in
            let now = Date().timeIntervalSince1970
            try db.execute(sql: "INSERT INTO folder (id, name, sortOrder, createdAt, modifiedAt) VALUES (?, 'Shared', 0, ?, ?)",
                           arguments: [root.uuidString.lowercased(), now, now])
            try db.execute(sql: "UPDATE folder SET parentId = ? WHERE parentId IS NULL AND id != ?", arguments: [root.uuidString.lowercased(), root.uuidString.lowercased()])
            try db.execute(sql: "UPDATE note SET folderId = ? WHERE folderId IS NULL", arguments: [root.uuidString.lowercased()])
        }
        let owner = try await device("owner", "owner-\(round)", from: filed)
        let member = try await device("member", "member-\(round)")
        try await owner.syncEngine(transport: try owner.syncTransport()).sync()
        let shared = try await owner.shareFolder(root, with: [("member-\(round)", .editor)])
        _ = try shared.result.get()

        var start = ContinuousClock.now
        let acceptance = try await member.acceptShare(shared.zone.zone)
        let share = Clock.milliseconds(since: start) / 1_000
        _ = try acceptance.result.get()
        let received = try member.sharedZoneStore(shared.zone.zone).statistics().notes
        guard received == noteCount else { throw BenchFailure("The member received \(received) of \(noteCount) notes.") }

        let mine = try await device("mine", "mine-\(round)", from: resting)
        try await mine.syncEngine(transport: try mine.syncTransport()).sync()
        let second = try await device("second", "mine-\(round)", registering: false)
        start = ContinuousClock.now
        try await second.syncEngine(transport: try second.syncTransport()).sync()
        let firstSync = Clock.milliseconds(since: start) / 1_000
        guard try second.statistics().notes == noteCount else { throw BenchFailure("The owner's new device did not receive every note.") }
        return (share, firstSync)
    }
}
