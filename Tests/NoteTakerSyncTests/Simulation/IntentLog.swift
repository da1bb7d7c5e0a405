/// The simulation's oracle for every property: each change a device made on purpose, with
/// what that device had seen when it made it, and the check that the converged state
/// honours the documented rules.
///
/// A change W1 *happened before* W2 when the device that made W2 had seen W1: W1's device
/// synced completely after W1 (nothing left in its outbox), and W2's device synced after
/// that, before W2. That under-counts what devices saw (a sync cut short by the network
/// may have carried W1 too), so the oracle only ever asks less than the rules give, never
/// more. Among the changes to one property, those no other change happened after are the
/// *latest*:
///
/// - when all latest changes agree, the final value is theirs: the value that must win, won
///   (a title, a pin, a folder, a tag on a note, a record's existence);
/// - when they disagree (concurrent edits), the final value is one of them, never a value
///   nobody wrote;
/// - set members (tags and attachments of a note) are properties of their own, so an added
///   member that nobody removed survives whatever else happens to the set.
///
/// Written rules the check follows: any change to a record also says it should exist (an
/// edit wins over a concurrent delete); deleting a tag removes it from every note; a
/// reference to a folder or tag that was deleted is not checked (the deletion unfiles and
/// untags, on every device); folder cycles made by two devices are broken at the smallest id.
///
/// A record a device holds without applying it (it did not open, or came in plain text while
/// the device seals: `sync status` lists it) is not seen with the sync that brought it: a
/// change the device makes to it is stamped with what the device had seen of it before.
///
/// A server restored from a backup loses what reached it after the backup, and each device
/// that synced since heals it by sending everything it holds again, its own side winning
/// (see `NoteStore+RestoredServer.swift`). Until every device has synced after the restore,
/// a change the backup did not hold (made, or first sent, after it) may be undone by another
/// device's heal, and a deletion may come back: those changes are not judged, but a record
/// made is never lost. Text is judged all the same: no edit is lost (the token check).
struct IntentLog {
    struct Write: CustomStringConvertible {
        var key: RecordKey
        var property: String
        var value: String
        var device: Int
        var step: Int
        /// For each device, the last step of its operations this device had seen.
        var seen: [Int]

        func happened(before other: Write) -> Bool { other.seen[device] >= step && !(other.device == device && other.step == step) }
        var description: String { "step \(step) d\(device + 1): \(key) \(property) = \(value.prefix(40))" }
    }

    private(set) var writes: [Write] = []
    private var seen: [[Int]]
    /// For each device, the records it held at its last complete sync, with what it had seen
    /// before it first held each.
    private var seenOfHeld: [[RecordKey: [Int]]]
    /// What a device that syncs completely learns: what every complete sync published.
    private var published: [Int]
    /// What the server held when it was last backed up: the last step of each device's.
    private var publishedAtBackup: [Int]?
    /// Each restore: what the backup held, the devices that synced since, and the step by
    /// which every device had.
    private var restores: [(held: [Int], synced: Set<Int>, healedAt: Int?)] = []

    init(devices: Int) {
        seen = Array(repeating: Array(repeating: -1, count: devices), count: devices)
        published = Array(repeating: -1, count: devices)
        seenOfHeld = Array(repeating: [:], count: devices)
    }

    /// Logs what a device's operation changed, from its state before and after.
    mutating func record(device: Int, step: Int, before: DeviceState, after: DeviceState) {
        var changes = before.changes(to: after)
        for (key, property, value) in changes where key.type == "note" && property == "exists" {
            // Purging a note deletes its attachments; an edit that brings a note back brings
            // back the attachments the editing device holds.
            let files = (value == "0" ? before : after).records[key]?.keys.filter { $0.hasPrefix("file:") } ?? []
            changes += files.sorted().map { (key, $0, value) }
        }
        for key in Set(changes.map(\.0)) where key.type == "note" && after.exists(key) && before.exists(key) {
            let files = after.records[key]?.keys.filter { $0.hasPrefix("file:") } ?? []
            for file in files.sorted() where !changes.contains(where: { $0.0 == key && $0.1 == file }) {
                changes.append((key, file, "1"))
            }
        }
        record(device: device, step: step, changes: changes)
    }

    private mutating func record(device: Int, step: Int, changes: [(RecordKey, String, String)]) {
        let seenNow = seen[device]
        let held = seenOfHeld[device]
        let stamp = { (key: RecordKey, property: String, value: String) in
            var seen = held[key] ?? seenNow
            seen[device] = seenNow[device]
            return Write(key: key, property: property, value: value, device: device, step: step, seen: seen)
        }
        for (key, property, value) in changes {
            writes.append(stamp(key, property, value))
        }
        // A change to a record says it should exist (an edit wins over a concurrent delete).
        let existence = Set(changes.filter { $0.1 == "exists" }.map(\.0))
        for key in Set(changes.map(\.0)).subtracting(existence).sorted() {
            writes.append(stamp(key, "exists", "1"))
        }
        seen[device][device] = step
    }

    /// A device finished a sync whose pull completed, at `step`; `pushedEverything` when its
    /// outbox was empty after it, so everything it had seen is on the server; `holding` the
    /// records it holds without applying them.
    mutating func synced(device: Int, pushedEverything: Bool, holding: Set<RecordKey>, step: Int) {
        let before = seen[device]
        seenOfHeld[device] = Dictionary(uniqueKeysWithValues: holding.map { ($0, seenOfHeld[device][$0] ?? before) })
        seen[device] = zip(seen[device], published).map { max($0, $1) }
        if pushedEverything { published = zip(published, seen[device]).map { max($0, $1) } }
        for index in restores.indices where restores[index].healedAt == nil {
            restores[index].synced.insert(device)
            if restores[index].synced.count == seen.count { restores[index].healedAt = step }
        }
    }

    /// The server was backed up.
    mutating func serverBackedUp() {
        publishedAtBackup = published
    }

    /// The server was restored from its last backup: it holds what it held then.
    mutating func serverRestored() {
        let held = publishedAtBackup ?? Array(repeating: -1, count: seen.count)
        published = held
        restores.append((held, [], nil))
    }

    /// Whether a restored server may undo `write`: the backup did not hold it, and it was made
    /// before every device had synced after the restore. That a record exists is never
    /// undone: the device that made it sends it again.
    private func undoable(_ write: Write) -> Bool {
        guard write.property != "exists" || write.value != "1" else { return false }
        return restores.contains { write.step > $0.held[write.device] && write.step < ($0.healedAt ?? .max) }
    }

    /// What the converged state gets wrong, with the changes that touched each record.
    func problems(in state: DeviceState) -> [String] {
        let byProperty = Dictionary(grouping: writes) { "\($0.key.type)|\($0.key.id)|\($0.property)" }
        let deletions = writes.filter { $0.property == "exists" && $0.value == "0" }
        let deleted = Set(deletions.map(\.key.id))
        let deletionsByRecord = Dictionary(grouping: deletions, by: \.key)
        var problems: [String] = []
        for (_, group) in byProperty.sorted(by: { $0.key < $1.key }) {
            let key = group[0].key
            let property = group[0].property
            guard property != "body" else { continue }  // bodies: the token check
            // A deletion retracts the deleting device's earlier changes: if an edit made
            // elsewhere brings the record back, it comes back as that device had it.
            let retractions: [Write] = property == "exists" ? [] : (deletionsByRecord[key] ?? []).map { deletion in
                var retraction = deletion
                retraction.value = "*"
                return retraction
            }
            // Deleting a tag removes it from every note, also from notes this device never saw.
            let untaggings: [Write] = !property.hasPrefix("tag:") ? [] : (deletionsByRecord[RecordKey(type: "tag", id: String(property.dropFirst(4)))] ?? [])
                .map { deletion in
                    var untagging = deletion
                    untagging.key = key
                    untagging.property = property
                    return untagging
                }
            let candidates = group + retractions + untaggings
            let latest = candidates.filter { write in !candidates.contains { write.happened(before: $0) } }
            let wanted = Set(latest.map(\.value))
            if wanted.contains("*") || latest.contains(where: undoable) { continue }
            let found: String? = property == "exists" ? (state.exists(key) ? "1" : "0") : state.value(key, property)
            guard let found else { continue }  // a record deleted as the rules allow is checked by its existence
            if wanted.contains(found) { continue }
            if let skip = excused(key, property, wanted: wanted, found: found, state: state, deleted: deleted), skip { continue }
            let related = property.split(separator: ":").last.map(String.init) ?? ""
            let story = writes.filter { $0.key == key || $0.key.id == related || $0.property.hasSuffix(key.id) }.map { "  \($0)" }
            problems.append("""
                \(key) \(property) is \(found.prefix(40)), where the latest changes wanted \(wanted.sorted().map { String($0.prefix(40)) }):
                \(story.joined(separator: "\n"))
                """)
        }
        return problems
    }

    /// Whether a mismatch is one the written rules allow.
    private func excused(_ key: RecordKey, _ property: String, wanted: Set<String>, found: String, state: DeviceState, deleted: Set<String>) -> Bool? {
        switch property {
        case "folder", "parent":
            // A folder that was deleted unfiles what was in it; a cycle is broken at one folder.
            if wanted.contains(where: { $0 != "-" && (deleted.contains($0) || !state.exists(RecordKey(type: "folder", id: $0))) }) { return true }
            return property == "parent" && found == "-" && wanted.contains { onCycle(start: key.id, through: $0, state: state) }
        default:
            if property.hasPrefix("tag:") {
                return !state.exists(RecordKey(type: "tag", id: String(property.dropFirst(4))))
            }
            return nil
        }
    }

    /// Whether giving folder `start` the parent `parent` would close a cycle in the final tree.
    private func onCycle(start: String, through parent: String, state: DeviceState) -> Bool {
        var current: String? = parent
        var steps = 0
        while let id = current, id != "-", steps <= state.records.count {
            if id == start { return true }
            current = state.value(RecordKey(type: "folder", id: id), "parent")
            steps += 1
        }
        return false
    }
}
