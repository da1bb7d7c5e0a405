import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// What syncing one shared zone came to.
public struct SharedZoneSync: Sendable {
    /// The zone as it now stands.
    public var zone: SharedZone
    /// The cycle's report, or why it failed.
    public var result: Result<SyncReport, SyncError>
    /// The zone ended for this account (it left, was removed, or the owner deleted the share):
    /// its notes are gone from this device, but for those with changes not yet sent, kept as
    /// private notes (`keptPrivately` of them).
    public var ended = false
    /// How many notes with changes not yet sent were kept as private notes when the zone ended.
    public var keptPrivately = 0
}

/// The sync of the shared zones this device takes part in (docs/sharing.md §3.6): each in a
/// store of its own beside this one, synced through the same engine, its records sealed and
/// checked with the zone's keys (``ZoneRecordSealing``) and sent through the zone's routes.
extension NoteStore {
    /// The zone's store, following the zone's account on this store's server: its records go
    /// up sealed, its tags' ids keyed by the zone's id key so that every member agrees on them,
    /// its versions named with this device's name.
    func preparedZoneStore(_ zone: String, idKey: SymmetricKey?) throws(SyncError) -> NoteStore {
        let (settings, certificates): (SyncSettings, String?)
        do { (settings, certificates) = (try syncSettings(), try syncTrustedCertificatesPEM()) } catch { throw .store(error) }
        guard let server = settings.serverURL, let username = settings.username else { throw .notConfigured }
        do {
            let store = try sharedZoneStore(zone)
            try store.setSyncAccount(
                serverURL: server, username: username, allowInsecure: settings.allowInsecure, trustedCertificatesPEM: certificates,
                identity: idKey.map(KeyedIdentity.init(idKey:)))
            try store.setMergePolicy(settings.mergePolicy)
            // The versions written here name this device as the account's own notes do.
            try store.setDeviceName(settings.deviceName)
            return store
        } catch {
            throw .store(error)
        }
    }

    /// The shares synced, before a cycle of the account's own notes (so that a note moved into
    /// a share on another device is held here when its deletion from the account's notes comes
    /// down): `nil` for an account that takes part in none (no identity keys: not end-to-end
    /// encrypted), else how each zone went, or why they could not be listed — which does not
    /// stop the cycle of the account's own notes.
    public func syncShares(transport: HTTPSyncTransport, allowMassDeletion: Bool = false) async -> Result<[SharedZoneSync], SyncError>? {
        guard (try? syncKeyring())??.identityKeys != nil else { return nil }
        do throws(SyncError) {
            return .success(try await syncSharedZones(transport: transport, allowMassDeletion: allowMassDeletion))
        } catch {
            return .failure(error)
        }
    }

    /// Syncs every shared zone this account accepted, one after another; a zone that fails
    /// does not stop the others. Zones accepted or made on another device are taken up first,
    /// and zones this account no longer has are ended here.
    public func syncSharedZones(transport: HTTPSyncTransport, allowMassDeletion: Bool = false) async throws(SyncError) -> [SharedZoneSync] {
        let listed = try await transport.shares()
        var results: [SharedZoneSync] = []
        var zones: [SharedZone]
        do { zones = try sharedZones() } catch { throw .store(error) }
        for summary in listed where summary.accepted && !zones.contains(where: { $0.zone == summary.zone }) {
            if let taken = try? await takeUpSharedZone(summary, transport: transport) { zones.append(taken) }
        }
        for zone in zones where zone.accepted {
            guard listed.contains(where: { $0.zone == zone.zone && $0.accepted }) else {
                results.append(await endedZone(zone))
                continue
            }
            results.append(await syncSharedZone(zone, transport: transport, allowMassDeletion: allowMassDeletion))
        }
        return results
    }

    /// Syncs one shared zone: its members record and keys first, then a cycle of its store.
    public func syncSharedZone(_ zone: SharedZone, transport: HTTPSyncTransport, allowMassDeletion: Bool = false) async -> SharedZoneSync {
        do {
            let (current, members) = try await refreshMembers(of: zone, transport: transport)
            let sealing = try await zoneSealing(current, newest: members, transport: transport)
            let store = try preparedZoneStore(current.zone, idKey: sealing.idKey)
            let engine = SyncEngine(store: store, transport: transport.inZone(current.zone), options: SyncEngine.Options(
                policy: (try? syncSettings()).flatMap { MergePolicy.named($0.mergePolicy) } ?? .localWins, allowMassDeletion: allowMassDeletion,
                sealing: sealing,
                keys: { [self] fromServer in
                    // A record names a members record or key this device has not fetched:
                    // every earlier members record, and the boxes, are fetched again.
                    guard fromServer else { return sealing }
                    let earlier = Set(1..<max(members.epoch, 1))
                    return try? await zoneSealing(current, newest: members, fetching: earlier, transport: transport)
                }))
            let report = try await engine.sync()
            let titled = try retitled(current, from: store)
            return SharedZoneSync(zone: titled, result: .success(report))
        } catch .noSuchShare, .server(code: "notFound", _) {
            return await endedZone(zone)
        } catch {
            return SharedZoneSync(zone: zone, result: .failure(error))
        }
    }

    /// A zone this account accepted or made on another device, kept here from its members record.
    func takeUpSharedZone(_ summary: ShareSummary, transport: HTTPSyncTransport) async throws(SyncError) -> SharedZone {
        try await refreshMembers(of: SharedZone(invitation: summary), transport: transport).0
    }

    /// `zone` with the title of its root in `store`, kept.
    private func retitled(_ zone: SharedZone, from store: NoteStore) throws(SyncError) -> SharedZone {
        guard let id = UUID(uuidString: zone.root.id) else { return zone }
        var titled = zone
        titled.title = (zone.root.kind == "folder" ? (try? store.folder(id: id).name) : (try? store.note(id: id).displayTitle)) ?? zone.title
        guard titled != zone else { return zone }
        do { try keepSharedZone(titled, members: nil) } catch { throw .store(error) }
        return titled
    }

    /// Ends `zone` here: its notes with changes not yet sent are kept as private notes first
    /// (all of its notes, for its owner, whose notes they are), then its store and record go.
    func endedZone(_ zone: SharedZone) async -> SharedZoneSync {
        var ended = SharedZoneSync(zone: zone, result: .success(SyncReport()), ended: true)
        do {
            if let url = sharedZoneStoreURL(zone.zone), FileManager.default.fileExists(atPath: url.path) {
                let store = try sharedZoneStore(zone.zone)
                ended.keptPrivately = try keepPrivately(from: store, all: zone.role == .owner)
                try Self.removeStoreFiles(at: url)
            }
            try forgetSharedZone(zone.zone)
        } catch {
            ended.result = .failure(.store(error))
        }
        return ended
    }

    /// Moves the notes of `store` that have changes not yet sent (`all`: every note, with its
    /// folders) into this store; returns how many.
    private func keepPrivately(from store: NoteStore, all: Bool) throws(NoteTakerError) -> Int {
        var moved = 0
        if all {
            for node in try store.folderTree() where node.folder.parentId == nil {
                moved += try store.moveFolder(node.folder.id, into: self).notes
            }
        }
        var left: [UUID] = []
        if all {
            try store.forEachNote(in: NoteSelection(includeTrashed: true)) { notes in left += notes.map(\.id) }
        } else {
            let pending = try store.pendingChanges().filter { $0.recordType == .note && $0.operation == .save }
            left = Array(Set(pending.map(\.recordId)))
        }
        for id in left where (try? store.note(id: id)) != nil {
            moved += try store.moveNote(id, into: self, folder: nil).notes
        }
        return moved
    }

    /// Removes a store's file, its WAL, SHM and sync lock, and its attachments folder.
    static func removeStoreFiles(at url: URL) throws(NoteTakerError) {
        let files = ["-wal", "-shm", "-sync.lock"].map { URL(fileURLWithPath: url.path + $0) }
            + [url, url.deletingPathExtension().appendingPathExtension("attachments")]
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            do { try FileManager.default.removeItem(at: file) } catch {
                throw .fileWriteFailed(path: file.path, reason: error.localizedDescription)
            }
        }
    }
}
