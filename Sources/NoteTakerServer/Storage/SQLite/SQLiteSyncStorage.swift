import Foundation
import GRDB
import NoteTakerSyncProtocol

/// The default storage: one SQLite file (WAL, durable commits), no set-up.
///
/// Every statement about records, requests and assets has `accountId = ?` bound to the
/// authenticated account.
public struct SQLiteSyncStorage: SyncStorage {
    let writer: any DatabaseWriter
    /// Identifies this database (a random id made when the file was created).
    public let serverId: String

    /// Opens (or creates) the storage file at `url`.
    public init(url: URL) throws {
        try OwnerOnly.createDirectory(at: url.deletingLastPathComponent())
        if !FileManager.default.fileExists(atPath: url.path), !OwnerOnly.createFile(at: url) {
            throw SyncServerError(.internalError, "The server could not create its database at \(url.path).")
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Deleted and replaced rows are zeroed, not left in free space: what a conversion to
            // end-to-end encryption drops must not stay readable in the file.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // Batches of a few megabytes: a longer log, fewer copies of the same pages.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384")
        }
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        if try pool.read(Self.migrator.hasBeenSuperseded) {
            throw SyncServerError(.internalError, "The database at \(url.path) was set up by a newer notetaker-server. Run the newer server, or restore the backup taken before the upgrade.")
        }
        try Self.migrator.migrate(pool)
        writer = pool
        serverId = try pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM server_info WHERE key = 'serverId'") ?? ""
        }
    }

    // MARK: Accounts and sessions

    /// Creates an account, with its key material if any; a taken name is refused.
    public func createAccount(username: String, passwordHash: String, keys: StoredKeys?) async throws -> StoredAccount {
        try await writer.write { db in
            if try Self.account(db, sql: "SELECT id, username, passwordHash, quotaBytes, keys IS NOT NULL FROM account WHERE username = ?", username) != nil {
                throw SyncServerError(.accountExists, "The user name '\(username)' is taken. Choose another, or log in.")
            }
            try db.execute(
                sql: "INSERT INTO account (username, passwordHash, createdAt, kdf, keys) VALUES (?, ?, ?, ?, ?)",
                arguments: [username, passwordHash, Date().timeIntervalSince1970, keys?.kdf, keys?.material])
            return StoredAccount(id: db.lastInsertedRowID, username: username, passwordHash: passwordHash)
        }
    }

    /// The account with this name, compared case-insensitively.
    public func account(named username: String) async throws -> StoredAccount? {
        try await writer.read { db in
            try Self.account(db, sql: "SELECT id, username, passwordHash, quotaBytes, keys IS NOT NULL FROM account WHERE username = ? AND zoneOwner IS NULL", username)
        }
    }

    /// Replaces an account's password hash, and its key material when `keys` is given.
    public func setPasswordHash(_ hash: String, keys: StoredKeys?, account: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [hash, account])
            if let keys {
                try db.execute(sql: "UPDATE account SET kdf = ?, keys = ? WHERE id = ?", arguments: [keys.kdf, keys.material, account])
            }
        }
    }

    /// How the account of this name stretches its password.
    public func kdf(ofAccountNamed username: String) async throws -> AccountKDF {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT kdf FROM account WHERE username = ? AND zoneOwner IS NULL", arguments: [username]) else {
                return .noAccount
            }
            return (row[0] as String?).map(AccountKDF.parameters) ?? .unencrypted
        }
    }

    /// An account's key material, if any.
    public func keys(account: Int64) async throws -> String? {
        try await writer.read { db in try String.fetchOne(db, sql: "SELECT keys FROM account WHERE id = ?", arguments: [account]) }
    }

    /// Keeps the hash of an account's recovery secret.
    public func setRecoveryHash(_ hash: String, account: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE account SET recoveryHash = ? WHERE id = ?", arguments: [hash, account])
        }
    }

    public func replaceRecovery(hash: String, wrappedByRecovery: String, account: Int64) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE account SET recoveryHash = ?, keys = json_set(keys, '$.wrappedByRecovery', ?) WHERE id = ? AND keys IS NOT NULL",
                arguments: [hash, wrappedByRecovery, account])
        }
    }

    public func appendDataKey(_ wrapped: String, version: Int, account: Int64) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE account SET keys = json_insert(keys, '$.dataKeys[#]', ?)
                WHERE id = ? AND keys IS NOT NULL AND json_array_length(keys, '$.dataKeys') = ?
                """, arguments: [wrapped, account, version - 1])
            return db.changesCount == 1
        }
    }

    /// Sets an encrypted account's identity keys, only while it has none.
    public func setIdentity(_ json: String, account: Int64) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE account SET keys = json_set(keys, '$.identity', json(?))
                WHERE id = ? AND keys IS NOT NULL AND IFNULL(json_type(keys, '$.identity'), 'null') = 'null'
                """, arguments: [json, account])
            return db.changesCount == 1
        }
    }

    /// The hash of an account's recovery secret, if any.
    public func recoveryHash(account: Int64) async throws -> String? {
        try await writer.read { db in try String.fetchOne(db, sql: "SELECT recoveryHash FROM account WHERE id = ?", arguments: [account]) }
    }

    /// The secret the made-up login parameters derive from.
    public func loginDecoySecret() async throws -> String {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM server_info WHERE key = 'loginDecoySecret'") ?? ""
        }
    }

    /// Stores a session token's hash.
    public func addSession(tokenHash: String, account: Int64, deviceName: String?) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO session (tokenHash, accountId, createdAt, lastUsedAt, deviceName) VALUES (?, ?, ?, ?, ?)",
                arguments: [tokenHash, account, Date().timeIntervalSince1970, Date().timeIntervalSince1970, deviceName])
        }
    }

    /// Every session of an account.
    public func sessions(account: Int64) async throws -> [SessionEntry] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT tokenHash, deviceName, createdAt, lastUsedAt FROM session WHERE accountId = ?",
                             arguments: [account]).map {
                SessionEntry(tokenHash: $0[0], deviceName: $0[1], createdAt: $0[2], lastUsedAt: $0[3])
            }
        }
    }

    /// The session a token's hash names, with its account.
    public func session(hash: String) async throws -> StoredSession? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT account.id, account.username, account.passwordHash, session.createdAt, session.lastUsedAt, account.quotaBytes,
                    account.keys IS NOT NULL
                FROM session JOIN account ON account.id = session.accountId WHERE session.tokenHash = ?
                """, arguments: [hash]).map {
                StoredSession(account: StoredAccount(id: $0[0], username: $0[1], passwordHash: $0[2], quotaBytes: $0[5], encrypted: $0[6]),
                              createdAt: $0[3], lastUsedAt: $0[4])
            }
        }
    }

    /// Notes that a session answered a request at `time`.
    public func touchSession(tokenHash: String, at time: Double) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE session SET lastUsedAt = ? WHERE tokenHash = ?", arguments: [time, tokenHash])
        }
    }

    /// Ends one session.
    public func renameSession(tokenHash: String, deviceName: String?) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE session SET deviceName = ? WHERE tokenHash = ?", arguments: [deviceName, tokenHash])
        }
    }

    public func removeSession(tokenHash: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE tokenHash = ?", arguments: [tokenHash])
        }
    }

    /// Ends every session of an account but one.
    public func removeSessions(account: Int64, except tokenHash: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE accountId = ? AND tokenHash <> ?", arguments: [account, tokenHash])
        }
    }

    private static func account(_ db: Database, sql: String, _ argument: String) throws -> StoredAccount? {
        try Row.fetchOne(db, sql: sql, arguments: [argument]).map {
            StoredAccount(id: $0[0], username: $0[1], passwordHash: $0[2], quotaBytes: $0[3], encrypted: $0[4])
        }
    }

    // MARK: Usage and assets

    /// The bytes an account uses, as a SQL expression over its row: its records, its files,
    /// the answers kept for its repeated batches, the earlier versions of its notes and its
    /// published pages, and those of the zones it shares (their holders').
    static let usedBytesExpression = """
        account.recordBytes + account.assetBytes + account.answerBytes + account.versionBytes + account.publishedBytes
        + COALESCE((SELECT SUM(zone.recordBytes + zone.assetBytes + zone.answerBytes + zone.versionBytes)
                    FROM account zone WHERE zone.zoneOwner = account.id), 0)
        """
    /// The SQL for the bytes an account uses (``usedBytesExpression``).
    static let usedBytesSQL = "SELECT \(usedBytesExpression) FROM account WHERE id = ?"

    /// Records held and bytes used by an account.
    public func usage(account: Int64) async throws -> (records: Int, bytes: Int64) {
        try await writer.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE accountId = ?", arguments: [account]) ?? 0
            let bytes = try Int64.fetchOne(db, sql: Self.usedBytesSQL, arguments: [account]) ?? 0
            return (count, bytes)
        }
    }

    /// Whether the account holds an asset.
    public func hasAsset(hash: String, account: Int64) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE accountId = ? AND hash = ?", arguments: [account, hash]) ?? false
        }
    }

    /// Records an asset for the account if its quota allows.
    public func addAsset(hash: String, size: Int64, account: Int64, quota: Int64) async throws {
        try await writer.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE accountId = ? AND hash = ?", arguments: [account, hash]) == true {
                return
            }
            let used = try Int64.fetchOne(db, sql: Self.usedBytesSQL, arguments: [account]) ?? 0
            if used + size > quota { throw SyncServerError.quotaExceeded(used: used, quota: quota) }
            try db.execute(sql: "INSERT INTO asset (accountId, hash, size) VALUES (?, ?, ?)", arguments: [account, hash, size])
            try db.execute(sql: "UPDATE account SET assetBytes = assetBytes + ? WHERE id = ?", arguments: [size, account])
        }
    }

    /// A stretch of the account's asset addresses after `after`, in order.
    public func assets(account: Int64, after: String?, limit: Int) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT hash FROM asset WHERE accountId = ? AND hash > ? ORDER BY hash LIMIT ?",
                                arguments: [account, after ?? "", limit])
        }
    }

    /// How many accounts hold the asset.
    public func holders(ofAsset hash: String) async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE hash = ?", arguments: [hash]) ?? 0 }
    }
}
