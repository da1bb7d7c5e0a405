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
