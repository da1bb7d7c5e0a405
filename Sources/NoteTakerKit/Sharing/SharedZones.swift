import Foundation
import GRDB
import Synchronization
import NoteTakerSyncProtocol

/// A shared zone this device takes part in (docs/sharing.md §3.6): whose it is, this
/// account's role, whether it accepted, and what was shared. Its notes are kept in a store of
/// their own beside this one (``NoteStore/sharedZoneStoreURL(_:)``), synced through the
/// zone's routes with the zone's keys.
public struct SharedZone: Sendable, Equatable {
    /// The zone's id, a lowercase UUID.
    public var zone: String
    /// The owner's account, lowercased.
    public var owner: String
    /// This account's role in the newest members record this device accepted.
    public var role: ShareMembers.Role
    /// Whether this account accepted the invitation (the owner always has).
    public var accepted: Bool
    /// What was shared: a folder (with everything in it) or a note.
    public var root: ShareMembers.Root
    /// The shared folder's or note's title as this device last saw it.
    public var title: String

    /// A shared zone's record.
    public init(zone: String, owner: String, role: ShareMembers.Role, accepted: Bool, root: ShareMembers.Root, title: String) {
        (self.zone, self.owner, self.role, self.accepted, self.root, self.title) = (zone, owner, role, accepted, root, title)
    }

    /// Whether this account may change the zone's notes: its owner and editors.
    public var writable: Bool { role == .owner || role == .editor }
}

/// The shared zones this device takes part in, and every members record of each it accepted,
/// by epoch, in their tables.
enum SharedZones {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE shared_zone (
                zone TEXT PRIMARY KEY NOT NULL,
                owner TEXT NOT NULL,
                role TEXT NOT NULL,
                accepted INTEGER NOT NULL,
                rootKind TEXT NOT NULL,
                rootId TEXT NOT NULL,
                title TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE shared_zone_members (
                zone TEXT NOT NULL REFERENCES shared_zone(zone) ON DELETE CASCADE,
                epoch INTEGER NOT NULL,
                members TEXT NOT NULL,
                signature TEXT NOT NULL,
                PRIMARY KEY (zone, epoch)
            ) WITHOUT ROWID;
            """)
    }

    static func zone(_ row: Row) -> SharedZone? {
        guard let role = ShareMembers.Role(rawValue: row["role"]), let rootId = UUID(uuidString: row["rootId"]) else { return nil }
        return SharedZone(zone: row["zone"], owner: row["owner"], role: role, accepted: row["accepted"],
                          root: ShareMembers.Root(kind: row["rootKind"], id: rootId), title: row["title"])
    }
}

extension NoteStore {
    /// The shared zones this device takes part in, by title.
    public func sharedZones() throws(NoteTakerError) -> [SharedZone] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM shared_zone ORDER BY title, zone").compactMap(SharedZones.zone)
        }
    }

    /// The shared zone `zone`, if this device takes part in it.
    public func sharedZone(_ zone: String) throws(NoteTakerError) -> SharedZone? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM shared_zone WHERE zone = ?", arguments: [zone]).flatMap(SharedZones.zone)
        }
    }

    /// Keeps `zone` as this device now sees it, with `members`, a members record of it this
    /// device accepted (kept beside the others, by its epoch).
    public func keepSharedZone(_ zone: SharedZone, members: (epoch: Int, signed: SignedShareMembers)?) throws(NoteTakerError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO shared_zone (zone, owner, role, accepted, rootKind, rootId, title) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (zone) DO UPDATE SET owner = excluded.owner, role = excluded.role, accepted = excluded.accepted,
                    rootKind = excluded.rootKind, rootId = excluded.rootId, title = excluded.title
                """, arguments: [zone.zone, zone.owner, zone.role.rawValue, zone.accepted, zone.root.kind, zone.root.id, zone.title])
            if let (epoch, signed) = members {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO shared_zone_members (zone, epoch, members, signature) VALUES (?, ?, ?, ?)
                    """, arguments: [zone.zone, epoch, signed.members, signed.signature])
            }
        }
    }

    /// The members records of `zone` this device accepted, by epoch.
    public func sharedZoneMembers(_ zone: String) throws(NoteTakerError) -> [Int: SignedShareMembers] {
        try read { db in
            var records: [Int: SignedShareMembers] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT epoch, members, signature FROM shared_zone_members WHERE zone = ?", arguments: [zone]) {
                records[row["epoch"]] = SignedShareMembers(members: row["members"], signature: row["signature"])
            }
            return records
        }
    }

    /// Forgets `zone` and its members records (its store is removed by the caller).
    public func forgetSharedZone(_ zone: String) throws(NoteTakerError) {
        sharedZoneStores.close(zone)
        try write { db in try db.execute(sql: "DELETE FROM shared_zone WHERE zone = ?", arguments: [zone]) }
    }

    /// Where the store of the shared zone `zone` is kept: beside this store, in its folder of
    /// shared zones; `nil` for a store in memory.
    public func sharedZoneStoreURL(_ zone: String) -> URL? {
        databaseURL.map { url in
            url.deletingLastPathComponent()
                .appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".shared", isDirectory: true)
                .appendingPathComponent(zone + ".sqlite")
        }
    }

    /// How many of the notes `ids` a store of a share this device takes part in holds: notes
    /// moved into a share (on another device), whose deletion from this store is no loss.
    package func notesHeldBySharedZones(_ ids: [String]) throws(NoteTakerError) -> Int {
        let zones = try sharedZones().filter(\.accepted)
        guard !ids.isEmpty, !zones.isEmpty else { return 0 }
        var held = Set<String>()
        for zone in zones {
            guard let url = sharedZoneStoreURL(zone.zone), FileManager.default.fileExists(atPath: url.path) else { continue }
            let store = try sharedZoneStore(zone.zone)
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                let found = try store.read { db in
                    try String.fetchAll(db, sql: "SELECT id FROM note WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                                        arguments: StatementArguments(chunk))
                }
                held.formUnion(found)
            }
        }
        return held.count
    }

    /// The store of shared zone `zone` on this device (made when new).
    ///
    /// Opened once and kept open while this store is: sync, the web app and its live queries
    /// share one connection pool, so that a change sync writes is seen at once.
    public func sharedZoneStore(_ zone: String) throws(NoteTakerError) -> NoteStore {
        guard let url = sharedZoneStoreURL(zone) else { throw .database("A shared folder needs a store on disk.") }
        // A store another process removed (the share ended there) is opened, made, anew.
        if let open = sharedZoneStores.store(zone), FileManager.default.fileExists(atPath: url.path) { return open }
        let store = try NoteStore.open(at: url)
        sharedZoneStores.keep(store, for: zone)
        return store
    }
}

/// The stores of shared zones a store opened, by zone: kept open and shared by its copies.
final class SharedZoneStores: Sendable {
    private let stores = Mutex<[String: NoteStore]>([:])

    func store(_ zone: String) -> NoteStore? {
        stores.withLock { $0[zone] }
    }

    func keep(_ store: NoteStore, for zone: String) {
        stores.withLock { $0[zone] = store }
    }

    /// Lets go of `zone`'s store (the zone ended here).
    func close(_ zone: String) {
        stores.withLock { _ = $0.removeValue(forKey: zone) }
    }
}
