import Foundation
import Logging
import NoteTakerSyncProtocol
import PostgresNIO

/// The storage on PostgreSQL, for a server that outgrows one machine: every server process
/// (node) on the same database answers any request, since everything lives in the database.
///
/// Every statement about records, requests and assets has `account_id` bound to the
/// authenticated account. Writes to one account are serialized by locking its row, so
/// sequences stay in commit order whichever node writes.
public struct PostgresSyncStorage: SyncStorage {
    let database: PostgresDatabase
    /// Identifies this database (a random id made when its schema was created).
    public let serverId: String

    /// Migrates the database's schema and returns the storage; the database's pool must run
    /// for the storage to answer.
    public static func open(_ database: PostgresDatabase) async throws -> PostgresSyncStorage {
        PostgresSyncStorage(database: database, serverId: try await PostgresSchema.migrate(database))
    }

    // MARK: Accounts and sessions

    /// Creates an account, with its key material if any; a taken name is refused.
    public func createAccount(username: String, passwordHash: String, keys: StoredKeys?) async throws -> StoredAccount {
        let rows = try await database.query("""
            INSERT INTO account (username, password_hash, created_at, kdf, keys)
            VALUES (\(username), \(passwordHash), \(Date().timeIntervalSince1970), \(keys?.kdf), \(keys?.material))
            ON CONFLICT DO NOTHING RETURNING id
            """)
        guard let id = try await Self.first(rows, Int64.self) else {
            throw SyncServerError(.accountExists, "The user name '\(username)' is taken. Choose another, or log in.")
        }
        return StoredAccount(id: id, username: username, passwordHash: passwordHash)
    }

    /// The account with this name, compared case-insensitively.
    public func account(named username: String) async throws -> StoredAccount? {
        try await account(database.query("SELECT id, username, password_hash, quota_bytes, keys IS NOT NULL FROM account WHERE lower(username) = lower(\(username)) AND zone_owner IS NULL"))
    }

    /// Replaces an account's password hash.
    public func setPasswordHash(_ hash: String, keys: StoredKeys?, account: Int64) async throws {
        if let keys {
            try await database.query("UPDATE account SET password_hash = \(hash), kdf = \(keys.kdf), keys = \(keys.material) WHERE id = \(account)")
        } else {
            try await database.query("UPDATE account SET password_hash = \(hash) WHERE id = \(account)")
        }
    }

    /// How the account of this name stretches its password.
    public func kdf(ofAccountNamed username: String) async throws -> AccountKDF {
        let rows = try await database.query("SELECT kdf FROM account WHERE lower(username) = lower(\(username)) AND zone_owner IS NULL")
        for try await kdf in rows.decode(String?.self) {
            return kdf.map(AccountKDF.parameters) ?? .unencrypted
        }
        return .noAccount
    }

    /// An account's key material, if any.
    public func keys(account: Int64) async throws -> String? {
        let rows = try await database.query("SELECT keys FROM account WHERE id = \(account)")
        for try await keys in rows.decode(String?.self) { return keys }
        return nil
    }

    /// Keeps the hash of an account's recovery secret.
    public func setRecoveryHash(_ hash: String, account: Int64) async throws {
        try await database.query("UPDATE account SET recovery_hash = \(hash) WHERE id = \(account)")
    }

    public func replaceRecovery(hash: String, wrappedByRecovery: String, account: Int64) async throws {
        try await database.query("""
            UPDATE account SET recovery_hash = \(hash),
                keys = jsonb_set(keys::jsonb, '{wrappedByRecovery}', to_jsonb(\(wrappedByRecovery)::text))::text
            WHERE id = \(account) AND keys IS NOT NULL
            """)
    }

    public func appendDataKey(_ wrapped: String, version: Int, account: Int64) async throws -> Bool {
        let rows = try await database.query("""
            UPDATE account SET keys = jsonb_set(keys::jsonb, '{dataKeys}', (keys::jsonb -> 'dataKeys') || to_jsonb(\(wrapped)::text))::text
            WHERE id = \(account) AND keys IS NOT NULL AND jsonb_array_length(keys::jsonb -> 'dataKeys') = \(version - 1)
            RETURNING id
            """)
        for try await _ in rows.decode(Int64.self) { return true }
        return false
    }

    /// Sets an encrypted account's identity keys, only while it has none.
    public func setIdentity(_ json: String, account: Int64) async throws -> Bool {
        let rows = try await database.query("""
            UPDATE account SET keys = jsonb_set(keys::jsonb, '{identity}', \(json)::jsonb)::text
            WHERE id = \(account) AND keys IS NOT NULL AND COALESCE(jsonb_typeof(keys::jsonb -> 'identity'), 'null') = 'null'
            RETURNING id
            """)
        for try await _ in rows.decode(Int64.self) { return true }
        return false
    }

    /// The hash of an account's recovery secret, if any.
    public func recoveryHash(account: Int64) async throws -> String? {
        let rows = try await database.query("SELECT recovery_hash FROM account WHERE id = \(account)")
        for try await hash in rows.decode(String?.self) { return hash }
        return nil
    }

    /// The secret the made-up login parameters derive from.
    public func loginDecoySecret() async throws -> String {
        try await Self.first(database.query("SELECT value FROM server_info WHERE key = 'loginDecoySecret'"), String.self) ?? ""
    }

    /// Stores a session token's hash.
    public func addSession(tokenHash: String, account: Int64, deviceName: String?) async throws {
        try await database.query("""
            INSERT INTO session (token_hash, account_id, created_at, last_used_at, device_name)
            VALUES (\(tokenHash), \(account), \(Date().timeIntervalSince1970), \(Date().timeIntervalSince1970), \(deviceName))
            """)
    }

    /// Every session of an account.
    public func sessions(account: Int64) async throws -> [SessionEntry] {
        let rows = try await database.query(
            "SELECT token_hash, device_name, created_at, last_used_at FROM session WHERE account_id = \(account)")
        var sessions: [SessionEntry] = []
        for try await (hash, name, created, used) in rows.decode((String, String?, Double, Double).self) {
            sessions.append(SessionEntry(tokenHash: hash, deviceName: name, createdAt: created, lastUsedAt: used))
        }
        return sessions
    }

    /// The session a token's hash names, with its account.
    public func session(hash: String) async throws -> StoredSession? {
        let rows = try await database.query("""
            SELECT account.id, account.username, account.password_hash, session.created_at, session.last_used_at, account.quota_bytes,
                account.keys IS NOT NULL
            FROM session JOIN account ON account.id = session.account_id WHERE session.token_hash = \(hash)
            """)
        for try await (id, username, passwordHash, created, used, quota, encrypted) in rows.decode((Int64, String, String, Double, Double, Int64?, Bool).self) {
            return StoredSession(
                account: StoredAccount(id: id, username: username, passwordHash: passwordHash, quotaBytes: quota, encrypted: encrypted),
                createdAt: created, lastUsedAt: used)
        }
        return nil
    }

    /// Notes that a session answered a request at `time`.
    public func touchSession(tokenHash: String, at time: Double) async throws {
        try await database.query("UPDATE session SET last_used_at = \(time) WHERE token_hash = \(tokenHash)")
    }

    /// Ends one session.
    public func renameSession(tokenHash: String, deviceName: String?) async throws {
        try await database.query("UPDATE session SET device_name = \(deviceName) WHERE token_hash = \(tokenHash)")
    }

    public func removeSession(tokenHash: String) async throws {
        try await database.query("DELETE FROM session WHERE token_hash = \(tokenHash)")
    }

    /// Ends every session of an account but one.
    public func removeSessions(account: Int64, except tokenHash: String) async throws {
        try await database.query("DELETE FROM session WHERE account_id = \(account) AND token_hash <> \(tokenHash)")
    }

    private func account(_ rows: PostgresRowSequence) async throws -> StoredAccount? {
        for try await (id, username, hash, quota, encrypted) in rows.decode((Int64, String, String, Int64?, Bool).self) {
            return StoredAccount(id: id, username: username, passwordHash: hash, quotaBytes: quota, encrypted: encrypted)
        }
        return nil
    }

    // MARK: Usage and assets

    /// The bytes an account uses, as a SQL expression over its row: its records, its files,
    /// the answers kept for its repeated batches, the earlier versions of its notes and its
    /// published pages.
    static let usedBytesExpression = """
        account.record_bytes + account.asset_bytes + account.answer_bytes + account.version_bytes + account.published_bytes
        + COALESCE((SELECT SUM(zone.record_bytes + zone.asset_bytes + zone.answer_bytes + zone.version_bytes)
                    FROM account zone WHERE zone.zone_owner = account.id), 0)::BIGINT
        """

    /// Records held and bytes used by an account: its records, files, kept answers, versions and published pages.
    public func usage(account: Int64) async throws -> (records: Int, bytes: Int64) {
        let rows = try await database.query("""
            SELECT (SELECT COUNT(*) FROM record WHERE account_id = \(account)), \(unescaped: Self.usedBytesExpression)
            FROM account WHERE id = \(account)
            """)
        for try await (count, bytes) in rows.decode((Int64, Int64).self) {
            return (Int(count), bytes)
        }
        return (0, 0)
    }

    /// Whether the account holds an asset whose bytes are stored (an upload that stopped
    /// between the two is then simply sent again).
    public func hasAsset(hash: String, account: Int64) async throws -> Bool {
        try await Self.first(database.query("""
            SELECT 1 FROM asset JOIN asset_blob ON asset_blob.hash = asset.hash WHERE asset.account_id = \(account) AND asset.hash = \(hash)
            """), Int32.self) != nil
    }

    /// Records an asset for the account if its quota allows.
    public func addAsset(hash: String, size: Int64, account: Int64, quota: Int64) async throws {
        try await database.transaction { connection in
            let logger = database.logger
            let used = try await Self.first(connection.query("""
                SELECT \(unescaped: Self.usedBytesExpression) FROM account WHERE id = \(account) FOR UPDATE
                """, logger: logger), Int64.self) ?? 0
            let inserted = try await connection.query("""
                INSERT INTO asset (account_id, hash, size) VALUES (\(account), \(hash), \(size)) ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            guard try await Self.first(inserted, Int32.self) != nil else { return }
            if used + size > quota { throw SyncServerError.quotaExceeded(used: used, quota: quota) }
            try await connection.query("UPDATE account SET asset_bytes = asset_bytes + \(size) WHERE id = \(account)", logger: logger)
        }
    }

    /// A stretch of the account's asset addresses after `after`, in order.
    public func assets(account: Int64, after: String?, limit: Int) async throws -> [String] {
        let rows = try await database.query("""
            SELECT hash FROM asset WHERE account_id = \(account) AND hash > \(after ?? "") ORDER BY hash LIMIT \(Int64(limit))
            """)
        var hashes: [String] = []
        for try await hash in rows.decode(String.self) { hashes.append(hash) }
        return hashes
    }

    /// How many accounts hold the asset.
    public func holders(ofAsset hash: String) async throws -> Int {
        Int(try await Self.first(database.query("SELECT COUNT(*) FROM asset WHERE hash = \(hash)"), Int64.self) ?? 0)
    }

    /// The first row's only column, if any row came.
    static func first<T: PostgresDecodable>(_ rows: PostgresRowSequence, _ type: T.Type) async throws -> T? {
        var value: T?
        for try await found in rows.decode(T.self) where value == nil {
            value = found
        }
        return value
    }
}
