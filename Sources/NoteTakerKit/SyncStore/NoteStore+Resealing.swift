import Foundation
import GRDB

/// How far a device is in sealing what the server keeps besides records (the note versions,
/// then the files) again with the newest key, after it rotated the account's keys
/// (docs/encryption.md §2.3).
public struct ResealingPass: Sendable, Hashable, Codable {
    /// What the pass goes through, in this order.
    public enum Stage: String, Sendable, Codable {
        /// The note versions the server keeps.
        case versions
        /// The attachment files.
        case files
    }

    /// What is sealed with a data key below this one is sealed again.
    public var below: Int
    /// What the pass is going through.
    public var stage: Stage
    /// Where the next stretch of the server's versions or files starts (a page's `next`);
    /// `nil` at the stage's start.
    public var after: String?

    /// A pass at some point.
    public init(below: Int, stage: Stage = .versions, after: String? = nil) {
        self.below = below
        self.stage = stage
        self.after = after
    }

    /// The pass after a stretch whose page said `next`: further in the same stage, the next
    /// stage, or `nil` when it is done.
    public func advanced(to next: String?) -> ResealingPass? {
        if let next { return ResealingPass(below: below, stage: stage, after: next) }
        return stage == .versions ? ResealingPass(below: below, stage: .files) : nil
    }
}

extension NoteStore {
    /// Queues every record the server holds to go up again as it is, each a derived save
    /// (it yields to any edit, and a deletion still beats it), and notes that the note versions
    /// and files the server keeps are to be sealed again: after the account's keys were rotated
    /// to data key `keyVersion`, so that the server comes to hold everything sealed with it
    /// (docs/encryption.md §2.3). Records with a change waiting already go up with it.
    /// Returns how many records were queued.
    @discardableResult
    public func queueResealing(keyVersion: Int) throws(NoteTakerError) -> Int {
        try write { db in
            try Self.keep(ResealingPass(below: keyVersion), db)
            return try RecordType.parentsFirst.reduce(0) { queued, type in queued + (try Outbox.queueDerivedSaves(db, type)) }
        }
    }

    /// Where sealing the server's versions and files again is; `nil` when there is nothing to do.
    package func resealingPass() throws(NoteTakerError) -> ResealingPass? {
        try read { db in try Self.pass(db) }
    }

    /// Notes that `pass` went through a stretch whose page said `next`; returns the pass as it
    /// now stands (`nil`: done). A pass begun since (another rotation) is left as it is, and returned.
    @discardableResult
    package func noteResealing(_ pass: ResealingPass, next: String?) throws(NoteTakerError) -> ResealingPass? {
        try write { db in
            let current = try Self.pass(db)
            guard current?.below == pass.below else { return current }
            let advanced = pass.advanced(to: next)
            try Self.keep(advanced, db)
            return advanced
        }
    }

    /// The hashes of the attachment files this device's notes name.
    package func attachmentHashes() throws(NoteTakerError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT contentHash FROM attachment") }
    }

    private static func pass(_ db: Database) throws -> ResealingPass? {
        try SyncState.get(db, .resealingPass).flatMap { try? JSONDecoder().decode(ResealingPass.self, from: Data($0.utf8)) }
    }

    private static func keep(_ pass: ResealingPass?, _ db: Database) throws {
        try SyncState.set(db, .resealingPass, try pass.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) })
    }
}
