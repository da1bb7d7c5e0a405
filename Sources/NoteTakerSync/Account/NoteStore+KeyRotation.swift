import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Rotating an end-to-end encrypted account's keys (docs/encryption.md §2.3), and learning
/// the keys another device rotated to.
extension NoteStore {
    /// Rotates the account's data key, for its current password: a new key is made here,
    /// appended to the server's key material (wrapped by the account key), and kept here;
    /// every record the server holds is queued to go up again sealed with it, which the next
    /// syncs send (each a derived save: it yields to any edit), and the note versions it keeps
    /// are sealed again at the end of the next sync. Other devices learn the key
    /// when they first meet a record sealed with it. Returns the new key's version.
    ///
    /// Throws ``SyncError/noKeysToRotate`` for an account without encryption.
    @discardableResult
    public func rotateSyncKeys(password: String, minimumCost: Int = 1 << 17) async throws(SyncError) -> Int {
        let transport = try syncTransport()
        guard try syncKeyring() != nil else { throw .noKeysToRotate }
        // Once again when another device appended the same version first.
        for attempt in 1...2 {
            let material = try await transport.accountKeys()
            let (rotated, wrapped): (AccountKeyring, String)
            let keys: PasswordKeys
            do {
                guard let keyring = try syncKeyring() else { throw SyncError.noKeysToRotate }
                (rotated, wrapped) = try keyring.learning(material).rotated()
                keys = try PasswordKeys(password: password, parameters: material.kdf, minimumCost: minimumCost)
            } catch let error as SyncError {
                throw error
            } catch {
                throw .keysRefused("\(error)")
            }
            do {
                try await transport.addDataKey(version: rotated.newestVersion, wrapped: wrapped, password: keys.loginSecretText)
            } catch .server(let code, _) where code == APIErrorCode.keysChanged.rawValue && attempt == 1 {
                continue
            }
            try keepKeyring(rotated)
            do { try queueResealing(keyVersion: rotated.newestVersion) } catch { throw .store(error) }
            return rotated.newestVersion
        }
        throw .server(code: APIErrorCode.keysChanged.rawValue, message: "Another device rotated the keys at the same time; try again.")
    }

    /// The account's keys with any data key another device added since (rotation), and the
    /// identity keys another device made, learned from the server's key material, opened with
    /// the account key and kept here. Keys that do not open (a server that made them up) are
    /// not taken: the keys held are returned.
    public func learnSyncKeys(transport: HTTPSyncTransport) async throws(SyncError) -> AccountKeyring? {
        guard let keyring = try syncKeyring() else { return nil }
        let material = try await transport.accountKeys()
        guard let learned = try? keyring.learning(material),
              learned.newestVersion > keyring.newestVersion || learned.identityKeys != keyring.identityKeys else { return keyring }
        try keepKeyring(learned)
        return learned
    }

    /// Keeps the account's keys beside the store, readable by its owner only.
    func keepKeyring(_ keyring: AccountKeyring) throws(SyncError) {
        guard let url = syncKeysURL else { return }
        do {
            try OwnerOnly.write(keyring.stored(), to: url)
        } catch {
            throw .store(.fileWriteFailed(path: url.path, reason: error.localizedDescription))
        }
    }
}
