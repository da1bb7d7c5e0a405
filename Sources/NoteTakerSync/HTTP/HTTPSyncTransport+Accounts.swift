import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// Account operations, which only the HTTP transport has.
extension HTTPSyncTransport {
    /// Creates an account; answers its session.
    public func register(username: String, password: String) async throws(SyncError) -> SessionResponse {
        try await json(SessionResponse.self, SyncAPI.register, body: Credentials(username: username, password: password))
    }

    /// Logs in; answers a new session.
    public func login(username: String, password: String) async throws(SyncError) -> SessionResponse {
        try await json(SessionResponse.self, SyncAPI.login, body: Credentials(username: username, password: password))
    }

    /// Ends this transport's session on the server.
    public func logout() async throws(SyncError) {
        _ = try await send(makeRequest(SyncAPI.logout), accepting: [204])
    }

    /// The account's usage and quota.
    public func accountStatus() async throws(SyncError) -> AccountStatus {
        try await json(AccountStatus.self, SyncAPI.account)
    }

    /// Changes the password; the server ends every other session.
    public func changePassword(current: String, new: String) async throws(SyncError) {
        try await exchange(SyncAPI.changePassword, body: try Self.encoded(PasswordChange(currentPassword: current, newPassword: new)),
                           accepting: [204]) { _ in }
    }
}
