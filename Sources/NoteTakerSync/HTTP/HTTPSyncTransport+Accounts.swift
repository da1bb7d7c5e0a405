import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// Account operations, which only the HTTP transport has.
extension HTTPSyncTransport {
    /// Creates an account (end-to-end encrypted when `keys` is given: `password` is then the
    /// login secret, and `recoverySecret` lets its recovery code set a new password); answers
    /// its session, which the account's list of sessions shows under `deviceName`.
    public func register(
        username: String, password: String, deviceName: String? = nil, keys: AccountKeys? = nil, recoverySecret: String? = nil
    ) async throws(SyncError) -> SessionResponse {
        try await json(SessionResponse.self, SyncAPI.register, body: Credentials(
            username: username, password: password, deviceName: deviceName, keys: keys, recoverySecret: recoverySecret))
    }

    /// How to stretch `username`'s password before logging in (docs/encryption.md §2.4): the
    /// account's parameters, `kdf: none` for an account without encryption, or made-up ones.
    public func loginParameters(username: String) async throws(SyncError) -> LoginParameters {
        try await json(LoginParameters.self, SyncAPI.loginParameters, query: [URLQueryItem(name: "username", value: username)])
    }

    /// The account's key material, for this device to open with the password's key.
    public func accountKeys() async throws(SyncError) -> AccountKeys {
        try await json(AccountKeys.self, SyncAPI.accountKeys)
    }

    /// Replaces the account's recovery code (docs/encryption.md §2.5): its secret and the account
    /// key wrapped for it, for the current password's login secret.
    public func setRecovery(secret: String, wrappedByRecovery: String, password: String) async throws(SyncError) {
        let setup = RecoverySetup(recoverySecret: secret, wrappedByRecovery: wrappedByRecovery, password: password)
        try await exchange(SyncAPI.setRecovery, body: try Self.encoded(setup), accepting: [204]) { _ in }
    }

    /// Appends a data key to the account's key material (rotation, docs/encryption.md §2.3):
    /// version `version`, wrapped by the account key, for the current password's login secret.
    public func addDataKey(version: Int, wrapped: String, password: String) async throws(SyncError) {
        let addition = DataKeyAddition(version: version, dataKey: wrapped, password: password)
        try await exchange(SyncAPI.addDataKey, body: try Self.encoded(addition), accepting: [204]) { _ in }
    }

    /// Keeps identity keys in the account's key material, which has none yet (docs/sharing.md §2),
    /// for the current password's login secret.
    public func addIdentity(_ identity: IdentityKeys, password: String) async throws(SyncError) {
        try await exchange(SyncAPI.addIdentity, body: try Self.encoded(IdentityAddition(identity: identity, password: password)), accepting: [204]) { _ in }
    }

    /// The public identity keys of the account named `username`.
    public func identity(of username: String) async throws(SyncError) -> AccountIdentity {
        guard UserName.isValid(username) else { throw .server(code: APIErrorCode.badRequest.rawValue, message: UserName.rule) }
        let (data, _) = try await send(makeRequest(SyncAPI.userIdentity, name: username), accepting: [200])
        guard let identity = try? JSONDecoder().decode(AccountIdentity.self, from: data), identity.isWellFormed else {
            throw .server(code: APIErrorCode.badRequest.rawValue, message: "The server's answer for \(username)'s identity keys is not two 32-byte keys.")
        }
        return identity
    }

    /// Names this transport's session in the account's list of sessions (sealed, for an
    /// end-to-end encrypted account: see ``DeviceNameSeal``).
    public func nameSession(_ deviceName: String?) async throws(SyncError) {
        try await exchange(SyncAPI.nameSession, body: try Self.encoded(SessionName(deviceName: deviceName)), accepting: [204]) { _ in }
    }

    /// The key material of `username`'s account, for its recovery secret instead of a session.
    public func recoveryKeys(username: String, secret: String) async throws(SyncError) -> AccountKeys {
        try await json(AccountKeys.self, SyncAPI.recoveryKeys, body: RecoveryRequest(username: username, recoverySecret: secret))
    }

    /// Sets a new password with its key material, for the recovery secret; the server ends
    /// every session of the account.
    public func recover(username: String, secret: String, newPassword: String, keys: AccountKeys) async throws(SyncError) {
        let request = RecoveryRequest(username: username, recoverySecret: secret, newPassword: newPassword, keys: keys)
        try await exchange(SyncAPI.recover, body: try Self.encoded(request), accepting: [204]) { _ in }
    }

    /// Logs in; answers a new session, which the account's list of sessions shows under `deviceName`.
    public func login(username: String, password: String, deviceName: String? = nil) async throws(SyncError) -> SessionResponse {
        try await json(SessionResponse.self, SyncAPI.login, body: Credentials(username: username, password: password, deviceName: deviceName))
    }

    /// The account's live sessions, the most recently used first.
    public func sessions() async throws(SyncError) -> SessionList {
        try await json(SessionList.self, SyncAPI.sessions)
    }

    /// Ends one of the account's sessions (this one too, if named).
    public func endSession(id: String) async throws(SyncError) {
        guard !id.isEmpty, id.allSatisfy(\.isHexDigit) else {
            throw .server(code: "notFound", message: "'\(id)' is not a session id; the list of sessions shows each one's.")
        }
        _ = try await send(makeRequest(SyncAPI.endSession, id: id.lowercased()), accepting: [204])
    }

    /// Ends this transport's session on the server.
    public func logout() async throws(SyncError) {
        _ = try await send(makeRequest(SyncAPI.logout), accepting: [204])
    }

    /// The account's usage and quota.
    public func accountStatus() async throws(SyncError) -> AccountStatus {
        try await json(AccountStatus.self, SyncAPI.account)
    }

    /// Changes the password, with the key material wrapped for the new one when the account
    /// is (or turns) end-to-end encrypted; the server ends every other session.
    public func changePassword(current: String, new: String, keys: AccountKeys? = nil) async throws(SyncError) {
        try await exchange(SyncAPI.changePassword, body: try Self.encoded(PasswordChange(currentPassword: current, newPassword: new, keys: keys)),
                           accepting: [204]) { _ in }
    }
}
