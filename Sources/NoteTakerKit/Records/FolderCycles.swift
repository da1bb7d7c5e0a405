import GRDB

/// Folder cycles that devices make together, each moving a folder under the other before it
/// learns of the other's move.
///
/// A folder's row holds the parent it is shown under; the parent people asked for is its
/// record's, the one that goes up and comes down. Where the parents asked for close a cycle,
/// every device shows the cycle's smallest id at the top level and keeps the parent asked for
/// as a reference (``UnresolvedReferences``, which ``SyncRecords`` sends up as the parent).
/// Nothing goes up for the break, so it never outranks a person's move: when a later move
/// undoes the cycle, made here or on another device, the folder goes back under the parent
/// asked for (converting seed 3,016,001: a cycle broken for good lost the move that made it,
/// though the next move undid the cycle). What is shown is a function of the records alone,
/// the same on every device.
enum FolderCycles {
    /// Shows every folder under the parent asked for, but the smallest id of each cycle at
    /// the top level. Run once a pull is applied, and after a move made here.
    static func settle(_ db: Database) throws {
        var shown: [String: String] = [:]
        var asked: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT f.id, f.parentId, (SELECT r.targetId FROM sync_reference r JOIN folder t ON t.id = r.targetId
                                      WHERE r.recordType = 'folder' AND r.recordId = f.id AND r.property = 'parentId')
            FROM folder f
            """) {
            let id: String = row[0]
            if let parent: String = row[1] { shown[id] = parent }
            if let parent: String = row[1] ?? row[2] { asked[id] = parent }
        }
        let broken = smallestOfEachCycle(asked)
        for (id, parent) in asked where broken.contains(id) ? shown[id] != nil : shown[id] != parent {
            try RecordWriter.showFolder(db, id: id, under: broken.contains(id) ? nil : parent, askedFor: parent)
        }
    }

    /// The smallest id of each cycle in a parent map, in one walk of it (every folder has one
    /// parent at most, so cycles never share a folder).
    static func smallestOfEachCycle(_ parents: [String: String]) -> Set<String> {
        var done: Set<String> = []
        var smallest: Set<String> = []
        for start in parents.keys where !done.contains(start) {
            var path: [String] = []
            var position: [String: Int] = [:]
            var current: String? = start
            while let id = current, !done.contains(id), position[id] == nil {
                position[id] = path.count
                path.append(id)
                current = parents[id]
            }
            if let id = current, let index = position[id], let least = path[index...].min() { smallest.insert(least) }
            done.formUnion(path)
        }
        return smallest
    }
}
