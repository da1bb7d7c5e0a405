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
        /// Asking the server to delete what it holds in plain text: the last step of a
        /// conversion to end-to-end encryption (a pass below key 1), in place of the files.
        case plaintext
    }

    /// What is sealed with a data key below this one is sealed again.
    public var below: Int
    /// What the pass is going through.
    public var stage: Stage
    /// Where the next stretch of the server's versions or files starts (a page's `next`);
    /// `nil` at the stage's start.
    public var after: String?
    /// A rotation's pass that waits for this one, a conversion's, to be done: what is sealed
    /// below this data key is sealed again then (the conversion sealed some of it with a key
    /// the rotation replaced).
    public var thenBelow: Int?

    /// A pass at some point.
    public init(below: Int, stage: Stage = .versions, after: String? = nil, thenBelow: Int? = nil) {
        self.below = below
        self.stage = stage
        self.after = after
        self.thenBelow = thenBelow
    }

    /// The pass after a stretch whose page said `next`: further in the same stage, the next
    /// stage, or, when it is done, the rotation's pass that waits for it (else `nil`). A
    /// conversion's pass (below key 1) seals the plaintext versions, then has the server drop
    /// its plaintext files: their sealed copies went up under keyed addresses with the
    /// records, so none is sealed again in place.
    public func advanced(to next: String?) -> ResealingPass? {
        if let next { return ResealingPass(below: below, stage: stage, after: next, thenBelow: thenBelow) }
        guard stage == .versions else { return thenBelow.map { ResealingPass(below: $0) } }
        return ResealingPass(below: below, stage: converts ? .plaintext : .files, thenBelow: thenBelow)
    }

    /// Whether this pass converts the account to end-to-end encryption: it seals what is in
    /// plain text (below key 1).
    public var converts: Bool { below == 1 }
}

extension NoteStore {
    /// Queues every record the server holds to go up again as it is, each a derived save
    /// (it yields to any edit, and a deletion still beats it), and notes that the note versions
    /// and files the server keeps are to be sealed again: after the account's keys were rotated
    /// to data key `keyVersion`, so that the server comes to hold everything sealed with it
    /// (docs/encryption.md §2.3). Records with a change waiting already go up with it.
    /// Returns how many records were queued.
    ///
    /// A conversion's pass still kept here stays: it seals the versions in plain text (with the
    /// newest key) and ends with the server deleting its plaintext, which a rotation's pass
    /// would not do. The rotation's pass follows it: what it sealed with the older key is sealed again.
    @discardableResult
    public func queueResealing(keyVersion: Int) throws(NoteTakerError) -> Int {
        try write { db in
            var pass = ResealingPass(below: keyVersion)
            if var conversion = try Self.pass(db), conversion.converts {
                conversion.thenBelow = keyVersion
                pass = conversion
            }
            try Self.keep(pass, db)
            return try RecordType.parentsFirst.reduce(0) { queued, type in queued + (try Outbox.queueDerivedSaves(db, type)) }
        }
    }

    /// Starts converting this store's account to end-to-end encryption, once its server took
    /// the keys (docs/encryption.md §2.4): ids derived from content follow the account's id
    /// key `identity` (each renamed tag goes up under its new id once this device has fetched
    /// everything, its old one deleted: ``DerivedIdentity/Adoption/converting``), every
    /// record the server holds is queued to go up again, sealed this time (a derived save), and
    /// a pass seals the note versions the server keeps, then has it delete what it still
    /// holds in plain text. Returns how many records were queued.
    @discardableResult
    public func beginEncryptionConversion(identity: KeyedIdentity) throws(NoteTakerError) -> Int {
        try write { db in
            try DerivedIdentity.adopt(db, keyed: identity, .converting)
            try Self.keep(ResealingPass(below: 1), db)
            return try RecordType.parentsFirst.reduce(0) { queued, type in queued + (try Outbox.queueDerivedSaves(db, type)) }
        }
    }

    /// Where sealing the server's versions and files again is; `nil` when there is nothing to do.
    package func resealingPass() throws(NoteTakerError) -> ResealingPass? {
        try read { db in try Self.pass(db) }
    }

    /// Notes that `pass` went through a stretch whose page said `next`; returns the pass as it
    /// now stands (`nil`: done). A pass begun since (another rotation) is left as it is, and
    /// returned. A conversion's pass done (the server deleted its plaintext) forgets the records
    /// held here in plain text.
    @discardableResult
    package func noteResealing(_ pass: ResealingPass, next: String?) throws(NoteTakerError) -> ResealingPass? {
        try write { db in
            let current = try Self.pass(db)
            guard current?.below == pass.below else { return current }
            // As stored: a rotation since may wait for it (``ResealingPass/thenBelow``).
            var stored = pass
            stored.thenBelow = current?.thenBelow
            let advanced = stored.advanced(to: next)
            // The server holds nothing in plain text now: what is held so here is out of date.
            if pass.stage == .plaintext, advanced?.below != pass.below {
                try SyncQuarantine.forgetPlaintext(db)
                try ForgottenSaves.forget(db)
                try ConvertedTags.forgetAll(db)
                try SealedBeforeRestore.forget(db)
            }
            try Self.keep(advanced, db)
            return advanced
        }
    }

    /// Starts `pass` over from its first stage, at the next sync (unless a pass begun since
    /// replaced it): a conversion whose last step found a record not sealed yet.
    package func restartResealing(_ pass: ResealingPass) throws(NoteTakerError) {
        try write { db in
            guard let current = try Self.pass(db), current.below == pass.below else { return }
            try Self.keep(ResealingPass(below: pass.below, thenBelow: current.thenBelow), db)
        }
    }

    /// Whether a conversion's last step waits for tags under their new ids: that notes here
    /// name (``UnresolvedReferences/waitsForKeyedTag(_:)``), or that the server still holds
    /// under their old ids (``RenamedTags/waitsForHeldTags(_:)``).
    package func waitsForRenamedTags() throws(NoteTakerError) -> Bool {
        try read { db in try UnresolvedReferences.waitsForKeyedTag(db) || RenamedTags.waitsForHeldTags(db) }
    }

    /// The hashes of the attachment files this device's notes name.
    package func attachmentHashes() throws(NoteTakerError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT contentHash FROM attachment") }
    }

    static func pass(_ db: Database) throws -> ResealingPass? {
        try SyncState.get(db, .resealingPass).flatMap { try? JSONDecoder().decode(ResealingPass.self, from: Data($0.utf8)) }
    }

    static func keep(_ pass: ResealingPass?, _ db: Database) throws {
        try SyncState.set(db, .resealingPass, try pass.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) })
    }
}
