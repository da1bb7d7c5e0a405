import Foundation
import GRDB

/// The engine's remembered values (`sync_state`): account, server, tokens, settings.
enum SyncState {
    enum Key: String {
        /// Certificates the account's server is trusted by besides the system's (PEM text).
        case trustedCertificates
        case serverURL, username, allowInsecure, serverId, changeToken, inboxToken, inflight, mergePolicy, autoSync, lastSyncedAt
        case deviceId, deviceHome, authoredToken, deviceName, inflight2
        /// Set while this device heals from a server restored from an older copy (see
        /// `NoteStore+RestoredServer.swift`); the last such event, for `sync status`.
        case healingRestoredServer, restoredServer
        /// Set while this device catches up with a restored server that still holds its change
        /// token, before the heal (see `NoteStore+RestoredServer.swift`): the change tag it had
        /// fetched through then (``SyncedThrough``).
        case catchingUpBeforeHeal
        /// The highest change tag an answer or a fetched page brought here, and that mark when
        /// this device last kept a fetched page's token (``SyncedThrough``).
        case syncedThrough, fetchedThrough
        /// Set while this device lists everything on a server that purged deletions it had
        /// not fetched (see `NoteStore+PurgedTombstones.swift`).
        case listingAfterPurge
        /// The last cycle that failed, until one completes (`FailedSyncCycle`, as JSON).
        case failedCycle
        /// The accounts this device has known end-to-end encrypted (a JSON array of
        /// ``NoteStore/accountKey(serverURL:username:)``), kept after a log-out: the server
        /// cannot later pass one for unencrypted and be sent its password.
        case encryptedAccounts
        /// The id key of the end-to-end encrypted account whose rule this store derives ids by
        /// (``DerivedIdentity``; base64), kept after a log-out.
        case identityKey
        /// Where sealing the server's kept note versions and files again is, after this device
        /// rotated the account's keys (``ResealingPass``, as JSON); absent when there is nothing to do.
        case resealingPass
        /// The saves of the batches forgotten at a conversion to encryption, until it is done
        /// (``ForgottenSaves``).
        case forgottenSaves
        /// The fields of the edits among them, until their records next merge or sync
        /// (``ForgottenSaves/takeEdit(_:_:_:)``).
        case forgottenEdits
    }

    static func get(_ db: Database, _ key: Key) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = ?"), arguments: [key.rawValue])
    }

    static func set(_ db: Database, _ key: Key, _ value: String?) throws {
        if let value {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)").execute(arguments: [key.rawValue, value])
        } else {
            try db.cachedStatement(sql: "DELETE FROM sync_state WHERE key = ?").execute(arguments: [key.rawValue])
        }
    }
}

/// The sync settings a user chooses.
public struct SyncSettings: Sendable, Equatable, Codable {
    /// The sync server, once an account is set up.
    public var serverURL: URL?
    /// The account's user name.
    public var username: String?
    /// Whether `serve` and `sync --watch` sync on their own (on by default).
    public var autoSync: Bool
    /// The merge policy's name (see ``MergePolicy/names``).
    public var mergePolicy: String
    /// When the last sync completed.
    public var lastSyncedAt: Date?
    /// Whether plain HTTP to another machine was allowed at login (`--insecure`).
    public var allowInsecure: Bool
    /// Whether certificates were given at login (`--ca-file`) to trust the server by.
    public var trustsOwnCertificates: Bool = false
    /// The name this device goes by in notes' histories on every device (the machine's host
    /// name unless set).
    public var deviceName: String
    /// Whether the account is end-to-end encrypted (docs/encryption.md): this device seals
    /// what it sends and opens what it receives.
    public var encrypted: Bool = false

    /// Whether an account is set up.
    public var hasAccount: Bool { serverURL != nil && username != nil }

    /// Encodes every field, `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serverURL?.absoluteString, forKey: .serverURL)
        try container.encode(username, forKey: .username)
        try container.encode(autoSync, forKey: .autoSync)
        try container.encode(mergePolicy, forKey: .mergePolicy)
        try container.encode(lastSyncedAt, forKey: .lastSyncedAt)
        try container.encode(allowInsecure, forKey: .allowInsecure)
        try container.encode(trustsOwnCertificates, forKey: .trustsOwnCertificates)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(encrypted, forKey: .encrypted)
    }
}

extension NoteStore {
    /// The sync settings of this store.
    public func syncSettings() throws(NoteTakerError) -> SyncSettings {
        try read { db in
            SyncSettings(
                serverURL: try SyncState.get(db, .serverURL).flatMap(URL.init(string:)),
                username: try SyncState.get(db, .username),
                autoSync: try SyncState.get(db, .autoSync) != "off",
                mergePolicy: try SyncState.get(db, .mergePolicy) ?? MergePolicy.localWins.name,
                lastSyncedAt: try SyncState.get(db, .lastSyncedAt).flatMap(Double.init).map(Date.init(timeIntervalSince1970:)),
                allowInsecure: try SyncState.get(db, .allowInsecure) == "yes",
                trustsOwnCertificates: try SyncState.get(db, .trustedCertificates) != nil,
                deviceName: try SyncDevice.name(db),
                encrypted: try Self.encryptedAccounts(db).contains(Self.accountKey(
                    serverURL: SyncState.get(db, .serverURL).flatMap(URL.init(string:)), username: SyncState.get(db, .username))))
        }
    }

    /// How an account is named among those this device knows encrypted: its server and its
    /// name, lowercased.
    static func accountKey(serverURL: URL?, username: String?) -> String {
        "\(serverURL?.absoluteString ?? "")|\(username?.lowercased() ?? "")"
    }

    private static func encryptedAccounts(_ db: Database) throws -> Set<String> {
        Set(try SyncState.get(db, .encryptedAccounts).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? [])
    }

    /// Whether this device has known the account `username` on `serverURL` end-to-end
    /// encrypted, logged in now or not.
    public func knowsEncrypted(serverURL: URL, username: String) throws(NoteTakerError) -> Bool {
        try read { db in try Self.encryptedAccounts(db).contains(Self.accountKey(serverURL: serverURL, username: username)) }
    }

    /// The PEM text of the certificates given at login to trust the server by, if any.
    public func syncTrustedCertificatesPEM() throws(NoteTakerError) -> String? {
        try read { db in try SyncState.get(db, .trustedCertificates) }
    }

    /// Turns automatic sync on or off.
    public func setAutoSync(_ on: Bool) throws(NoteTakerError) {
        try write { db in try SyncState.set(db, .autoSync, on ? "on" : "off") }
    }

    /// Names this device in notes' histories: the versions of a note written here show this
    /// name, here and on the other devices of the account. An empty name goes back to the
    /// machine's host name.
    public func setDeviceName(_ name: String) throws(NoteTakerError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= SyncDevice.maximumNameLength, !trimmed.contains(where: \.isNewline) else {
            throw .invalidInput(Wording("deviceNameInvalid", ["maximum": SyncDevice.maximumNameLength]))
        }
        try write { db in try SyncState.set(db, .deviceName, trimmed.isEmpty ? nil : trimmed) }
    }

    /// Chooses the merge policy by name (`local-wins`, `server-wins`, `last-writer-wins`).
    public func setMergePolicy(_ name: String) throws(NoteTakerError) {
        guard MergePolicy.named(name) != nil else {
            throw .invalidInput(Wording("unknownMergePolicy", ["name": name, "choices": MergePolicy.names.joined(separator: ", ")]))
        }
        try write { db in try SyncState.set(db, .mergePolicy, name) }
    }

    /// Records the account this store syncs with (after a login or registration). Another
    /// server or account than before starts afresh: every record here is queued to go up
    /// to it, and nothing is deleted.
    ///
    /// `trustedCertificatesPEM` are certificates to trust the server by besides the system's
    /// (a private authority's, or the server's own self-signed one); `nil` trusts the system's only.
    ///
    /// An end-to-end encrypted account comes with its `identity` (its id key): it is remembered
    /// as such for good (``knowsEncrypted(serverURL:username:)``), and a store starting afresh
    /// with an account derives ids by its rule (``DerivedIdentity``), its tags' included.
    public func setSyncAccount(
        serverURL: URL, username: String, allowInsecure: Bool, trustedCertificatesPEM: String? = nil, identity: KeyedIdentity? = nil
    ) throws(NoteTakerError) {
        try write { db in
            let sameAccount = try SyncState.get(db, .serverURL) == serverURL.absoluteString && SyncState.get(db, .username) == username
            if !sameAccount {
                try DerivedIdentity.adopt(db, keyed: identity)
                try Self.requeueEverything(db)
            } else if identity != nil, try !DerivedIdentity.follows(db, keyed: identity) {
                // The account was converted to end-to-end encryption by another device.
                try DerivedIdentity.adopt(db, keyed: identity, .following)
            }
            try SyncState.set(db, .serverURL, serverURL.absoluteString)
            try SyncState.set(db, .username, username)
            try SyncState.set(db, .allowInsecure, allowInsecure ? "yes" : nil)
            try SyncState.set(db, .trustedCertificates, trustedCertificatesPEM)
            if identity != nil {
                let known = try Self.encryptedAccounts(db).union([Self.accountKey(serverURL: serverURL, username: username)])
                try SyncState.set(db, .encryptedAccounts, String(decoding: try JSONEncoder().encode(known.sorted()), as: UTF8.self))
            }
        }
    }

    /// Forgets the account (after a logout); local notes stay, and so do pending changes.
    public func clearSyncAccount() throws(NoteTakerError) {
        try write { db in
            try SyncState.set(db, .serverURL, nil)
            try SyncState.set(db, .username, nil)
            try SyncState.set(db, .allowInsecure, nil)
            try SyncState.set(db, .trustedCertificates, nil)
        }
    }
}
