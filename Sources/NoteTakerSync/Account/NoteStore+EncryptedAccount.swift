import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// An end-to-end encrypted account on this device (docs/encryption.md §2.4, §2.5): registering
/// with keys, logging in by the server's parameters, changing the password and recovering
/// with the keys, and the keys kept beside the store, where the engine finds them.
///
/// The password never leaves the device: the server is sent the login secret stretched from
/// it. A device sends a password as it is only to an account the server says is not encrypted,
/// only when the person allows it, and never to one it has known encrypted.
extension NoteStore {
    /// An account just set up on this device.
    public struct ConnectedAccount: Sendable {
        /// The session the server opened.
        public var session: SessionResponse
        /// Whether the account is end-to-end encrypted.
        public var encrypted: Bool
        /// An account just registered with encryption: its recovery code, to show its owner
        /// once (it is kept nowhere).
        public var recoveryCode: RecoveryCode?
    }

    /// The file the account's keys are kept in, beside the store, readable by its owner only.
    public var syncKeysURL: URL? {
        databaseURL.map { $0.deletingPathExtension().appendingPathExtension("sync-keys") }
    }

    /// The keys of this store's account when it is end-to-end encrypted; `nil` when it is not.
    /// ``SyncError/keysMissing`` when it is and this device does not have them.
    public func syncKeyring() throws(SyncError) -> AccountKeyring? {
        let settings: SyncSettings
        do { settings = try syncSettings() } catch { throw .store(error) }
        guard settings.encrypted else { return nil }
        guard let url = syncKeysURL, let data = try? Data(contentsOf: url), let keyring = try? AccountKeyring(stored: data) else {
            throw .keysMissing
        }
        return keyring
    }

    /// Creates an end-to-end encrypted account: its keys are made here, the server is sent
    /// them wrapped, with the login secret and the recovery secret, in one request, and they
    /// are kept here.
    /// Returns the recovery code to show once. (`parameters`: this version's, unless a test
    /// asks for cheaper ones the server still keeps.)
    public func registerEncryptedSyncAccount(
        server: URL, username: String, password: String, allowInsecure: Bool, trusting: TrustedCertificates? = nil,
        parameters: KDFParameters = .fresh(), minimumCost: Int = 1 << 17
    ) async throws(SyncError) -> ConnectedAccount {
        let transport = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        let made: (keyring: AccountKeyring, material: AccountKeys, recovery: RecoveryCode)
        let keys: PasswordKeys
        do {
            keys = try PasswordKeys(password: password, parameters: parameters, minimumCost: minimumCost)
            made = try AccountKeyring.create(account: username, password: keys, parameters: parameters)
        } catch {
            throw .keysRefused("\(error)")
        }
        // The device's name goes up sealed, once the session is there to bind it to.
        let session = try await transport.register(
            username: username, password: keys.loginSecretText, keys: made.material, recoverySecret: made.recovery.recoverySecretText)
        try keep(session, keyring: made.keyring, server: server, allowInsecure: allowInsecure, trusting: trusting)
        // A failure leaves the session unnamed, which is all it costs.
        try? await nameSyncSession()
        return ConnectedAccount(session: session, encrypted: true, recoveryCode: made.recovery)
    }

    /// Logs in from this device. An encrypted account's password is stretched with its
    /// parameters (refused below this version's cost), the login secret sent, and its keys
    /// fetched, opened and kept here (with identity keys made for an account that has none
    /// yet: ``givingIdentity(_:transport:password:)``); a conversion to encryption the server says is not
    /// finished is taken up when this store syncs with the account. An account the server
    /// says is not encrypted is sent the password as it is only with `allowingUnencrypted`,
    /// and never when this device has known it encrypted.
    public func logInToSyncAccount(
        server: URL, username: String, password: String, allowInsecure: Bool, trusting: TrustedCertificates? = nil,
        allowingUnencrypted: Bool, minimumCost: Int = 1 << 17
    ) async throws(SyncError) -> ConnectedAccount {
        let transport = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        let parameters = try await transport.loginParameters(username: username)
        guard parameters.kdf != KDFParameters.none.kdf else {
            let knownEncrypted: Bool
            do { knownEncrypted = try knowsEncrypted(serverURL: server, username: username) } catch { throw .store(error) }
            if knownEncrypted { throw .encryptionDowngraded }
            guard allowingUnencrypted else { throw .unencryptedAccount }
            let session = try await transport.login(username: username, password: password, deviceName: try? syncSettings().deviceName)
            try keep(session, keyring: nil, server: server, allowInsecure: allowInsecure, trusting: trusting)
            return ConnectedAccount(session: session, encrypted: false)
        }
        let keys: PasswordKeys
        do {
            keys = try PasswordKeys(password: password, parameters: parameters, minimumCost: minimumCost)
        } catch {
            throw .keysRefused("\(error)")
        }
        let session = try await transport.login(username: username, password: keys.loginSecretText)
        let loggedIn = try HTTPSyncTransport(server: server, token: session.token, allowInsecure: allowInsecure, trusted: trusting)
        let keyring: AccountKeyring
        do {
            keyring = try AccountKeyring(opening: try await loggedIn.accountKeys(), account: username, password: keys)
        } catch let error as SyncError {
            throw error
        } catch {
            throw .keysRefused("\(error)")
        }
        let identified = try await givingIdentity(keyring, transport: loggedIn, password: keys)
        try await takeUpConversion(keyring: identified, transport: loggedIn, server: server, username: username)
        try keep(session, keyring: identified, server: server, allowInsecure: allowInsecure, trusting: trusting)
        try? await nameSyncSession()
        return ConnectedAccount(session: session, encrypted: true)
    }

    /// Changes the account's password. An encrypted account's key is wrapped again for the new
    /// one and sent with its login secret in one request: nothing else is encrypted again, and
    /// the server ends the account's other sessions.
    public func changeSyncPassword(
        current: String, new: String, parameters: KDFParameters = .fresh(), minimumCost: Int = 1 << 17
    ) async throws(SyncError) {
        let transport = try syncTransport()
        guard let keyring = try syncKeyring() else { return try await transport.changePassword(current: current, new: new) }
        let material = try await transport.accountKeys()
        let (currentKeys, newKeys, rewrapped): (PasswordKeys, PasswordKeys, AccountKeys)
        do {
            currentKeys = try PasswordKeys(password: current, parameters: material.kdf, minimumCost: minimumCost)
            newKeys = try PasswordKeys(password: new, parameters: parameters, minimumCost: minimumCost)
            rewrapped = try keyring.rewrapped(material, for: newKeys, parameters: parameters)
        } catch {
            throw .keysRefused("\(error)")
        }
        try await transport.changePassword(current: currentKeys.loginSecretText, new: newKeys.loginSecretText, keys: rewrapped)
    }

    /// Makes a new recovery code for the account, for its current password (a code lost, or
    /// seen by someone else): the account key is wrapped for the new code and the server keeps
    /// its secret's hash, in one request. The old code no longer opens anything. Returns the new
    /// code to show once.
    public func newRecoveryCode(password: String, minimumCost: Int = 1 << 17) async throws(SyncError) -> RecoveryCode {
        let transport = try syncTransport()
        guard let keyring = try syncKeyring() else { throw .noRecoveryCode }
        let material = try await transport.accountKeys()
        let code = RecoveryCode()
        let (keys, wrapped): (PasswordKeys, Data)
        do {
            keys = try PasswordKeys(password: password, parameters: material.kdf, minimumCost: minimumCost)
            wrapped = try KeyWrap.wrap(keyring.accountKey, with: code.keyEncryptionKey, data: KeyWrap.accountKeyData(account: keyring.account))
        } catch {
            throw .keysRefused("\(error)")
        }
        try await transport.setRecovery(secret: code.recoverySecretText, wrappedByRecovery: Base64URL.encode(wrapped), password: keys.loginSecretText)
        return code
    }

    /// Sets a new password with the recovery code, when the password is lost: the code opens
    /// the account's keys, which are wrapped for the new password; the server ends every
    /// session of the account. Then logs in here with the new password. Not a note is lost.
    public func recoverSyncAccount(
        server: URL, username: String, recoveryCode: String, newPassword: String, allowInsecure: Bool,
        trusting: TrustedCertificates? = nil, parameters: KDFParameters = .fresh(), minimumCost: Int = 1 << 17
    ) async throws(SyncError) -> ConnectedAccount {
        let code: RecoveryCode
        do { code = try RecoveryCode(code: recoveryCode) } catch { throw .badRecoveryCode }
        let transport = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        let material = try await transport.recoveryKeys(username: username, secret: code.recoverySecretText)
        let rewrapped: AccountKeys
        let newKeys: PasswordKeys
        do {
            let keyring = try AccountKeyring(opening: material, account: username, recovery: code)
            newKeys = try PasswordKeys(password: newPassword, parameters: parameters, minimumCost: minimumCost)
            rewrapped = try keyring.rewrapped(material, for: newKeys, parameters: parameters)
        } catch {
            throw .keysRefused("\(error)")
        }
        try await transport.recover(username: username, secret: code.recoverySecretText, newPassword: newKeys.loginSecretText, keys: rewrapped)
        return try await logInToSyncAccount(
            server: server, username: username, password: newPassword, allowInsecure: allowInsecure, trusting: trusting,
            allowingUnencrypted: false, minimumCost: minimumCost)
    }

    /// Keeps the account, its token and (for an encrypted one) its keys here.
    func keep(
        _ session: SessionResponse, keyring: AccountKeyring?, server: URL, allowInsecure: Bool, trusting: TrustedCertificates?
    ) throws(SyncError) {
        if let keyring { try keepKeyring(keyring) }
        do {
            try setSyncAccount(serverURL: server, username: session.username, allowInsecure: allowInsecure,
                               trustedCertificatesPEM: trusting?.pem, identity: keyring.map { KeyedIdentity(idKey: $0.idKey) })
            try saveSyncToken(session.token)
        } catch {
            throw .store(error)
        }
    }
}
