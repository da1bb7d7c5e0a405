import Foundation

/// The routes and limits of the sync API, version 1, shared by the server and the client.
public enum SyncAPI {
    /// The version prefix of every route.
    public static let version = "v1"

    /// An HTTP route of the API.
    public struct Endpoint: Sendable, Hashable {
        /// The HTTP method.
        public var method: String
        /// The path, with `{name}` for a parameter.
        public var path: String
    }

    /// The server's health and identity.
    public static let health = Endpoint(method: "GET", path: "/v1/health")
    /// This document: the OpenAPI description of the API.
    public static let openAPI = Endpoint(method: "GET", path: "/v1/openapi.json")
    /// Creates an account and logs in.
    public static let register = Endpoint(method: "POST", path: "/v1/accounts")
    /// The logged-in account's usage.
    public static let account = Endpoint(method: "GET", path: "/v1/accounts/current")
    /// Changes the password and logs out every other session.
    public static let changePassword = Endpoint(method: "PUT", path: "/v1/accounts/current/password")
    /// How to stretch a name's password before logging in (``LoginParameters``); no session needed.
    public static let loginParameters = Endpoint(method: "GET", path: "/v1/login-parameters")
    /// The logged-in account's key material (``AccountKeys``).
    public static let accountKeys = Endpoint(method: "GET", path: "/v1/accounts/current/keys")
    /// Keeps the logged-in account's recovery secret (``RecoverySetup``).
    public static let setRecovery = Endpoint(method: "PUT", path: "/v1/accounts/current/recovery")
    /// Appends a data key to the account's key material, rotating its keys (``DataKeyAddition``).
    public static let addDataKey = Endpoint(method: "POST", path: "/v1/accounts/current/data-keys")
    /// Keeps the account's identity keys, once (``IdentityAddition``).
    public static let addIdentity = Endpoint(method: "PUT", path: "/v1/accounts/current/identity")
    /// Another account's public identity keys, by its name (``AccountIdentity``).
    public static let userIdentity = Endpoint(method: "GET", path: "/v1/users/{name}/identity")
    /// The key material, for the recovery secret instead of a session (``RecoveryRequest``).
    public static let recoveryKeys = Endpoint(method: "POST", path: "/v1/accounts/recovery")
    /// A new password with its key material, for the recovery secret (``RecoveryRequest``).
    public static let recover = Endpoint(method: "PUT", path: "/v1/accounts/recovery")
    /// Logs in: a new bearer token.
    public static let login = Endpoint(method: "POST", path: "/v1/sessions")
    /// Logs out: revokes the token used.
    public static let logout = Endpoint(method: "DELETE", path: "/v1/sessions/current")
    /// Names the session asking (``SessionName``).
    public static let nameSession = Endpoint(method: "PUT", path: "/v1/sessions/current")
    /// The account's live sessions (``SessionList``).
    public static let sessions = Endpoint(method: "GET", path: "/v1/sessions")
    /// Ends one session of the account, by its ``SessionInfo/id``.
    public static let endSession = Endpoint(method: "DELETE", path: "/v1/sessions/{id}")
    /// Changes since a token (`?since=TOKEN&limit=N`).
    public static let changes = Endpoint(method: "GET", path: "/v1/changes")
    /// Applies a batch of saves and deletes.
    public static let modify = Endpoint(method: "POST", path: "/v1/records/modify")
    /// The earlier versions of a note record the server kept (``RecordVersionsResponse``).
    public static let recordVersions = Endpoint(method: "GET", path: "/v1/records/{id}/versions")
    /// Replaces a kept version with the same version sealed with a newer key (``ResealedVersion``).
    public static let resealVersion = Endpoint(method: "PUT", path: "/v1/records/{id}/versions")
    /// Keeps versions of a note that moved here from a shared zone (``MovedVersions``).
    public static let addVersions = Endpoint(method: "POST", path: "/v1/records/{id}/versions")
    /// The kept versions of many notes at once (``VersionsQuery``, ``VersionsOfNotes``).
    public static let notesVersions = Endpoint(method: "POST", path: "/v1/versions")
    /// The account's kept versions not sealed with a given data key or a newer one
    /// (`?sealedBelow=N&after=CURSOR`, ``KeptVersionsPage``).
    public static let keptVersions = Endpoint(method: "GET", path: "/v1/accounts/current/versions")
    /// The account's sealed files not sealed with a given data key or a newer one
    /// (`?sealedBelow=N&after=ADDRESS`, ``KeptFilesPage``); `PUT /v1/assets/{hash}?resealed=true`
    /// puts one back sealed again.
    public static let keptFiles = Endpoint(method: "GET", path: "/v1/accounts/current/files")
    /// Deletes what an account converted to end-to-end encryption still holds in plain text,
    /// once every record is sealed (``PlaintextDropped``).
    public static let dropPlaintext = Endpoint(method: "DELETE", path: "/v1/accounts/current/plaintext")
    /// Uploads an attachment file under its SHA-256.
    public static let uploadAsset = Endpoint(method: "PUT", path: "/v1/assets/{hash}")
    /// Whether the account holds an asset.
    public static let assetExists = Endpoint(method: "HEAD", path: "/v1/assets/{hash}")
    /// Downloads an asset.
    public static let downloadAsset = Endpoint(method: "GET", path: "/v1/assets/{hash}")
    /// Server-sent events: `changes` whenever the account's records change.
    public static let events = Endpoint(method: "GET", path: "/v1/events")
    /// The account's published pages (``PublishedPageSummary``).
    public static let publishedPages = Endpoint(method: "GET", path: "/v1/published")
    /// Puts a sealed page (docs/sharing.md §5): made, or replaced at the same id.
    public static let publishPage = Endpoint(method: "PUT", path: "/v1/published/{id}")
    /// Deletes one of the account's published pages.
    public static let unpublishPage = Endpoint(method: "DELETE", path: "/v1/published/{id}")
    /// A published page's sealed blob, to anyone (no session).
    public static let publishedPage = Endpoint(method: "GET", path: "/v1/published/{id}")
    /// The shares the account is a member of, invitations included (``ShareSummary``).
    public static let shares = Endpoint(method: "GET", path: "/v1/zones")
    /// Deletes a share, by its owner.
    public static let deleteShare = Endpoint(method: "DELETE", path: "/v1/zones/{zone}")
    /// Puts a share's members record, by its owner (``SignedShareMembers``).
    public static let putShareMembers = Endpoint(method: "PUT", path: "/v1/zones/{zone}/members")
    /// A share's members record, to a member.
    public static let shareMembers = Endpoint(method: "GET", path: "/v1/zones/{zone}/members")
    /// Puts a share's key boxes, by its owner (``ZoneKeyBox``).
    public static let putZoneKeys = Endpoint(method: "PUT", path: "/v1/zones/{zone}/keys")
    /// A member's own key boxes of a share.
    public static let zoneKeys = Endpoint(method: "GET", path: "/v1/zones/{zone}/keys")
    /// Accepts an invitation to a share.
    public static let acceptShare = Endpoint(method: "PUT", path: "/v1/zones/{zone}/membership")
    /// Leaves a share, or declines an invitation.
    public static let leaveShare = Endpoint(method: "DELETE", path: "/v1/zones/{zone}/membership")
    /// A shared zone's changes, as ``changes`` (docs/sharing.md §3.7).
    public static let zoneChanges = Endpoint(method: "GET", path: "/v1/zones/{zone}/changes")
    /// A batch sent to a shared zone, as ``modify``, by its owner or an editor.
    public static let modifyZone = Endpoint(method: "POST", path: "/v1/zones/{zone}/records/modify")
    /// The earlier versions of a shared zone's note, as ``recordVersions``.
    public static let zoneRecordVersions = Endpoint(method: "GET", path: "/v1/zones/{zone}/records/{id}/versions")
    /// Keeps versions of a note that moved into a shared zone, as ``addVersions``, from its
    /// owner or an editor.
    public static let addZoneVersions = Endpoint(method: "POST", path: "/v1/zones/{zone}/records/{id}/versions")
    /// The kept versions of many of a shared zone's notes at once, as ``notesVersions``.
    public static let zoneNotesVersions = Endpoint(method: "POST", path: "/v1/zones/{zone}/versions")
    /// Uploads a file to a shared zone, by its owner or an editor.
    public static let uploadZoneAsset = Endpoint(method: "PUT", path: "/v1/zones/{zone}/assets/{hash}")
    /// Whether a shared zone holds a file.
    public static let zoneAssetExists = Endpoint(method: "HEAD", path: "/v1/zones/{zone}/assets/{hash}")
    /// Downloads a shared zone's file.
    public static let downloadZoneAsset = Endpoint(method: "GET", path: "/v1/zones/{zone}/assets/{hash}")

    /// Every endpoint, as the OpenAPI document must list them.
    public static let endpoints: [Endpoint] = [
        health, openAPI, register, account, changePassword, loginParameters, accountKeys, setRecovery, addDataKey, addIdentity, userIdentity,
        recoveryKeys, recover,
        login, logout, nameSession, sessions, endSession,
        changes, modify, recordVersions, resealVersion, addVersions, notesVersions, keptVersions, keptFiles, dropPlaintext, uploadAsset, assetExists, downloadAsset, events,
        publishedPages, publishPage, unpublishPage, publishedPage,
        shares, deleteShare, putShareMembers, shareMembers, putZoneKeys, zoneKeys, acceptShare, leaveShare,
        zoneChanges, modifyZone, zoneRecordVersions, addZoneVersions, zoneNotesVersions, uploadZoneAsset, zoneAssetExists, downloadZoneAsset,
    ]
}

/// The limits both sides respect; the server refuses anything over them with a clear error.
public enum SyncLimits {
    /// The most changes in one modify batch that this server takes; its health answer says so.
    /// A device sends at most this many, and fewer to a server that announces fewer (servers
    /// before 2026-11-25 took 500). Each batch costs both sides a transaction and some fixed
    /// work: a first push of 100,000 notes in batches of 1,000 took 0.5 s less than in
    /// batches of 500 on PostgreSQL, its server and database using 10–15 % less processor time.
    public static let maxBatchSize = 1_000
    /// The most changes a device sends in one batch to a server whose health answer does not
    /// say its limit: servers before it did took 200.
    public static let unannouncedBatchSize = 200
    /// The most bytes of one record's fields, as JSON.
    public static let maxRecordBytes = 1_000_000
    /// The most bytes of one request body other than an asset.
    public static let maxRequestBytes = 8_000_000
    /// The most bytes of one asset: the attachment limit.
    public static let maxAssetBytes: Int64 = 250 * 1024 * 1024
    /// The largest file the server keeps: an attachment of ``maxAssetBytes``, sealed
    /// (docs/encryption.md §5: a 40-byte header and a 16-byte tag for each 64 KiB chunk, and
    /// one for the last, shorter or empty, chunk).
    public static let maxStoredAssetBytes: Int64 = maxAssetBytes + 40 + 16 * (maxAssetBytes / 65_536 + 1)
    /// The most records in one page of changes.
    public static let maxPageSize = 1000
    /// About the most bytes of record fields in one page of changes (a page holds at least
    /// one record, however large).
    public static let maxPageBytes = 8_000_000
    /// The most bytes of any answer other than an asset: a full page and its largest record,
    /// with room for the JSON around them. A device stops reading an answer that runs over.
    public static let maxResponseBytes = 16_000_000
    /// The most bytes of one published page, sealed (docs/sharing.md §5.2): 25 MiB.
    public static let maxPublishedBytes = 25 * 1_048_576
    /// The shortest password accepted.
    public static let minimumPasswordLength = 8
}
