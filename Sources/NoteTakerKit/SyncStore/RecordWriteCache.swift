import Foundation
import GRDB

/// What writing many pulled notes in one transaction reads again and again: this device's
/// name, each folder's chain of ancestors and each tag's row. Each is read once per
/// transaction instead of once a note (a first sync writes 100,000 notes into a handful
/// of folders and tags).
///
/// ``SyncApply`` forgets the folders and tags whenever it writes or deletes one.
struct RecordWriteCache {
    private var deviceName: String?
    /// A folder's chain (itself, then its ancestors), or `nil` when there is no such folder.
    private var folderChains: [String: [String]?] = [:]
    /// A tag's row, or `nil` when there is no such tag.
    private var tags: [String: Tag?] = [:]

    /// This device's name (see ``SyncDevice/name(_:)``).
    mutating func deviceName(_ db: Database) throws -> String {
        if let deviceName { return deviceName }
        let name = try SyncDevice.name(db)
        deviceName = name
        return name
    }

    /// The folder and its ancestors, nearest first; `nil` when the folder is not here.
    mutating func folderChain(_ db: Database, _ folderId: String) throws -> [String]? {
        if let known = folderChains[folderId] { return known }
        let exists = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM folder WHERE id = ?"), arguments: [folderId]) == true
        let chain = exists ? try SearchFields.folderChain(db, folderId) : nil
        folderChains[folderId] = .some(chain)
        return chain
    }

    /// The tags here among `ids`; ids of tags not here are left out.
    mutating func tags(_ db: Database, ids: [String]) throws -> [Tag] {
        let unknown = ids.filter { tags[$0] == nil }
        if !unknown.isEmpty {
            let found = try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Columns.tag) FROM tag WHERE id IN (SELECT value FROM json_each(?))"),
                                         arguments: [NoteStore.jsonArray(unknown)]).map(Tag.init(row:))
            for id in unknown { tags[id] = .some(nil) }
            for tag in found { tags[tag.id.key] = .some(tag) }
        }
        var seen: Set<String> = []
        return ids.compactMap { id in seen.insert(id).inserted ? tags[id] ?? nil : nil }
    }

    /// Forgets the folders and tags read so far: one of them was written or deleted.
    mutating func forgetFoldersAndTags() {
        folderChains.removeAll()
        tags.removeAll()
    }
}
