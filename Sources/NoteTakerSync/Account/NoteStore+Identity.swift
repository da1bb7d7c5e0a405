import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// An encrypted account's identity keys (docs/sharing.md §2): made with its other keys, or,
/// for an account made before they existed, by its first device to log in with this version.
extension NoteStore {
    /// `keyring` with identity keys: as it is when it has them; else with new ones, kept in the
    /// account's key material for the password's login secret. When another device kept some
    /// first, theirs are learned. A server that does not take them (one older than identity
    /// keys) leaves the keyring as it is: the next log-in tries again, and nothing else needs them.
    func givingIdentity(_ keyring: AccountKeyring, transport: HTTPSyncTransport, password: PasswordKeys) async throws(SyncError) -> AccountKeyring {
        guard keyring.identityKeys == nil else { return keyring }
        let made: (keyring: AccountKeyring, wrapped: IdentityKeys)
        do { made = try keyring.withNewIdentity() } catch { throw .keysRefused("\(error)") }
        do {
            try await transport.addIdentity(made.wrapped, password: password.loginSecretText)
            return made.keyring
        } catch .server(let code, _) where code == APIErrorCode.keysChanged.rawValue {
            let material = try await transport.accountKeys()
            do { return try keyring.learning(material) } catch { throw .keysRefused("\(error)") }
        } catch {
            return keyring
        }
    }
}

/// What comparing keys with another account found: the safety number to compare, and whether
/// the keys are the ones this device kept.
public struct IdentityCheck: Sendable, Equatable {
    /// The other account's name, as the server knows it.
    public var account: String
    /// The number both sides see (``SafetyNumber``).
    public var safetyNumber: String
    /// The keys against the ones this device kept.
    public var sighting: IdentitySighting
}

extension NoteStore {
    /// The safety number of this account with `username`, from this device's identity keys
    /// and the ones the server gives for `username`, compared with those this device kept
    /// (kept now when it met none). With `confirming`, keys that changed are kept in place of
    /// the old ones (the person compared the new number). ``SyncError/noIdentityKeys`` when
    /// this device has none.
    public func checkIdentity(of username: String, confirming: Bool = false) async throws(SyncError) -> IdentityCheck {
        guard let keyring = try syncKeyring() else { throw .identityNeedsEncryption }
        guard let mine = keyring.identityKeys?.identity else { throw .noIdentityKeys }
        let theirs = try await syncTransport().identity(of: username)
        guard let number = SafetyNumber.between((keyring.account, mine), (username, theirs)) else {
            throw .keysRefused("the server's identity keys for \(username) are not 32 bytes each")
        }
        do {
            var sighting = try meetIdentity(of: username, theirs)
            if confirming, case .changed = sighting {
                try confirmIdentity(of: username, theirs)
                sighting = .confirmed
            }
            return IdentityCheck(account: username.lowercased(), safetyNumber: number, sighting: sighting)
        } catch {
            throw .store(error)
        }
    }
}
