import Crypto
import Foundation
import GRDB
import NoteTakerSyncProtocol

/// How this store derives the ids of things named by their content (docs/encryption.md §4):
/// a tag's from its name, an import's notes, folders and files from their paths and bytes.
///
/// A store whose account is end-to-end encrypted keys them with the account's id key, kept
/// here (as the account's keys are beside the store, readable by its owner only): two devices
/// of the account agree on "Work", and the server cannot test a guess. Any other store derives
/// them as before, from a plain hash. The key stays after a log-out, so that a tag made then
/// already has the id the account gives it; logging in to another account adopts its rule.
public struct DerivedIdentity: Sendable {
    /// The keyed rule, or `nil` for the plain one.
    let keyed: KeyedIdentity?

    /// The id of an import's note, folder or file named `name` (its path, its content's hash),
    /// the same at every import of the same thing, so that importing it again finds it.
    public func importedID(_ name: String) -> UUID {
        if let keyed { return keyed.id(kind: "import", text: name) }
        return UUID.nameBased(Array(SHA256.hash(data: Data(name.utf8))), version: 0x80)
    }

    /// The id of the tag named `name`: the same on every device of the account.
    public func tagID(_ name: String) -> UUID {
        guard let keyed else { return Tag.id(forName: name) }
        return keyed.id(kind: "tag", text: Tag.normalizedName(name))
    }

    /// The rule this store follows now.
    static func current(_ db: Database) throws -> DerivedIdentity {
        guard let text = try SyncState.get(db, .identityKey), let key = Data(base64Encoded: text), key.count == 32 else {
            return DerivedIdentity(keyed: nil)
        }
        return DerivedIdentity(keyed: KeyedIdentity(idKey: SymmetricKey(data: key)))
    }

    /// How a store that adopts a rule renames its tags, by what its server holds.
    enum Adoption {
        /// A store that starts afresh with an account (nothing here known to its server yet):
        /// the caller then queues every record to go up
        /// (``NoteStore/requeueEverything(_:keepingDeletions:)``).
        case afresh
        /// The device converting its account to end-to-end encryption (docs/encryption.md
        /// §2.4), or taking up a conversion another device began and left unfinished: a tag the
        /// server held under its old id goes up under its new one once this device has fetched
        /// everything, unless it arrived (another device sent it), or its old id's deletion did
        /// (``RenamedTags``); a tag never sent goes up at once, derived. Sent before a fetch, a
        /// tag deleted elsewhere since this device last synced, its tombstone purged while it
        /// was away, would come back (converting seed 593).
        case converting
        /// Another device of an account converted meanwhile: the converting device sent the
        /// renamed tags; a change waiting here of a tag's old id waits as a change of its new one.
        case following
    }

    /// Follows `keyed` (an account's id key, or `nil` for an account without encryption) from
    /// now on, and gives every tag here the id it has under it: the tag's links follow it.
    static func adopt(_ db: Database, keyed: KeyedIdentity?, _ adoption: Adoption = .afresh) throws {
        try SyncState.set(db, .identityKey, keyed?.keyBytes.base64EncodedString())
        if adoption == .afresh {
            try RenamedTags.forgetAll(db)
            try ConvertedTags.forgetAll(db)
        }
        // A batch in flight names the old ids, and went unanswered (its session ended): its
        // changes wait in the outbox still, and go up under the new ids instead.
        try PushBatch.forgetKeepingCreations(db)
        if adoption == .afresh {
            try ForgottenSaves.forget(db)
            try SealedBeforeRestore.forget(db)
        }
        // A pull cut short before the account's encryption left pages staged in plain text:
        // from now on they would reach the store unopened (converting seed 3,000,126).
        if adoption != .afresh { try SyncQuarantine.holdStagedPlaintext(db) }
        let identity = DerivedIdentity(keyed: keyed)
        // Names are unique, and so are the ids made from them: no rename meets another tag.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        var renamed: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name, changeTag FROM tag") {
            let old: String = row["id"]
            let new = identity.tagID(row["name"]).key
            guard new != old else { continue }
            renamed[old] = new
            try db.execute(sql: "UPDATE tag SET id = ? WHERE id = ?", arguments: [new, old])
            try db.execute(sql: "UPDATE noteTag SET tagId = ? WHERE tagId = ?", arguments: [new, old])
            switch adoption {
            case .afresh:
                try db.execute(sql: "DELETE FROM outbox WHERE recordType = 'tag' AND recordId IN (?, ?)", arguments: [old, new])
            case .converting, .following:
                // The new id is a record the server holds no version of here. Its base stays: the
                // version the server sends under the new id is the old one's, sealed again, and a
                // change waiting here (a new case of the name) merges with it as with the old.
                try db.execute(sql: "UPDATE tag SET changeTag = NULL WHERE id = ?", arguments: [new])
                try db.execute(sql: "UPDATE outbox SET recordId = ? WHERE recordType = 'tag' AND recordId = ?", arguments: [new, old])
                let synced = row["changeTag"] as String?
                if let synced { try ConvertedTags.note(db, new, carrying: synced) }
                if adoption == .following {
                    // The converting device sent it under the new id, unless it was deleted there.
                    if synced != nil { try RenamedTags.note(db, new, .following) }
                    continue
                }
                if let synced {
                    try db.execute(sql: "INSERT OR REPLACE INTO sync_deleted (recordType, recordId, changeTag) VALUES ('tag', ?, ?)",
                                   arguments: [old, synced])
                    try RenamedTags.note(db, new, .converting, oldId: old)
                } else {
                    // Derived: made by the software, it yields to a deletion of the tag made elsewhere since.
                    try Outbox.record(db, .tag, new, derived: true)
                }
            }
        }
        if adoption != .afresh { renamed.merge(try RenamedTags.noteDeletions(db, under: identity)) { kept, _ in kept } }
        try renameInNoteBases(db, renamed)
    }

    /// Gives the renamed tags, and those deleted here whose deletion waits, their new ids in
    /// the bases of the notes that keep a copy of theirs (edited since they last synced): a
    /// note's merge would otherwise read each tag it carries as added here, and one taken off
    /// it elsewhere would come back; and a version naming a tag deleted here by its new id
    /// would put it back on the note, were the tag made here again (converting seed
    /// 3,007,204). (A note whose base is itself as stored reads its tags as they now are.)
    private static func renameInNoteBases(_ db: Database, _ renamed: [String: String]) throws {
        guard !renamed.isEmpty else { return }
        let rename = { (text: String) in renamingTags(text, renamed) }
        for row in try Row.fetchAll(db, sql: "SELECT noteId, tagIds FROM sync_note_base") {
            let tagIds: String = row["tagIds"]
            let new = rename(tagIds)
            if new != tagIds { try db.execute(sql: "UPDATE sync_note_base SET tagIds = ? WHERE noteId = ?", arguments: [new, row["noteId"]]) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, syncBase FROM note WHERE syncBase <> ''") {
            let base: String = row["syncBase"]
            let new = rename(base)
            if new != base { try db.execute(sql: "UPDATE note SET syncBase = ? WHERE id = ?", arguments: [new, row["id"]]) }
        }
    }

    /// `text` (a record's fields as JSON) with each tag id `renamed` names replaced.
    static func renamingTags(_ text: String, _ renamed: [String: String]) -> String {
        renamed.reduce(text) { $0.replacingOccurrences(of: "\"\($1.key)\"", with: "\"\($1.value)\"") }
    }

    /// The new id of each tag here by its old one, when this store follows keyed ids: the id
    /// its name had unkeyed.
    static func oldTagIDs(_ db: Database) throws -> [String: String] {
        guard try current(db).keyed != nil else { return [:] }
        var renamed: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM tag") {
            renamed[Tag.id(forName: row["name"]).key] = row["id"]
        }
        return renamed
    }

    /// A note's `fields` from the server with each tag it names by an unkeyed id (a version 5
    /// UUID) of a tag held here under its keyed id renamed to that; `nil` when none is. A device
    /// that took a conversion up holding a note whose tag it never received (its reference
    /// waited under the old id) sends the note sealed naming the old id: read as it is, the
    /// tag would seem taken off the note here, and the old id goes at the conversion's last step.
    /// (Its caller looks first whether this store follows keyed ids.)
    static func keyingOldTagIDs(_ db: Database, in fields: RecordFields) throws -> RecordFields? {
        let field = NoteRecord.Field.tagIds.rawValue
        guard let ids = fields[field]?.strings, ids.contains(where: isUnkeyed) else { return nil }
        let renamed = try oldTagIDs(db)
        guard ids.contains(where: { renamed[$0] != nil }) else { return nil }
        var keyed = fields
        keyed[field] = .array(ids.map { .string(renamed[$0] ?? $0) })
        return keyed
    }

    /// Whether `id` is a name-based id made without a key (a version 5 UUID).
    private static func isUnkeyed(_ id: String) -> Bool {
        id.utf8.count == 36 && id.utf8[id.utf8.index(id.utf8.startIndex, offsetBy: 14)] == UInt8(ascii: "5")
    }

    /// Whether `keyed` is the rule this store follows now.
    static func follows(_ db: Database, keyed: KeyedIdentity?) throws -> Bool {
        try current(db).keyed?.keyBytes == keyed?.keyBytes
    }
}

extension NoteStore {
    /// The rule this store derives ids by now (see ``DerivedIdentity``): an import asks once.
    public func derivedIdentity() throws(NoteTakerError) -> DerivedIdentity {
        try read { db in try DerivedIdentity.current(db) }
    }
}

extension UUID {
    /// A UUID from the first 16 bytes of a hash, with the RFC 9562 `version` nibble and variant.
    static func nameBased(_ digest: [UInt8], version: UInt8) -> UUID {
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | version
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
