import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Other accounts' public identity keys as this device first met them (docs/sharing.md §2,
/// "Keys that change"): each later sight is compared with them, and a change is flagged until
/// the person looking confirms it (having compared the new safety number).
enum KnownIdentities {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_known_identity (
                account TEXT PRIMARY KEY NOT NULL,
                agreement TEXT NOT NULL,
                signing TEXT NOT NULL,
                keptAt REAL NOT NULL
            ) WITHOUT ROWID
            """)
    }
}

/// What a device makes of another account's identity keys when it meets them.
public enum IdentitySighting: Sendable, Equatable {
    /// Met for the first time: kept from now on.
    case first
    /// The keys this device kept.
    case same
    /// Not the keys this device kept (since `keptAt`): the person reset their account, or the
    /// server lies. Nothing is kept until confirmed.
    case changed(keptAt: Date)
    /// Changed, and kept now in their place: the person confirmed them.
    case confirmed
}

extension NoteStore {
    /// Compares `identity`, the public keys the server gives for `account`, with the ones
    /// this device kept for it, keeping them when it met none before.
    public func meetIdentity(of account: String, _ identity: AccountIdentity) throws(NoteTakerError) -> IdentitySighting {
        try write { db in
            let name = account.lowercased()
            let kept = try Row.fetchOne(db, sql: "SELECT agreement, signing, keptAt FROM sync_known_identity WHERE account = ?", arguments: [name])
            guard let kept else {
                try Self.keep(db, identity, for: name, at: sources.now)
                return .first
            }
            if kept["agreement"] == identity.agreement, kept["signing"] == identity.signing { return .same }
            return .changed(keptAt: kept.date("keptAt") ?? .distantPast)
        }
    }

    /// Every account's identity keys this device kept, by account.
    public func knownIdentities() throws(NoteTakerError) -> [String: AccountIdentity] {
        try read { db in
            var kept: [String: AccountIdentity] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT account, agreement, signing FROM sync_known_identity") {
                kept[row["account"]] = AccountIdentity(agreement: row["agreement"], signing: row["signing"])
            }
            return kept
        }
    }

    /// Keeps `identity` as `account`'s keys in place of any kept before: the person looking
    /// confirmed a change, having compared the new safety number.
    public func confirmIdentity(of account: String, _ identity: AccountIdentity) throws(NoteTakerError) {
        try write { db in try Self.keep(db, identity, for: account.lowercased(), at: sources.now) }
    }

    private static func keep(_ db: Database, _ identity: AccountIdentity, for account: String, at now: Date) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_known_identity (account, agreement, signing, keptAt) VALUES (?, ?, ?, ?)",
                       arguments: [account, identity.agreement, identity.signing, now.storageValue])
    }
}
