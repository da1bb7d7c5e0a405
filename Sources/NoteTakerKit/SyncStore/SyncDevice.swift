import Foundation
import GRDB
import NoteTakerSyncProtocol

/// This store as a sync device: an id sent with every batch, and the token of its newest
/// answered batch, so that a fetch leaves out the changes it made itself (it holds them).
///
/// A store restored from a backup keeps its id but carries the older token it had then,
/// so the changes it made after the backup come back to it. A copy of the store file
/// opened on another machine, or at another path, is another device: it takes a new id
/// (the old device's changes are not its own), and until its first answered batch it is
/// sent everything.
enum SyncDevice {
    /// Gives the store a device id for where it lives now (`home`: machine and path), a new
    /// one (`newID`) if it has none or was moved or copied, forgetting the old id's token.
    static func claim(_ db: Database, home: String, newID: UUID) throws {
        guard try SyncState.get(db, .deviceId) == nil || SyncState.get(db, .deviceHome) != home else { return }
        try SyncState.set(db, .deviceId, newID.uuidString.lowercased())
        try SyncState.set(db, .deviceHome, home)
        try SyncState.set(db, .authoredToken, nil)
    }

    /// The store's device id, once claimed.
    static func id(_ db: Database) throws -> UUID? {
        try SyncState.get(db, .deviceId).flatMap(UUID.init(uuidString:))
    }

    /// Remembers the token of a batch's answer: the device holds its changes up to it.
    static func recordAnswer(_ db: Database, _ response: ModifyResponse) throws {
        guard let token = response.authoredToken else { return }
        try SyncState.set(db, .authoredToken, token)
    }

    /// The longest device name, in characters.
    static let maximumNameLength = 100

    /// A device name another device sent, when it is one: on one line, not too long.
    static func validName(_ name: String?) -> String? {
        guard let name, !name.isEmpty, name.count <= maximumNameLength, !name.contains(where: \.isNewline) else { return nil }
        return name
    }

    /// The name this device goes by in notes' histories: the one set, else the host name.
    static func name(_ db: Database) throws -> String {
        try SyncState.get(db, .deviceName) ?? String(ProcessInfo.processInfo.hostName.prefix(maximumNameLength))
    }

    /// The query for the next page of changes.
    static func query(_ db: Database, since: String?) throws -> ChangesQuery {
        ChangesQuery(since: since, deviceId: try id(db), authoredToken: try SyncState.get(db, .authoredToken))
    }

    /// Where a store file lives: this machine's id and the file's path.
    static func home(of databaseURL: URL?) -> String {
        let machine = ["/etc/machine-id", "/var/lib/dbus/machine-id"].lazy
            .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty } ?? ProcessInfo.processInfo.hostName
        return machine + "|" + (databaseURL?.standardizedFileURL.path ?? "memory")
    }
}
