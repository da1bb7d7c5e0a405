import Foundation

/// What a user name may be: 1–64 letters, digits, `.`, `_`, `-` or `@`.
public enum UserName {
    private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@")
    /// The rule, as an answer to a name that breaks it says.
    public static let rule = "A user name is 1 to 64 letters, digits, '.', '_', '-' or '@'."

    /// Whether `name` may be a user name.
    public static func isValid(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.allSatisfy(allowed.contains)
    }
}

/// A user name and password, to register or to log in.
public struct Credentials: Sendable, Hashable, Codable {
    /// The account's name: 1–64 letters, digits, `.`, `_`, `-` or `@`.
    public var username: String
    /// At least ``SyncLimits/minimumPasswordLength`` characters.
    public var password: String
    /// The device logging in, as its sessions list shows it (at most
    /// ``maximumDeviceNameLength`` characters; optional).
    public var deviceName: String?
    /// When registering an end-to-end encrypted account: its key material, kept with it from
    /// the start (`password` is then the login secret).
    public var keys: AccountKeys?
    /// When registering an end-to-end encrypted account: the recovery secret (see
    /// ``RecoverySetup``), whose hash is kept with it from the start, so that the recovery
    /// code works from the moment it is shown. Ignored without `keys`.
    public var recoverySecret: String?

    /// The longest device name a log-in takes, in characters.
    public static let maximumDeviceNameLength = 100

    /// Creates credentials.
    public init(username: String, password: String, deviceName: String? = nil, keys: AccountKeys? = nil, recoverySecret: String? = nil) {
        self.username = username
        self.password = password
        self.deviceName = deviceName
        self.keys = keys
        self.recoverySecret = recoverySecret
    }
}

/// A logged-in session: the bearer token to send with every request.
public struct SessionResponse: Sendable, Hashable, Codable {
    /// The account's name.
    public var username: String
    /// Send as `Authorization: Bearer <token>`; the server keeps only its hash.
    public var token: String

    /// Creates a session answer.
    public init(username: String, token: String) {
        self.username = username
        self.token = token
    }
}

/// A password change; every other session of the account is logged out.
public struct PasswordChange: Sendable, Hashable, Codable {
    /// The password in use now.
    public var currentPassword: String
    /// The new password.
    public var newPassword: String
    /// The account's key material for the new password (docs/encryption.md §2.4): required once
    /// the account has key material, and turns encryption on for one that has none.
    public var keys: AccountKeys?

    /// Creates a password change.
    public init(currentPassword: String, newPassword: String, keys: AccountKeys? = nil) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
        self.keys = keys
    }
}

/// What the server knows of the logged-in account.
public struct AccountStatus: Sendable, Hashable, Codable {
    /// The account's name.
    public var username: String
    /// Records held, tombstones included.
    public var recordCount: Int
    /// Bytes used by records, assets and the answers kept for repeated batches.
    public var usedBytes: Int64
    /// The most the account may use.
    public var quotaBytes: Int64
    /// For an end-to-end encrypted account, how many of its records (deletions aside) are not
    /// sealed yet: a conversion not finished (docs/encryption.md §2.4); `nil` for an account
    /// without encryption, or from a server that did not say.
    public var unsealedRecords: Int?

    /// Creates an account status.
    public init(username: String, recordCount: Int, usedBytes: Int64, quotaBytes: Int64, unsealedRecords: Int? = nil) {
        self.username = username
        self.recordCount = recordCount
        self.usedBytes = usedBytes
        self.quotaBytes = quotaBytes
        self.unsealedRecords = unsealedRecords
    }
}

/// The server's health answer.
public struct HealthResponse: Sendable, Hashable, Codable {
    /// `ok` when the server can read its storage; `unavailable` (with HTTP 503) when it cannot.
    public var status: String
    /// The API version the server speaks (`v1`).
    public var apiVersion: String
    /// Identifies this server's database: a different one means a different server.
    public var serverId: String
    /// The most changes the server takes in one modify batch; `nil` from servers that did not
    /// say (they take ``SyncLimits/unannouncedBatchSize``).
    public var maxBatchSize: Int?
    /// The server's NoteTaker version (``NoteTakerVersion``); `nil` from servers that did not say.
    public var version: String?
    /// The storage as the server just found it: `ok`, `unreachable` (the database cannot be
    /// reached), `full` (no room left) or `failing`; `nil` from servers that did not say.
    public var database: String?
    /// What is wrong, in words a person can act on, when `status` is not `ok`.
    public var message: String?

    /// Creates a health answer.
    public init(
        status: String, apiVersion: String, serverId: String, maxBatchSize: Int? = nil, version: String? = nil,
        database: String? = nil, message: String? = nil
    ) {
        self.status = status
        self.apiVersion = apiVersion
        self.serverId = serverId
        self.maxBatchSize = maxBatchSize
        self.version = version
        self.database = database
        self.message = message
    }

    /// How many changes a device may send this server in one batch: what it announced
    /// (within 1 and ``SyncLimits/maxBatchSize``), or ``SyncLimits/unannouncedBatchSize``.
    public var batchLimit: Int {
        maxBatchSize.map { min(max($0, 1), SyncLimits.maxBatchSize) } ?? SyncLimits.unannouncedBatchSize
    }
}
