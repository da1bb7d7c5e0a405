import Foundation
import NoteTakerSyncProtocol

/// Accounts' identity keys (docs/sharing.md §2): kept in the key material beside the account's
/// other keys, set once, and their public halves told to any logged-in account that asks by
/// name, as a person about to share with someone needs them.
extension SyncService {
    /// Sets the logged-in account's identity keys, which it has none of yet, for its current
    /// password (throttled as a log-in is). The same keys again change nothing;
    /// `keysChanged` when another device set different ones first.
    public func addIdentity(_ addition: IdentityAddition, account: StoredAccount, from address: String = "local") async throws(SyncServerError) {
        if let problem = addition.identity.problem() {
            throw .badRequest("The identity keys are not in the form this server keeps (\(problem)). Nothing was changed.")
        }
        let held = try await keys(of: account).identity
        if held == addition.identity { return }
        guard held == nil else {
            throw SyncServerError(.keysChanged, "This account has identity keys already. Nothing was changed; fetch the keys again.")
        }
        try await verifyCurrentPassword(addition.password, of: account, from: address, unchanged: "the identity keys were not kept")
        let json = try Self.storedJSON(addition.identity, "The identity keys")
        let set = try await storing {
            try await throttle.succeeded(username: account.username, address: address, now: Date())
            return try await storage.setIdentity(json, account: account.id)
        }
        guard set else {
            throw SyncServerError(.keysChanged, "Another device set this account's identity keys at the same time. Nothing was changed; fetch the keys again.")
        }
    }

    /// The public identity keys of the account named `username`; `notFound` alike for a name
    /// no account has and for an account without them (not end-to-end encrypted, or not yet
    /// started on a version that makes them).
    public func identity(ofUserNamed username: String) async throws(SyncServerError) -> AccountIdentity {
        try await identifiedAccount(named: username).identity
    }

    /// The account named `username` and its public identity keys; `notFound` as
    /// ``identity(ofUserNamed:)`` says.
    func identifiedAccount(named username: String) async throws(SyncServerError) -> (account: StoredAccount, identity: AccountIdentity) {
        try Self.validate(username: username)
        let found = try await storing { () async throws -> (StoredAccount, String)? in
            guard let account = try await storage.account(named: username), let json = try await storage.keys(account: account.id) else { return nil }
            return (account, json)
        }
        guard let found, let identity = (try? JSONDecoder().decode(AccountKeys.self, from: Data(found.1.utf8)))?.identity else {
            throw SyncServerError(.notFound, "No account named \(username) has identity keys on this server: it may not exist, not be end-to-end encrypted, or not have started a version that shares.")
        }
        return (found.0, identity.identity)
    }
}

extension SyncService {
    /// `value` as the storage keeps it: JSON with sorted keys; `what` names it in the error.
    static func storedJSON(_ value: some Encodable, _ what: String) throws(SyncServerError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(value) else { throw .badRequest("\(what) could not be kept. Nothing was changed.") }
        return String(decoding: data, as: UTF8.self)
    }
}
