import Foundation
import NoteTakerSyncProtocol

/// What the server's operator does to accounts, on the server's machine
/// (`notetaker-server account …`): list them, delete one with everything it holds, set a new
/// password, give one a quota of its own.
extension SyncService {
    /// The bytes `account` may use: its own quota, else the server's.
    func quota(of account: StoredAccount) -> Int64 {
        account.quotaBytes ?? quotaBytes
    }

    /// Every account, by name.
    public func accounts() async throws(SyncServerError) -> [AccountSummary] {
        try await storing { try await storage.accountSummaries() }
    }

    /// Deletes the account named `username` with its records, versions, sessions and the
    /// files no other account holds. Its devices are logged out at their next request; their
    /// notes stay on them.
    public func deleteAccount(named username: String) async throws(SyncServerError) {
        let account = try await existing(username)
        let orphaned = try await storing { try await storage.deleteAccount(account.id) }
        await announce(.sessionsEnded(account: account.id, keeping: nil))
        for hash in orphaned {
            // A file left behind is only space: the account's rows, which say whose it was, are gone.
            try? await assets.remove(hash)
        }
    }

    /// Sets a new password for the account named `username` (one its owner forgot), and logs
    /// out every device of it: each logs in again with the new one.
    public func resetPassword(named username: String, to password: String) async throws(SyncServerError) {
        let account = try await existing(username)
        try Self.validate(password: password)
        if try await storing({ try await storage.keys(account: account.id) }) != nil {
            throw .badRequest(
                "'\(username)' is end-to-end encrypted: a password set here could not open its notes. Its owner sets a new one on a device that is logged in, or with the recovery code.")
        }
        try await storing {
            try await storage.setPasswordHash(try await hashing.run { try hasher.hash(password) }, keys: nil, account: account.id)
            try await storage.removeSessions(account: account.id, except: "")
        }
        await announce(.sessionsEnded(account: account.id, keeping: nil))
    }

    /// Gives the account named `username` a quota of its own, or with `nil` the server's again.
    public func setQuota(_ bytes: Int64?, named username: String) async throws(SyncServerError) {
        let account = try await existing(username)
        if let bytes, bytes < 1 { throw SyncServerError(.badRequest, "A quota is at least 1 MB.") }
        try await storing { try await storage.setQuota(bytes, account: account.id) }
    }

    private func existing(_ username: String) async throws(SyncServerError) -> StoredAccount {
        guard let account = try await storing({ try await storage.account(named: username) }) else {
            throw SyncServerError(.notFound, "There is no account named '\(username)' here. `notetaker-server account list` lists them.")
        }
        return account
    }
}
