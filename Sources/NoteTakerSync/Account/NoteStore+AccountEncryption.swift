import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Encrypting an account that has no encryption yet (docs/encryption.md §2.4): today, one that
/// holds nothing, such as an account the server's operator made with `account add` on a server
/// whose registration is closed. Its password was chosen by the operator, so it takes a new one
/// the operator does not know. Converting an account that holds notes is not built.
extension NoteStore {
    /// Makes the empty account `username` end-to-end encrypted, with `newPassword`: its keys are
    /// made here and go up with the new password's login secret in one request (the server
    /// refuses keys for an account holding records), then its recovery secret; the account is
    /// then used here as registering does. Returns the recovery code to show once.
    public func encryptSyncAccount(
        server: URL, username: String, currentPassword: String, newPassword: String, allowInsecure: Bool,
        trusting: TrustedCertificates? = nil, parameters: KDFParameters = .fresh(), minimumCost: Int = 1 << 17
    ) async throws(SyncError) -> ConnectedAccount {
        guard currentPassword != newPassword else { throw .cannotEncrypt(.samePassword) }
        let anonymous = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        guard try await anonymous.loginParameters(username: username).kdf == KDFParameters.none.kdf else {
            throw .cannotEncrypt(.alreadyEncrypted)
        }
        // The password goes as it is this once: the server already knows it, having set it.
        let session = try await anonymous.login(username: username, password: currentPassword)
        let transport = try HTTPSyncTransport(server: server, token: session.token, allowInsecure: allowInsecure, trusted: trusting)
        guard try await transport.accountStatus().recordCount == 0 else {
            try? await transport.logout()
            throw .cannotEncrypt(.holdsRecords)
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
        try keep(session, keyring: made.keyring, server: server, allowInsecure: allowInsecure, trusting: trusting)
        try await transport.setRecovery(
            secret: made.recovery.recoverySecretText, wrappedByRecovery: made.material.wrappedByRecovery, password: keys.loginSecretText)
        try? await nameSyncSession()
        return ConnectedAccount(session: session, encrypted: true, recoveryCode: made.recovery)
    }
}
