import Foundation
import GRDB

/// How far a device is in sealing the server's kept note versions again with the newest key,
/// after it rotated the account's keys (docs/encryption.md §2.3).
public struct VersionResealing: Sendable, Hashable, Codable {
    /// The versions sealed with a data key below this one are sealed again.
    public var below: Int
    /// Where the next stretch of the server's versions starts (a page's `next`); `nil` at the start.
    public var after: String?

    /// A pass at some point.
    public init(below: Int, after: String? = nil) {
        self.below = below
        self.after = after
    }
}

extension NoteStore {
    /// Queues every record the server holds to go up again as it is, each a derived save
    /// (it yields to any edit, and a deletion still beats it), and notes that the note versions
    /// the server keeps are to be sealed again: after the account's keys were rotated to data
    /// key `keyVersion`, so that the server comes to hold everything sealed with it
    /// (docs/encryption.md §2.3). Records with a change waiting already go up with it.
    /// Returns how many records were queued.
    @discardableResult
    public func queueResealing(keyVersion: Int) throws(NoteTakerError) -> Int {
        try write { db in
            try SyncState.set(db, .versionResealing, String(decoding: try JSONEncoder().encode(VersionResealing(below: keyVersion)), as: UTF8.self))
            return try RecordType.parentsFirst.reduce(0) { queued, type in queued + (try Outbox.queueDerivedSaves(db, type)) }
        }
    }

    /// Where sealing the server's kept versions again is; `nil` when there is nothing to do.
    package func versionResealing() throws(NoteTakerError) -> VersionResealing? {
        try read { db in
            try SyncState.get(db, .versionResealing).flatMap { try? JSONDecoder().decode(VersionResealing.self, from: Data($0.utf8)) }
        }
    }

    /// Notes that the pass `pass` went up to `next` (its end when `nil`). A pass begun since
    /// (another rotation) is left as it is.
    package func noteVersionResealing(_ pass: VersionResealing, next: String?) throws(NoteTakerError) {
        try write { db in
            let current = try SyncState.get(db, .versionResealing).flatMap { try? JSONDecoder().decode(VersionResealing.self, from: Data($0.utf8)) }
            guard current?.below == pass.below else { return }
            let value = try next.map { String(decoding: try JSONEncoder().encode(VersionResealing(below: pass.below, after: $0)), as: UTF8.self) }
            try SyncState.set(db, .versionResealing, value)
        }
    }
}
