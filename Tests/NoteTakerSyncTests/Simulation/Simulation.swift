import Foundation
import GRDB
@testable import NoteTakerKit

/// A seeded run: devices doing random operations offline and syncing over a faulty
/// network, then healing and syncing to quiescence. Every edit to a body adds a line with a
/// unique token; afterwards each token must be in some note (merged, or in a conflict
/// copy), unless the device that deleted its note had seen it.
struct Simulation {
    let seed: UInt64
    let deviceCount: Int
    let steps: Int

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
    }

    func run() async throws -> Outcome {
        var random = SeededGenerator(seed: seed)
        let network = try SimulatedNetwork(seed: seed)
        defer { Task { await network.removeFiles() } }
        let token = try await network.register()
        var devices: [(store: NoteStore, engine: SyncEngine)] = []
        for _ in 0..<deviceCount {
            let store = try NoteStore.inMemory()
            let engine = SyncEngine(store: store, transport: SimulatedTransport(network: network, token: token),
                                    options: .init(policy: .localWins, allowMassDeletion: true, batchSize: 5))
            devices.append((store, engine))
        }
        var tokens = 0
        var forgiven: Set<String> = []
        var conflicts = 0

        var trace: [String] = []
        for step in 0..<steps {
            let index = Int.random(in: 0..<deviceCount, using: &random)
            let device = devices[index]
            let roll = Int.random(in: 0..<100, using: &random)
            do {
                switch roll {
                case 0..<25:
                    do {
                        let report = try await device.engine.sync()
                        conflicts += report.conflicts
                        trace.append("\(step) d\(index + 1) sync \(report)")
                    } catch {
                        trace.append("\(step) d\(index + 1) sync failed: \(error)")
                    }
                case 25..<27:
                    try await network.restart()
                    trace.append("\(step) server restart")
                default:
                    let done = try Operations.random(on: device.store, roll: roll, random: &random, tokens: &tokens, forgiven: &forgiven)
                    trace.append("\(step) d\(index + 1) \(done)")
                }
            } catch is NoteTakerError {
                trace.append("\(step) d\(index + 1) refused")
            }
        }
        do {
            try await finish(devices, network: network, tokens: tokens, forgiven: forgiven, conflicts: &conflicts)
        } catch let failure as Failure {
            var failure = failure
            if ProcessInfo.processInfo.environment["NOTETAKER_SIM_TRACE"] != nil {
                failure.problem += "\n" + trace.joined(separator: "\n")
            }
            throw failure
        }
        return Outcome(faults: await network.faultsInjected, conflicts: conflicts, edits: tokens)
    }

    private func finish(_ devices: [(store: NoteStore, engine: SyncEngine)], network: SimulatedNetwork,
                        tokens: Int, forgiven: Set<String>, conflicts: inout Int) async throws {

        await network.heal()
        try await settle(devices)
        let states = try devices.map { try Snapshot.take($0.store) }
        for (index, state) in states.enumerated().dropFirst() where state != states[0] {
            throw Failure(seed: seed, problem: "device \(index + 1) differs from device 1:\n\(states[0].difference(from: state))")
        }
        try checkTokens(states[0], issued: tokens, forgiven: forgiven)
        for (store, _) in devices {
            conflicts += try store.conflicts().count
        }
    }

    /// Syncs every device in turn until none has anything left to send or receive.
    private func settle(_ devices: [(store: NoteStore, engine: SyncEngine)]) async throws {
        for round in 0..<12 {
            var moved = false
            for device in devices {
                let report = try await device.engine.sync()
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

/// The random operations a device performs.
enum Operations {
    /// Performs one operation and says what it did.
    static func random(on store: NoteStore, roll: Int, random: inout SeededGenerator, tokens: inout Int, forgiven: inout Set<String>) throws -> String {
        let notes = try store.notes(NoteQuery(limit: 1000)) + store.trashedNotes(limit: 1000)
        let folders = try store.folderTree().map(\.folder)
        let note = notes.randomElement(using: &random)
        let folder = folders.randomElement(using: &random)
        // A token counts as issued only once the operation carrying it succeeded.
        let token = "edit-\(tokens)"
        switch roll {
        case 27..<40:
            let created = try store.createNote(NoteDraft(title: "note \(tokens)", body: "first\n\(token)\nlast", folderId: folder?.id))
            tokens += 1
            return "create \(created.id.short) \(token)"
        case 40..<62:
            guard let note else { return "nothing" }
            var lines = note.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.insert(token, at: Int.random(in: 0...lines.count, using: &random))
            _ = try store.updateNote(id: note.id, body: lines.joined(separator: "\n"))
            tokens += 1
            return "insert \(token) into \(note.id.short)"
        case 62..<66:
            guard let note else { return "nothing" }
            _ = try store.updateNote(id: note.id, title: "title \(Int.random(in: 0..<1000, using: &random))")
            return "retitle \(note.id.short)"
        case 66..<70:
            guard let note else { return "nothing" }
            _ = try store.setPinned(!note.isPinned, noteId: note.id)
            return "pin \(note.id.short)"
        case 70..<74:
            guard let note else { return "nothing" }
            _ = try store.moveNote(id: note.id, toFolder: Bool.random(using: &random) ? folder?.id : nil)
            return "move \(note.id.short)"
        case 74..<78:
            guard let note else { return "nothing" }
            let tag = ["Red", "Green", "Blue", "Work"].randomElement(using: &random) ?? "Red"
            _ = Bool.random(using: &random) ? try store.addTags([tag], toNote: note.id) : try store.removeTags([tag], fromNote: note.id)
            return "tag \(note.id.short)"
        case 78..<82:
            guard let note else { return "nothing" }
            if note.isTrashed { _ = try store.restoreNote(id: note.id) } else { _ = try store.trashNotes(ids: [note.id]) }
            return "trash/restore \(note.id.short)"
        case 82..<85:
            guard let note else { return "nothing" }
            forgiven.formUnion(note.body.split(separator: "\n").map(String.init).filter { $0.hasPrefix("edit-") })
            if !note.isTrashed { _ = try store.trashNotes(ids: [note.id]) }
            _ = try store.purgeNotes(ids: [note.id])
            return "purge \(note.id.short)"
        case 85..<91:
            let created = try store.createFolder(name: "folder \(Int.random(in: 0..<1000, using: &random))", parentId: Bool.random(using: &random) ? folder?.id : nil)
            return "create folder \(created.id.short)"
        case 91..<95:
            guard let folder else { return "nothing" }
            _ = try store.moveFolder(id: folder.id, toParent: folders.randomElement(using: &random)?.id)
            return "move folder \(folder.id.short)"
        case 95..<97:
            guard let folder else { return "nothing" }
            _ = try store.renameFolder(id: folder.id, to: "renamed \(Int.random(in: 0..<1000, using: &random))")
            return "rename folder \(folder.id.short)"
        default:
            guard let folder else { return "nothing" }
            try store.deleteFolder(id: folder.id)
            return "delete folder \(folder.id.short)"
        }
    }
}

extension UUID {
    /// The first characters of the id, for traces.
    var short: String { String(uuidString.prefix(6)).lowercased() }
}
