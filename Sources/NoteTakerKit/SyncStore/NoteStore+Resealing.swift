import Foundation
import GRDB

extension NoteStore {
    /// Queues every record the server holds to go up again as it is, each a derived save
    /// (it yields to any edit, and a deletion still beats it): after the account's keys were
    /// rotated, so that the server comes to hold every record sealed with the new key
    /// (docs/encryption.md §2.3). Records with a change waiting already go up with it.
    /// Returns how many were queued.
    @discardableResult
    public func queueResealing() throws(NoteTakerError) -> Int {
        try write { db in
            try RecordType.parentsFirst.reduce(0) { queued, type in queued + (try Outbox.queueDerivedSaves(db, type)) }
        }
    }
}
