import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// Setting up, using and leaving a store's sync account: what the command line and the
/// web app's Settings both do.
extension NoteStore {
    /// A server address as typed: `host:port` alone means `https://host:port`.
    public static func syncServerURL(_ text: String) throws(NoteTakerError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let url = URL(string: withScheme), url.host != nil, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw .invalidInput(Wording("notAServerAddress", ["given": text]))
        }
        return url
    }

    /// The transport to the account's server, with the saved token.
    public func syncTransport() throws(SyncError) -> HTTPSyncTransport {
        let settings: SyncSettings
        do { settings = try syncSettings() } catch { throw .store(error) }
        guard let server = settings.serverURL, settings.username != nil, let token = syncToken() else {
            throw .notConfigured
        }
        return try HTTPSyncTransport(server: server, token: token, allowInsecure: settings.allowInsecure, trusted: try trustedCertificates())
    }

    /// An engine for this store with its chosen merge policy.
    public func syncEngine(
        transport: HTTPSyncTransport, allowMassDeletion: Bool = false, progress: (@Sendable (SyncEngine.Phase) -> Void)? = nil
    ) throws(NoteTakerError) -> SyncEngine {
        let settings = try syncSettings()
        let options = SyncEngine.Options(
            policy: MergePolicy.named(settings.mergePolicy) ?? .localWins, allowMassDeletion: allowMassDeletion)
        return SyncEngine(store: self, transport: transport, options: options, progress: progress)
    }

    /// Signs in to (or registers on) a server, then saves the account and its token here,
    /// with the certificates to trust it by (`trusting`), if given.
    @discardableResult
    public func connectSyncAccount(
        server: URL, username: String, password: String, register: Bool, allowInsecure: Bool, trusting: TrustedCertificates? = nil
    ) async throws(SyncError) -> SessionResponse {
        let transport = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        let deviceName = try? syncSettings().deviceName
        let session = register
            ? try await transport.register(username: username, password: password, deviceName: deviceName)
            : try await transport.login(username: username, password: password, deviceName: deviceName)
        do {
            try setSyncAccount(serverURL: server, username: session.username, allowInsecure: allowInsecure, trustedCertificatesPEM: trusting?.pem)
            try saveSyncToken(session.token)
        } catch {
            throw .store(error)
        }
        return session
    }

    /// Logs out: the server revokes the session when it can be reached, and the account and
    /// token are removed here either way. Notes stay. Returns why the server could not be
    /// told, if it could not.
    public func disconnectSyncAccount() async throws(NoteTakerError) -> String? {
        var notice: String?
        if let transport = try? syncTransport() {
            do {
                try await transport.logout()
            } catch {
                notice = error.message
            }
        }
        removeSyncToken()
        try clearSyncAccount()
        return notice
    }
}
