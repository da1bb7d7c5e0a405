import Foundation
import NoteTakerSyncProtocol

/// An account as the server stores it.
public struct StoredAccount: Sendable, Hashable {
    /// The storage's id for the account; every query is scoped by it.
    public var id: Int64
    /// The account's name.
    public var username: String
    /// The password's slow salted hash (see ``PasswordHasher``).
    public var passwordHash: String
    /// The bytes this account may use, when its operator set a quota of its own
    /// (`notetaker-server account quota`); `nil`: the server's `--quota-mb`.
    public var quotaBytes: Int64? = nil
    /// Whether the account is end-to-end encrypted (it has key material): it takes only
    /// sealed saves (docs/encryption.md §3.3).
    public var encrypted = false
    /// For a shared zone's holder (docs/sharing.md §3.7): the zone's id, whose members are
    /// told of its changes.
    public var zone: String? = nil
}

/// An account's key material as the storage keeps it: the KDF parameters on their own (a
/// log-in reads them before any session) and the whole ``AccountKeys``, each as JSON.
public struct StoredKeys: Sendable, Hashable {
    /// ``KDFParameters``' JSON.
    public var kdf: String
    /// ``AccountKeys``' JSON.
    public var material: String

    /// Key material as JSON.
    public init(kdf: String, material: String) {
        self.kdf = kdf
        self.material = material
    }
}

/// How an account stretches its password, as the storage knows it.
public enum AccountKDF: Sendable, Hashable {
    /// No account has the name.
    case noAccount
    /// The account has no key material: its password is sent as it is.
    case unencrypted
    /// The account's ``KDFParameters``, as JSON.
    case parameters(String)
}

/// An account as `notetaker-server account list` shows it.
public struct AccountSummary: Sendable, Hashable {
    /// The storage's id for the account.
    public var id: Int64
    /// The account's name.
    public var username: String
    /// When it was made (seconds since 1970).
    public var createdAt: Double
    /// The bytes it uses: records, files, kept answers and earlier versions.
    public var usedBytes: Int64
    /// Its own quota, if one was set.
    public var quotaBytes: Int64?
    /// Its devices logged in.
    public var sessions: Int
    /// When one of them last made a request, if any is logged in.
    public var lastUsedAt: Double?
}

/// A session as stored: its account, and when it began and was last used (seconds since 1970).
public struct StoredSession: Sendable, Hashable {
    /// The account it belongs to.
    public var account: StoredAccount
    /// When it was made (a log-in).
    public var createdAt: Double
    /// When it last answered a request, to within ``SessionLifetime/touchInterval``.
    public var lastUsedAt: Double
}

/// A session as its account's list shows it.
public struct SessionEntry: Sendable, Hashable {
    /// The hash its token is stored under.
    public var tokenHash: String
    /// The name the device gave when it logged in.
    public var deviceName: String?
    /// When it was made (a log-in).
    public var createdAt: Double
    /// When it last answered a request.
    public var lastUsedAt: Double
}

/// The changes one device made itself, up to a sequence: a fetch leaves them out.
public struct AuthoredChanges: Sendable, Hashable {
    /// The device's id, as it sends it with its batches.
    public var device: UUID
    /// The newest of its own changes the device holds.
    public var through: Int64

    /// Creates the description.
    public init(device: UUID, through: Int64) {
        self.device = device
        self.through = through
    }
}

/// A page of records from the storage, and whether more follow.
public struct ChangesPage: Sendable {
    /// The records, oldest change first.
    public var records: [SyncRecord]
    /// Whether records after these were left for the next page.
    public var moreComing: Bool

    /// Creates a page.
    public init(records: [SyncRecord], moreComing: Bool) {
        self.records = records
        self.moreComing = moreComing
    }
}

/// Where the server keeps accounts, sessions, records and asset ownership.
///
/// Every record and asset operation takes the authenticated account's id, never an id from
/// a request. SQLite is the default (``SQLiteSyncStorage``); a PostgreSQL implementation can
/// follow behind this protocol without touching the routes.
public protocol SyncStorage: Sendable {
    /// Identifies this database; stays the same for its whole life.
    var serverId: String { get }
    /// Reads once, to tell whether the storage answers (the health check); throws when it does not.
    func check() async throws

    /// Creates an account, with its key material when it is end-to-end encrypted; fails with
    /// ``APIErrorCode/accountExists`` when the name is taken.
    func createAccount(username: String, passwordHash: String, keys: StoredKeys?) async throws -> StoredAccount
    /// The account with this name (compared case-insensitively), if any.
    func account(named username: String) async throws -> StoredAccount?
    /// Replaces an account's password hash and, when `keys` is given, its key material, in one
    /// transaction.
    func setPasswordHash(_ hash: String, keys: StoredKeys?, account: Int64) async throws
    /// How the account of this name stretches its password: ``AccountKDF``.
    func kdf(ofAccountNamed username: String) async throws -> AccountKDF
    /// An account's key material (``AccountKeys``'s JSON), or `nil` when it has none.
    func keys(account: Int64) async throws -> String?
    /// Keeps the hash of an account's recovery secret (docs/encryption.md §2.5), replacing any.
    func setRecoveryHash(_ hash: String, account: Int64) async throws
    /// Replaces an encrypted account's recovery code in one write: its secret's hash, and the
    /// `wrappedByRecovery` of its key material (nothing else of it).
    func replaceRecovery(hash: String, wrappedByRecovery: String, account: Int64) async throws
    /// Appends a wrapped data key to an encrypted account's key material as `version`, in one
    /// write, only while it holds `version - 1` keys; returns whether it did.
    func appendDataKey(_ wrapped: String, version: Int, account: Int64) async throws -> Bool
    /// Sets an encrypted account's identity keys (``IdentityKeys``'s JSON) in its key material,
    /// in one write, only while it has none; returns whether it did.
    func setIdentity(_ json: String, account: Int64) async throws -> Bool
    /// The hash of an account's recovery secret, if it has one.
    func recoveryHash(account: Int64) async throws -> String?
    /// A secret of this database's own (64 hex digits), made once: the made-up login parameters
    /// of names no account has derive from it.
    func loginDecoySecret() async throws -> String
    /// Every account, by name.
    func accountSummaries() async throws -> [AccountSummary]
    /// Sets an account's own quota, or with `nil` returns it to the server's.
    func setQuota(_ bytes: Int64?, account: Int64) async throws
    /// Deletes an account with everything it holds (records, versions, sessions, kept answers,
    /// its claims on files), in one transaction; returns the hashes of the files no account
    /// holds any more, for their bytes to be removed.
    func deleteAccount(_ account: Int64) async throws -> [String]

    /// Stores a session token's hash for an account, with the name the device gave.
    func addSession(tokenHash: String, account: Int64, deviceName: String?) async throws
    /// Gives a session another device name (`nil`: none).
    func renameSession(tokenHash: String, deviceName: String?) async throws
    /// Every session of an account.
    func sessions(account: Int64) async throws -> [SessionEntry]
    /// The session a token's hash names, with its account, if it exists.
    func session(hash: String) async throws -> StoredSession?
    /// Notes that a session answered a request at `time`.
    func touchSession(tokenHash: String, at time: Double) async throws
    /// Notes that a session fetched changes after `sequence`, having applied those up to it
    /// (a later position than any noted before; see ``TombstoneRetention``).
    func sessionFetched(tokenHash: String, through sequence: Int64) async throws
    /// Ends one session.
    func removeSession(tokenHash: String) async throws
    /// Ends every session of an account but one.
    func removeSessions(account: Int64, except tokenHash: String) async throws

    /// The account's newest change sequence number (0 when it holds nothing).
    func latestSequence(account: Int64) async throws -> Int64
    /// The mark of the batch that wrote the account's change `sequence` (see
    /// ``HistoryMark``): that of the first batch at or after it; `nil` when none is.
    func historyMark(account: Int64, at sequence: Int64) async throws -> String?
    /// Keeps a sealed published page (docs/sharing.md §5.3) for the account, in place of the
    /// one of the same id it held; ``SyncServerError/pageTaken`` when another account holds
    /// that id, ``SyncServerError/quotaExceeded(used:quota:)`` when it would outgrow `quota`.
    func publishPage(id: String, blob: Data, account: Int64, quota: Int64) async throws
    /// The account's published pages, oldest first.
    func publishedPages(account: Int64) async throws -> [PublishedPageSummary]
    /// Deletes one of the account's published pages; `false` when it holds none of that id.
    func unpublishPage(id: String, account: Int64) async throws -> Bool
    /// A published page's sealed blob, whoever asks; `nil` when none has that id.
    func publishedPage(id: String) async throws -> Data?
    /// Whether a page is published at `id`.
    func publishedPageExists(id: String) async throws -> Bool
    /// Keeps a share's members record (docs/sharing.md §3.2): makes the zone at epoch 1, or
    /// replaces its record at the next epoch, the members' rows following it (a member no
    /// longer named loses its row and its key boxes; one newly named has not accepted).
    func putShareMembers(_ share: StoredShareMembers) async throws -> ShareWrite
    /// The share's members record, when `account` is a member (invited, or accepted): the
    /// current one, or the one of `epoch` (`nil` when the share never had that epoch).
    func shareMembers(zone: String, epoch: Int?, account: Int64) async throws -> SignedShareMembers?
    /// What `account` may reach of the share, or `nil` when it is not a member.
    func zoneAccess(zone: String, account: Int64) async throws -> ZoneAccess?
    /// The shares `account` is a member of, invitations included, by zone.
    func shares(account: Int64) async throws -> [ShareSummary]
    /// Keeps key boxes (each ``ZoneKeyBox``'s JSON) for members of the share, in place of
    /// those of the same version and member; a box for an account no longer a member is
    /// dropped.
    func putZoneKeyBoxes(zone: String, boxes: [(account: Int64, version: Int, box: String)]) async throws
    /// The key boxes of the share for `account`, by version (each ``ZoneKeyBox``'s JSON).
    func zoneKeyBoxes(zone: String, account: Int64) async throws -> [String]
    /// Notes that `account` accepted the share; `false` when it is not a member.
    func acceptShare(zone: String, account: Int64) async throws -> Bool
    /// Ends `account`'s membership (its row and key boxes go); `false` when it was none.
    func leaveShare(zone: String, account: Int64) async throws -> Bool
    /// Deletes the share `owner` owns, with every member's row and box and its holder's
    /// records, versions and files; answers the files no other account holds (to delete),
    /// or `nil` when it owns no share of that id.
    func deleteShare(zone: String, owner: Int64) async throws -> [String]?
    /// The accounts that accepted the share (its owner included): those told of its changes.
    func zoneMembers(zone: String) async throws -> [Int64]
    /// How many shares there are in all, and how many members they have (owners included).
    func shareCounts() async throws -> (shares: Int, members: Int)
    /// The newest change of a tombstone the account's purges removed (0 when none was): a
    /// device that fetched less far may have missed a deletion.
    func purgedThrough(account: Int64) async throws -> Int64
    /// Removes the tombstones `horizon` allows, in every account, freeing their bytes. The
    /// answers kept for batches sent again stay: one given again after a purge tells of the
    /// deletions of the records it names that the server no longer holds (``KeptAnswer``).
    /// The marks of batches whose answers are forgotten (``BatchPlan/markerRetention``) older
    /// than the horizon's go.
    func purgeTombstones(_ horizon: PurgeHorizon) async throws -> PurgeSummary
    /// Records changed after sequence `after`, oldest first, at most `limit` and about
    /// `maxBytes` of fields (at least one), leaving out those whose current version a device
    /// made and already holds (`skipping`).
    func changes(account: Int64, after: Int64, skipping: AuthoredChanges?, limit: Int, maxBytes: Int) async throws -> ChangesPage
    /// Applies a batch atomically (or answers it again, ``KeptAnswer``, when its request id was
    /// seen within the answers' 30 days); `fieldsJSON` as in ``BatchPlan/init(_:fieldsJSON:sequence:purgedThrough:current:)``.
    func modify(account: Int64, request: ModifyRequest, fieldsJSON: [String?], quota: Int64) async throws -> ModifyResponse
    /// The earlier versions of the account's note `recordId`, newest first; `nil` when the
    /// account holds no such note.
    func versions(account: Int64, recordId: UUID) async throws -> [RecordVersion]?
    /// A stretch of the account's kept versions after `after` (all from the start when `nil`),
    /// at most `limit`, in their order: note id, then change.
    func keptVersions(account: Int64, after: Resealing.Cursor?, limit: Int) async throws -> [Resealing.Stored]
    /// Replaces the kept version at `version` with `fields` (JSON), in one transaction, when
    /// ``Resealing/accepts(replacing:with:)`` allows it; the account's usage follows
    /// the size.
    func replaceVersion(account: Int64, at version: Resealing.Cursor, fields: RecordFields) async throws -> Resealing.Replacement
    /// Keeps `versions` (the time each was replaced, its fields as JSON) of the account's note
    /// `recordId`, which moved here from another zone: numbered below every version the note
    /// has (below zero, counting down: no change of this account is ever numbered so), but
    /// for those of a time the note keeps a version of already; thinned as devices thin, in
    /// one transaction, the account's usage following. Returns how many were kept; `nil` when
    /// the account holds no such note (or only its deletion). ``SyncServerError/quotaExceeded(used:quota:)``
    /// past `quota`, keeping none.
    func addVersions(account: Int64, recordId: UUID, _ versions: [(replacedAt: Double, fields: String)], quota: Int64) async throws -> Int?
    /// How many records the account holds and the bytes it uses (records, assets, kept
    /// answers and note versions).
    func usage(account: Int64) async throws -> (records: Int, bytes: Int64)

    /// Whether the account holds the asset with this SHA-256.
    func hasAsset(hash: String, account: Int64) async throws -> Bool
    /// Records that the account holds an asset, if its quota allows.
    func addAsset(hash: String, size: Int64, account: Int64, quota: Int64) async throws
    /// A stretch of the addresses of the assets the account holds after `after` (all from
    /// the start when `nil`), at most `limit`, in order.
    func assets(account: Int64, after: String?, limit: Int) async throws -> [String]
    /// How many accounts hold the asset at this address.
    func holders(ofAsset hash: String) async throws -> Int

    /// How many of the account's records (deletions aside) hold fields that are not sealed:
    /// what a conversion to end-to-end encryption has left to send (docs/encryption.md §2.4).
    /// Without `unkeyedTags`, tags under ids derived from their names unkeyed (a version 5
    /// UUID) do not count: the conversion's last step deletes them, sealed or not.
    func unsealedRecordCount(account: Int64, unkeyedTags: Bool) async throws -> Int
    /// Deletes, in one transaction, the account's kept note versions whose fields are not
    /// sealed, its tags under ids derived from their names unkeyed (a version 5 UUID: their
    /// tombstones, and a copy a batch whose answer was lost left, which every device holds
    /// under its keyed id), and its kept batch answers (which name such ids); the usage follows.
    func dropPlaintextRows(account: Int64) async throws -> PlaintextDropped
    /// Leaves the bytes of rows deleted so far readable nowhere in the storage's own files,
    /// where it can.
    func eraseDeletedBytes() async throws
    /// Forgets that the account holds the asset at `hash`; the usage follows. Returns whether
    /// no account holds it any more (its bytes may go).
    func dropAsset(hash: String, account: Int64) async throws -> Bool
}
