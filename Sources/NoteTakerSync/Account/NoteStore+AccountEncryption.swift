import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Encrypting an account that has no encryption yet (docs/encryption.md §2.4): one that
/// holds nothing, such as an account the server's operator made with `account add` on a server
/// whose registration is closed, or one that holds notes, from a device that syncs with it,
/// which converts it. Its password travelled as it is, so it takes a new one.
extension NoteStore {
    /// Makes the account `username` end-to-end encrypted, with `newPassword`: its keys are
    /// made here and go up with the new password's login secret in one request, then its
    /// recovery secret; the account is then used here as registering does. Returns the
    /// recovery code to show once.
    ///
    /// An account that holds records is converted, from this store only when it syncs with it:
    /// this device first syncs, and goes on only when it holds everything (else
    /// ``SyncError/CannotEncrypt/unsynced(changes:held:files:)``); its tags take their keyed ids,
    /// and every record is queued to go up again sealed. The syncs that follow send them, seal
    /// the kept versions, and have the server delete what it holds in plain text
    /// (``SyncReport/conversionFinished``). Other devices are logged out, and log in again
    /// with the new password.
    public func encryptSyncAccount(
        server: URL, username: String, currentPassword: String, newPassword: String, allowInsecure: Bool,
        trusting: TrustedCertificates? = nil, parameters: KDFParameters = .fresh(), minimumCost: Int = 1 << 17
    ) async throws(SyncError) -> ConnectedAccount {
        guard currentPassword != newPassword else { throw .cannotEncrypt(.samePassword) }
        let anonymous = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        guard try await anonymous.loginParameters(username: username).kdf == KDFParameters.none.kdf else {
            throw .cannotEncrypt(.alreadyEncrypted)
        }
        // The password goes as it is this once: the server already knows it.
        let session = try await anonymous.login(username: username, password: currentPassword)
        let transport = try HTTPSyncTransport(server: server, token: session.token, allowInsecure: allowInsecure, trusted: trusting)
        let converting = try await transport.accountStatus().recordCount > 0
        if converting {
            do {
                try await prepareConversion(server: server, username: username, transport: transport)
            } catch {
                try? await transport.logout()
                throw error
            }
        }
        let keys: PasswordKeys
        let made: (keyring: AccountKeyring, material: AccountKeys, recovery: RecoveryCode)
        do {
            keys = try PasswordKeys(password: newPassword, parameters: parameters, minimumCost: minimumCost)
            made = try AccountKeyring.create(account: username, password: keys, parameters: parameters)
        } catch {
            throw .keysRefused("\(error)")
        }
        try await transport.changePassword(current: currentPassword, new: keys.loginSecretText, keys: made.material)
        if converting {
            try keepKeyring(made.keyring)
            do { try beginEncryptionConversion(identity: KeyedIdentity(idKey: made.keyring.idKey)) } catch { throw .store(error) }
        }
        try keep(session, keyring: made.keyring, server: server, allowInsecure: allowInsecure, trusting: trusting)
        try await transport.setRecovery(
            secret: made.recovery.recoverySecretText, wrappedByRecovery: made.material.wrappedByRecovery, password: keys.loginSecretText)
        try? await nameSyncSession()
        return ConnectedAccount(session: session, encrypted: true, recoveryCode: made.recovery)
    }

    /// Takes up a conversion to encryption cut short (the converting device stopped after the
    /// server took the keys), when the server says some of the account's records are not
    /// sealed yet and this store syncs with it: this device then converts what it holds as
    /// the converting device would have, and its syncs finish the conversion. (A device logging
    /// in while the converting one is still at it does the same; the two meet as any two
    /// devices' saves of the same records do.)
    func takeUpConversion(keyring: AccountKeyring, transport: HTTPSyncTransport, server: URL, username: String) async throws(SyncError) {
        guard let unsealed = try await transport.accountStatus().unsealedRecords, unsealed > 0,
              try syncsWith(server: server, username: username) else { return }
        try keepKeyring(keyring)
        do { try beginEncryptionConversion(identity: KeyedIdentity(idKey: keyring.idKey)) } catch { throw .store(error) }
    }

    /// Before converting an account that holds records: this store must sync with it, and
    /// after one more sync hold everything the server does, nothing of its own left to send.
    private func prepareConversion(server: URL, username: String, transport: HTTPSyncTransport) async throws(SyncError) {
        guard try syncsWith(server: server, username: username) else { throw .cannotEncrypt(.holdsRecords) }
        _ = try await syncEngine(transport: transport).sync()
        let (summary, missing): (SyncSummary, [String])
        do {
            summary = try syncSummary()
            missing = try missingAttachmentFiles()
        } catch {
            throw .store(error)
        }
        let changes = summary.pending + summary.failures.count
        guard changes == 0, summary.held.isEmpty, missing.isEmpty else {
            throw .cannotEncrypt(.unsynced(changes: changes, held: summary.held.count, files: missing.count))
        }
    }

    /// Whether this store syncs with `username`'s account on `server`.
    private func syncsWith(server: URL, username: String) throws(SyncError) -> Bool {
        let settings: SyncSettings
        do { settings = try syncSettings() } catch { throw .store(error) }
        return settings.serverURL?.absoluteString == server.absoluteString && settings.username == username
    }
}
