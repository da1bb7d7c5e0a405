import Crypto
import Foundation
import NoteTakerSyncProtocol

/// End-to-end encrypted accounts' key material (docs/encryption.md §2.4): kept whole beside
/// the account, read by its devices, and the login parameters that come before a log-in.
extension SyncService {
    /// How to stretch `username`'s password before logging in: the account's KDF parameters,
    /// `kdf: none` for an account without encryption, and for a name no account has, made-up
    /// parameters derived from the database's own secret (the same at every request), so that
    /// asking does not tell which names exist. Every answer costs the same reads.
    public func loginParameters(username: String) async throws(SyncServerError) -> LoginParameters {
        try Self.validate(username: username)
        let (kdf, secret) = try await storing {
            (try await storage.kdf(ofAccountNamed: username), try await storage.loginDecoySecret())
        }
        let decoy = Self.decoyParameters(username: username, secret: secret)
        switch kdf {
        case .noAccount:
            return decoy
        case .unencrypted:
            return .none
        case .parameters(let json):
            return (try? JSONDecoder().decode(KDFParameters.self, from: Data(json.utf8))) ?? decoy
        }
    }

    /// The logged-in account's key material; 404 for an account without encryption.
    public func keys(of account: StoredAccount) async throws(SyncServerError) -> AccountKeys {
        let json = try await storing { try await storage.keys(account: account.id) }
        guard let json, let keys = try? JSONDecoder().decode(AccountKeys.self, from: Data(json.utf8)) else {
            throw SyncServerError(.notFound, "This account is not end-to-end encrypted: it has no key material.")
        }
        return keys
    }

    /// Replaces the logged-in account's recovery code (docs/encryption.md §2.5), for its current
    /// password (throttled as a log-in is): the hash of the new recovery secret and the account
    /// key wrapped for the new code, in one write. The old code no longer opens anything.
    public func setRecovery(_ setup: RecoverySetup, account: StoredAccount, from address: String = "local") async throws(SyncServerError) {
        guard RecoverySetup.isSecret(setup.recoverySecret), AccountKeys.isWrappedKey(setup.wrappedByRecovery) else {
            throw .badRequest("A recovery secret is 32 bytes and a wrapped key 60 bytes, both in base64url. Nothing was changed.")
        }
        guard try await storing({ try await storage.keys(account: account.id) }) != nil else {
            throw SyncServerError(.notFound, "This account is not end-to-end encrypted: it has no recovery code.")
        }
        try await verifyCurrentPassword(setup.password, of: account, from: address, unchanged: "the recovery code was not changed")
        try await storing {
            try await throttle.succeeded(username: account.username, address: address, now: Date())
            let hash = try await hashing.run { try hasher.hash(setup.recoverySecret) }
            try await storage.replaceRecovery(hash: hash, wrappedByRecovery: setup.wrappedByRecovery, account: account.id)
        }
    }

    /// Appends a data key to the logged-in account's key material (docs/encryption.md §2.3,
    /// rotation), for its current password (throttled as a log-in is), when it is the version
    /// after the newest held; `keysChanged` when another device appended that version first.
    public func addDataKey(_ addition: DataKeyAddition, account: StoredAccount, from address: String = "local") async throws(SyncServerError) {
        guard AccountKeys.isWrappedKey(addition.dataKey) else {
            throw .badRequest("A wrapped data key is 60 bytes in base64url. Nothing was changed.")
        }
        guard let json = try await storing({ try await storage.keys(account: account.id) }),
              let keys = try? JSONDecoder().decode(AccountKeys.self, from: Data(json.utf8)) else {
            throw SyncServerError(.notFound, "This account is not end-to-end encrypted: it has no keys to rotate.")
        }
        guard addition.version == keys.dataKeys.count + 1 else {
            throw SyncServerError(.keysChanged, "The account has \(keys.dataKeys.count) data keys, so the next is version \(keys.dataKeys.count + 1), not \(addition.version). Nothing was changed; fetch the keys again.")
        }
        guard addition.version <= AccountKeys.maximumDataKeys else {
            throw .badRequest("An account keeps at most \(AccountKeys.maximumDataKeys) data keys. Nothing was changed.")
        }
        try await verifyCurrentPassword(addition.password, of: account, from: address, unchanged: "the keys were not rotated")
        let appended = try await storing {
            try await throttle.succeeded(username: account.username, address: address, now: Date())
            return try await storage.appendDataKey(addition.dataKey, version: addition.version, account: account.id)
        }
        guard appended else {
            throw SyncServerError(.keysChanged, "Another device rotated the keys at the same time. Nothing was changed; fetch the keys again.")
        }
    }

    /// Checks the logged-in account's current password (its login secret), throttled as a
    /// log-in is; a wrong one is `unauthorized`, saying what was `unchanged`.
    func verifyCurrentPassword(_ password: String, of account: StoredAccount, from address: String, unchanged: String) async throws(SyncServerError) {
        guard password.utf8.count <= Self.maximumPasswordBytes else {
            throw SyncServerError(.unauthorized, "The current password is wrong; \(unchanged).")
        }
        try await beginAttempt(username: account.username, address: address)
        guard try await verify(password, against: account.passwordHash) else {
            throw SyncServerError(.unauthorized, "The current password is wrong; \(unchanged).")
        }
    }

    /// The key material of the account a recovery secret opens: throttled as a log-in is, and
    /// as slow to refuse a name with no account or no recovery secret as a wrong secret.
    public func recoveryKeys(_ request: RecoveryRequest, from address: String = "local") async throws(SyncServerError) -> AccountKeys {
        try await keys(of: try await recovering(request, from: address))
    }

    /// Sets a new password and its key material for the account a recovery secret opens, and
    /// ends every session of it.
    public func recover(_ request: RecoveryRequest, from address: String = "local") async throws(SyncServerError) {
        guard let newPassword = request.newPassword, let keys = request.keys else {
            throw .badRequest("Give the new password and the key material wrapped for it. Nothing was changed.")
        }
        try Self.validate(password: newPassword)
        let stored = try Self.stored(keys)
        let account = try await recovering(request, from: address)
        try await storing {
            try await storage.setPasswordHash(try await hashing.run { try hasher.hash(newPassword) }, keys: stored, account: account.id)
            try await storage.removeSessions(account: account.id, except: "")
        }
        await announce(.sessionsEnded(account: account.id, keeping: nil))
    }

    /// The account whose recovery secret `request` gives; 401 for anything else.
    private func recovering(_ request: RecoveryRequest, from address: String) async throws(SyncServerError) -> StoredAccount {
        try Self.validate(username: request.username)
        guard request.recoverySecret.utf8.count <= Self.maximumPasswordBytes else { throw .wrongCredentials }
        try await beginAttempt(username: request.username, address: address)
        let account = try await storing { try await storage.account(named: request.username) }
        let hash = try await storing { () async throws -> String? in
            guard let account else { return nil }
            return try await storage.recoveryHash(account: account.id)
        }
        let matches = try await verify(request.recoverySecret, against: hash ?? decoyHash)
        guard let account, hash != nil, matches else { throw .wrongCredentials }
        try await storing { try await throttle.succeeded(username: request.username, address: address, now: Date()) }
        return account
    }

    /// Key material as the storage keeps it, once its shape is checked; a wrong shape is 400.
    static func stored(_ keys: AccountKeys?) throws(SyncServerError) -> StoredKeys? {
        guard let keys else { return nil }
        if let problem = keys.problem() {
            throw .badRequest("The key material is not in the form this server keeps (\(problem)). Nothing was changed.")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return StoredKeys(
                kdf: String(decoding: try encoder.encode(keys.kdf), as: UTF8.self),
                material: String(decoding: try encoder.encode(keys), as: UTF8.self))
        } catch {
            throw .badRequest("The key material could not be kept. Nothing was changed.")
        }
    }

    /// scrypt at this version's cost, salted by an HMAC of the lowercased name under the
    /// database's secret.
    static func decoyParameters(username: String, secret: String) -> LoginParameters {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(username.lowercased().utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return .scrypt(salt: Data(Data(mac).prefix(16)))
    }
}
