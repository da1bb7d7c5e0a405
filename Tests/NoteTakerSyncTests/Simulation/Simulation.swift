import Foundation
import GRDB
@testable import NoteTakerKit
import NoteTakerServerTestSupport
@testable import NoteTakerSync

/// A seeded run: devices doing random operations offline and syncing over a faulty
/// network (and a server that restarts, purges its tombstones, is backed up and is restored
/// from its backup), then healing and syncing to quiescence. Two oracles judge the end:
///
/// - every edit to a body adds a line with a unique token; afterwards each token must be in
///   some note (merged, or in a conflict copy), unless the device that deleted its note had
///   seen it;
/// - every other property is judged by the ``IntentLog``: what each device changed on
///   purpose, and what it had seen when it did.
///
/// And the history: a text that a sync replaced on a device is in that device's history of
/// the note, and at the end every version of every note on every device reads back whole.
/// On even seeds edits are not coalesced, and then every text a note ever had on a device is
/// in that device's history of it (unless the note left the device).
struct Simulation {
    let seed: UInt64
    let deviceCount: Int
    let steps: Int
    /// Whether the account has end-to-end encryption: every device seals and opens records.
    var sealed = false
    /// Whether the account starts without encryption and is converted midway (``SimulatedConversion``).
    var converting = false
    /// Whether the operator backs the server up and restores it far more often than in other
    /// runs (a server event one step in twelve, four in five of them a backup or a restore),
    /// so that most seeds heal a restored server, many more than once.
    var restoring = false

    struct Failure: Error, CustomStringConvertible {
        var seed: UInt64
        var problem: String
        var description: String {
            "seed \(seed): \(problem)\nReplay it with: scripts/simulate --from \(seed) --seeds 1 --trace"
        }
    }

    struct Outcome {
        var faults: Int
        var conflicts: Int
        var edits: Int
        var intents: Int
        /// How many times the server was restored from its backup.
        var restores: Int
        /// How many times a device rotated the account's keys (sealed and converting runs).
        var rotations = 0
        /// Devices that took up a conversion to encryption cut short, logging in (converting runs).
        var takenUp = 0
        /// How many kept versions the server replaced with versions sealed again after them.
        var resealed = 0
        /// Every step, as `--trace` prints it.
        var trace: [String]
    }

    typealias Devices = [(store: NoteStore, engine: SyncEngine)]

    /// Runs the seed; any error says its seed, and with `NOTETAKER_SIM_TRACE` every step.
    func run() async throws -> Outcome {
        var trace: [String] = []
        do {
            return try await run(trace: &trace)
        } catch {
            var failure = error as? Failure ?? Failure(seed: seed, problem: "\(error)")
            if ProcessInfo.processInfo.environment["NOTETAKER_SIM_TRACE"] != nil {
                failure.problem += "\n" + trace.joined(separator: "\n")
            }
            throw failure
        }
    }

    private func run(trace: inout [String]) async throws -> Outcome {
        var random = SeededGenerator(seed: seed)
        var serverEvents = SeededGenerator(seed: seed ^ 0xBAC_0BAC)
        var backedUp = false
        var restores = 0
        var rotations = 0
        let network = try await SimulatedNetwork(seed: seed)
        defer { Task { await network.removeFiles() } }
        // Sealed runs rotate the account's keys now and then, drawn apart from the steps.
        let keys = sealed ? try SimulatedKeys(devices: deviceCount) : nil
        let token = try await network.register(keys: await keys?.material)
        var conversion = converting ? try await SimulatedConversion(seed: seed, devices: deviceCount, network: network) : nil
        var devices: Devices = []
        var keyEvents = SeededGenerator(seed: seed ^ 0x6B65_7973)
        for index in 0..<deviceCount {
            // Ids and times follow from the seed, so that a run replays exactly.
            let store = try NoteStore.inMemory(sources: .seeded(seed &* 1_000 &+ UInt64(index)))
            if seed % 2 == 0 {
                try store.setHistoryRetention(HistoryRetention(everyVersionDays: 7, dailyDays: 90, weeklyDays: nil, coalescingMinutes: 0))
            }
            if conversion != nil {
                try store.setSyncAccount(serverURL: SimulatedConversion.server, username: "sim", allowInsecure: false)
            }
            let session = conversion?.tokens[index] ?? token
            devices.append((store, await engine(for: store, index: index, token: session, keys: keys, network: network)))
        }
        var operations = Operations(files: network.filesDirectory)
        var log = IntentLog(devices: deviceCount)
        var conflicts = 0

        var texts = TextsSeen(devices: deviceCount)
        for step in 0..<steps {
            let index = Int.random(in: 0..<deviceCount, using: &random)
            let device = devices[index]
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<25:
                if conversion?.staysLoggedOut(index) == true {
                    trace.append("\(step) d\(index + 1) is logged out")
                    break
                }
                if conversion?.loggedOut.contains(index) == true {
                    guard try await logIn(index, &conversion!, &devices, network: network, trace: &trace) else { break }
                }
                let rotating = conversion.map { $0.sealing.contains(index) } ?? true
                if let keys = keys ?? conversion?.keys, Int.random(in: 0..<30, using: &keyEvents) == 0, rotating {
                    let version = try await keys.rotate(index)
                    try device.store.queueResealing(keyVersion: version)
                    rotations += 1
                    trace.append("\(step) d\(index + 1) rotated the keys to version \(version)")
                }
                do {
                    let bodies = try Self.bodies(device.store)
                    let report = try await devices[index].engine.sync()
                    try checkKept(bodies, on: device.store, device: index, purged: operations.purged)
                    conflicts += report.conflicts
                    try noteSync(report, of: index, step: step, devices, &log)
                    trace.append("\(step) d\(index + 1) sync \(report)")
                    if report.errors == 0, conversion?.isDue(index, at: step) == true {
                        try await convert(index, &conversion!, &devices, network: network, trace: &trace)
                    }
                } catch let failure as Failure {
                    throw failure
                } catch SyncError.notLoggedIn where conversion != nil {
                    conversion?.endedSession(of: index)
                    trace.append("\(step) d\(index + 1) sync failed: its session ended")
                } catch {
                    trace.append("\(step) d\(index + 1) sync failed: \(error)")
                }
            case 25..<(restoring ? 33 : 27):
                // Some restarts are the operator's backups, and a later one may put the last
                // backup back (drawn apart from the steps, so that seeds found before restores
                // were simulated still replay as they did up to the first backup).
                let event = Int.random(in: 0..<10, using: &serverEvents)
                switch restoring ? event / 2 : event {
                case 0..<2:
                    try await network.backUp()
                    log.serverBackedUp()
                    backedUp = true
                    trace.append("\(step) server backed up")
                case 2..<4 where backedUp:
                    // A converting run forgets the backup taken before the conversion.
                    guard try await network.restoreBackup() else {
                        trace.append("\(step) server not restored: its backup was from before the conversion")
                        break
                    }
                    log.serverRestored()
                    restores += 1
                    trace.append("\(step) server restored from its backup")
                default:
                    try await network.restart()
                    trace.append("\(step) server restart")
                }
                // Every other restart comes months later: the server has purged every deletion,
                // and each device whose token is older lists everything to find them.
                if step % 2 == 0 { trace.append("\(step) \(try await network.purgeTombstones()) tombstones purged") }
            default:
                let before = try DeviceState.read(device.store)
                do {
                    let done = try operations.random(on: device.store, roll: roll, random: &random)
                    trace.append("\(step) d\(index + 1) \(done)")
                } catch is NoteTakerError {
                    trace.append("\(step) d\(index + 1) refused")
                }
                log.record(device: index, step: step, before: before, after: try DeviceState.read(device.store))
            }
            texts.record(try Self.bodies(device.store), on: index)
        }
        try await network.heal()
        if conversion != nil { try await completeConversion(&conversion!, &devices, network: network, log: &log, trace: &trace) }
        try await finish(devices, operations: operations, log: &log, conflicts: &conflicts, trace: &trace)
        if let keys = keys ?? conversion?.keys {
            let session = conversion?.tokens[0] ?? token
            try await checkKeptVersions(devices, network: network, token: session, keys: keys)
            if conversion != nil { try await checkConverted(network: network, token: session) }
        }
        if seed % 2 == 0 { try checkEveryText(texts, devices, purged: operations.purged) }
        return Outcome(faults: await network.faultsInjected, conflicts: conflicts, edits: operations.tokens, intents: log.writes.count,
                       restores: restores, rotations: rotations, takenUp: conversion?.takenUp ?? 0,
                       resealed: await network.resealedVersions, trace: trace)
    }

    /// After a sealed run: each rotating device finished sealing the kept versions again, and
    /// every version the server keeps opens with the account's keys.
    private func checkKeptVersions(_ devices: Devices, network: SimulatedNetwork, token: String, keys: SimulatedKeys) async throws {
        for (index, device) in devices.enumerated() where try device.store.resealingPass() != nil {
            throw Failure(seed: seed, problem: "device \(index + 1) did not finish sealing the server's kept versions again")
        }
        let sealing = await keys.sealing(of: 0, fromServer: true)
        for version in try await network.allKeptVersions(token: token) {
            guard case .success = sealing.open(version.fields, recordType: "note", recordId: version.recordId, seen: nil) else {
                throw Failure(seed: seed, problem: "version \(version.changeTag) of note \(version.recordId.key) on the server does not open")
            }
        }
    }

    /// Tells the oracle what a completed sync carried.
    private func noteSync(_ report: SyncReport, of index: Int, step: Int, _ devices: Devices, _ log: inout IntentLog) throws {
        guard report.errors == 0 else { return }
        let store = devices[index].store
        let held = try store.syncSummary().held.filter { ["note", "folder", "tag"].contains($0.recordType) }
        log.synced(device: index, pushedEverything: try store.pendingChanges().isEmpty,
                   holding: Set(held.map { RecordKey(type: $0.recordType, id: $0.recordId) }), step: step)
    }

    /// Settles the healed network and judges the end.
    private func finish(_ devices: Devices, operations: Operations,
                        log: inout IntentLog, conflicts: inout Int, trace: inout [String]) async throws {
        try await settle(devices, log: &log, trace: &trace)
        for (index, device) in devices.enumerated() {
            let failures = try device.store.syncSummary().failures
            if !failures.isEmpty { throw Failure(seed: seed, problem: "device \(index + 1): changes that never went up: \(failures)") }
        }
        let states = try devices.map { try Snapshot.take($0.store) }
        for (index, state) in states.enumerated().dropFirst() where state != states[0] {
            throw Failure(seed: seed, problem: "device \(index + 1) differs from device 1:\n\(states[0].difference(from: state))")
        }
        try checkTokens(states[0], issued: operations.tokens, forgiven: operations.forgiven)
        for (index, device) in devices.enumerated() {
            for id in try Self.bodies(device.store).keys {
                let versions: [NoteVersion]
                do {
                    versions = try device.store.history(noteId: id, withBodies: true)
                } catch {
                    throw Failure(seed: seed, problem: "device \(index + 1) cannot read the history of note \(id.key): \(error)")
                }
                if let broken = versions.first(where: { $0.body?.utf8.count != $0.bodySize }) {
                    throw Failure(seed: seed, problem: "device \(index + 1): version \(broken.id) of note \(id.key) reads back with another size")
                }
            }
        }
        let problems = log.problems(in: try DeviceState.read(devices[0].store))
        if !problems.isEmpty {
            throw Failure(seed: seed, problem: "\(problems.count) changes not honoured:\n" + problems.joined(separator: "\n"))
        }
        for (store, _) in devices {
            conflicts += try store.conflicts().count
        }
    }

    /// The texts each note had on each device, as the steps saw them.
    struct TextsSeen {
        var seen: [[UUID: Set<String>]]

        init(devices: Int) {
            seen = Array(repeating: [:], count: devices)
        }

        /// Notes that left the device start afresh if they come back (their history went).
        mutating func record(_ bodies: [UUID: String], on device: Int) {
            seen[device] = seen[device].filter { bodies[$0.key] != nil }
            for (id, body) in bodies { seen[device][id, default: []].insert(body) }
        }
    }

    /// With edits not coalesced, every text a note had on a device is its text now or in its
    /// history there — but for notes some device purged (the purge takes their history, and
    /// an edit winning over it brings the note back without).
    private func checkEveryText(_ texts: TextsSeen, _ devices: Devices, purged: Set<UUID>) throws {
        for (index, device) in devices.enumerated() {
            let now = try Self.bodies(device.store)
            for (id, bodies) in texts.seen[index] where !purged.contains(id) {
                guard let current = now[id] else { continue }
                let kept = Set(try device.store.history(noteId: id, withBodies: true).compactMap(\.body)).union([current])
                if let lost = bodies.subtracting(kept).first {
                    throw Failure(seed: seed, problem: "device \(index + 1): note \(id.key) once held a text its history does not: \(lost.debugDescription)")
                }
            }
        }
    }

    /// Every note's body on a device.
    static func bodies(_ store: NoteStore) throws -> [UUID: String] {
        try store.read { db in
            var bodies: [UUID: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, body FROM note") {
                if let id = row.uuid("id") { bodies[id] = row["body"] }
            }
            return bodies
        }
    }

    /// A body that a sync replaced is in the note's history on that device — but for notes some
    /// device purged, as in ``checkEveryText(_:_:purged:)``: the purge takes their history where
    /// it arrives, and an edit winning over it brings the note back without (its text is kept,
    /// which the intents' check proves).
    private func checkKept(_ before: [UUID: String], on store: NoteStore, device: Int, purged: Set<UUID>) throws {
        for (id, body) in try Self.bodies(store) where !purged.contains(id) {
            guard let old = before[id], old != body else { continue }
            guard try store.history(noteId: id, withBodies: true).contains(where: { $0.body == old }) else {
                throw Failure(seed: seed, problem: "device \(device + 1): a sync replaced the body of note \(id.key), and its history does not hold what it replaced")
            }
        }
    }

    /// Syncs every device in turn until none has anything left to send or receive.
    func settle(_ devices: Devices, log: inout IntentLog, trace: inout [String]) async throws {
        for round in 0..<12 {
            var moved = false
            for (index, device) in devices.enumerated() {
                let report = try await device.engine.sync()
                trace.append("settle \(round) d\(index + 1) sync \(report)")
                try noteSync(report, of: index, step: steps + round, devices, &log)
                moved = moved || report.pushed > 0 || report.pulled > 0 || report.merged > 0
            }
            let pending = try devices.reduce(0) { $0 + (try $1.store.syncSummary().pending) }
            if !moved && pending == 0 { return }
            if round == 11 { throw Failure(seed: seed, problem: "no quiescence after 12 rounds (\(pending) pending)") }
        }
    }

    private func checkTokens(_ state: Snapshot, issued: Int, forgiven: Set<String>) throws {
        var found: [String: Int] = [:]
        for note in state.notes {
            var inThisNote: Set<String> = []
            for line in note.body.split(separator: "\n") where line.hasPrefix("edit-") {
                let token = String(line)
                if !inThisNote.insert(token).inserted {
                    throw Failure(seed: seed, problem: "\(token) appears twice in note \(note.id): merging duplicated text")
                }
                found[token, default: 0] += 1
            }
        }
        for index in 0..<issued {
            let token = "edit-\(index)"
            if found[token] == nil && !forgiven.contains(token) {
                throw Failure(seed: seed, problem: "\(token) was lost")
            }
        }
    }
}

/// The random operations a device performs: everything the command line offers.
struct Operations {
    /// Where attached files are made.
    let files: URL
    /// Body tokens issued so far (`edit-N`).
    private(set) var tokens = 0
    /// Tokens in notes purged by a device that had seen them.
    private(set) var forgiven: Set<String> = []
    /// Notes some device purged: their history goes on every device the purge reaches.
    private(set) var purged: Set<UUID> = []
    private var counter = 0

    init(files: URL) {
        self.files = files
    }

    /// Performs one operation and says what it did.
    mutating func random(on store: NoteStore, roll: Int, random: inout SeededGenerator) throws -> String {
        let notes = try store.notes(NoteQuery(limit: 1000)) + store.trashedNotes(limit: 1000)
        let folders = try store.folderTree().flatMap(\.flattened).map(\.folder)
        let tags = try store.tags().map(\.tag.name)
        let note = notes.randomElement(using: &random)
        let folder = folders.randomElement(using: &random)
        counter += 1
        // A token counts as issued only once the operation carrying it succeeded.
        let token = "edit-\(tokens)"
        switch roll {
        case 27..<36:
            let created = try store.createNote(NoteDraft(
                title: "note \(tokens)", body: "first\n\(token)\nlast", folderId: folder?.id,
                tags: Bool.random(using: &random) ? [newOrExistingTag(tags, &random)] : []))
            tokens += 1
            return "create \(created.id.short) \(token)"
        case 36..<52:
            guard let note else { return "nothing" }
            var lines = note.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.insert(token, at: Int.random(in: 0...lines.count, using: &random))
            _ = try store.updateNote(id: note.id, body: lines.joined(separator: "\n"))
            tokens += 1
            return "insert \(token) into \(note.id.short)"
        case 52..<56:
            guard let note else { return "nothing" }
            _ = try store.updateNote(id: note.id, title: "title \(counter)")
            return "retitle \(note.id.short)"
        case 56..<59:
            guard let note else { return "nothing" }
            _ = try store.setPinned(!note.isPinned, noteId: note.id)
            return "pin \(note.id.short)"
        case 59..<63:
            guard let note else { return "nothing" }
            let target = Bool.random(using: &random) ? folder?.id : nil
            _ = try store.moveNote(id: note.id, toFolder: target)
            return "move \(note.id.short) to \(target?.short ?? "-")"
        case 63..<68:
            guard let note else { return "nothing" }
            let tag = newOrExistingTag(tags, &random)
            _ = try store.addTags([tag], toNote: note.id)
            return "tag \(note.id.short) +\(tag)"
        case 68..<71:
            guard let note, let tag = note.tags.randomElement(using: &random) else { return "nothing" }
            _ = try store.removeTags([tag], fromNote: note.id)
            return "tag \(note.id.short) -\(tag)"
        case 71..<73:
            guard let tag = tags.randomElement(using: &random) else { return "nothing" }
            let name = Bool.random(using: &random) ? "tag \(counter)" : tag.uppercased()
            _ = try store.renameTag(tag, to: name)
            return "rename tag \(tag) to \(name)"
        case 73..<74:
            guard let source = tags.randomElement(using: &random), let target = tags.randomElement(using: &random) else { return "nothing" }
            _ = try store.mergeTag(source, into: target)
            return "merge tag \(source) into \(target)"
        case 74..<76:
            guard let tag = tags.randomElement(using: &random) else { return "nothing" }
            try store.deleteTag(tag)
            return "delete tag \(tag)"
        case 76..<80:
            guard let note else { return "nothing" }
            if note.isTrashed { _ = try store.restoreNote(id: note.id) } else { _ = try store.trashNotes(ids: [note.id]) }
            return "trash/restore \(note.id.short)"
        case 80..<82:
            guard let note else { return "nothing" }
            forgiven.formUnion(note.body.split(separator: "\n").map(String.init).filter { $0.hasPrefix("edit-") })
            purged.insert(note.id)
            if !note.isTrashed { _ = try store.trashNotes(ids: [note.id]) }
            _ = try store.purgeNotes(ids: [note.id])
            return "purge \(note.id.short)"
        case 82..<85:
            guard let note else { return "nothing" }
            let file = files.appendingPathComponent("file \(counter).txt")
            try? Data("attachment \(counter)".utf8).write(to: file)
            let attachment = try store.attachFile(at: file, toNote: note.id)
            return "attach \(attachment.id.short) to \(note.id.short)"
        case 85..<86:
            guard let note, let attachment = try store.attachments(noteId: note.id).randomElement(using: &random) else { return "nothing" }
            try store.detach(attachmentId: attachment.id)
            return "detach \(attachment.id.short) from \(note.id.short)"
        case 86..<91:
            let created = try store.createFolder(name: "folder \(counter)", parentId: Bool.random(using: &random) ? folder?.id : nil)
            return "create folder \(created.id.short)"
        case 91..<95:
            guard let folder else { return "nothing" }
            let parent = Bool.random(using: &random) ? folders.randomElement(using: &random)?.id : nil
            _ = try store.moveFolder(id: folder.id, toParent: parent)
            return "move folder \(folder.id.short) to \(parent?.short ?? "-")"
        case 95..<97:
            guard let folder else { return "nothing" }
            _ = try store.renameFolder(id: folder.id, to: "renamed \(counter)")
            return "rename folder \(folder.id.short)"
        default:
            guard let folder else { return "nothing" }
            try store.deleteFolder(id: folder.id)
            return "delete folder \(folder.id.short)"
        }
    }

    /// A tag this device already has, or a new one no device has seen yet.
    private mutating func newOrExistingTag(_ tags: [String], _ random: inout SeededGenerator) -> String {
        if Bool.random(using: &random), let tag = tags.randomElement(using: &random) { return tag }
        return Bool.random(using: &random) ? ["Red", "Green", "Blue", "Work"].randomElement(using: &random) ?? "Red" : "tag \(counter)"
    }
}

extension FolderNode {
    /// This folder and every folder below it.
    var flattened: [FolderNode] { [self] + children.flatMap(\.flattened) }
}

extension UUID {
    /// The first characters of the id, for traces.
    var short: String { String(uuidString.prefix(6)).lowercased() }
}
