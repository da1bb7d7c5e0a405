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

    /// The transport to the account's server, with the saved token; ``SyncError/keysMissing``
    /// for a locked device.
    public func syncTransport() throws(SyncError) -> HTTPSyncTransport {
        let settings: SyncSettings
        do { settings = try syncSettings() } catch { throw .store(error) }
        guard let server = settings.serverURL, settings.username != nil else { throw .notConfigured }
        // A locked device holds neither the session nor the keys of its encrypted account.
        guard let token = syncToken() else { throw settings.encrypted ? .keysMissing : .notConfigured }
        return try HTTPSyncTransport(server: server, token: token, allowInsecure: settings.allowInsecure, trusted: try trustedCertificates())
    }

    /// An engine for this store with its chosen merge policy, sealing and opening what it
    /// syncs with the account's keys when the account is end-to-end encrypted
    /// (``SyncError/keysMissing`` when this device does not have them): those kept here at
    /// each cycle's start, and those another device rotated to when it meets a record sealed
    /// with one.
    public func syncEngine(
        transport: HTTPSyncTransport, allowMassDeletion: Bool = false, progress: (@Sendable (SyncEngine.Phase) -> Void)? = nil
    ) throws(SyncError) -> SyncEngine {
        let settings: SyncSettings
        do { settings = try syncSettings() } catch { throw .store(error) }
        let options = SyncEngine.Options(
            policy: MergePolicy.named(settings.mergePolicy) ?? .localWins, allowMassDeletion: allowMassDeletion,
            sealing: try syncKeyring().map(RecordSealing.init(keyring:)),
            keys: { [self] fromServer in
                let keyring = fromServer ? (try? await learnSyncKeys(transport: transport)) : (try? syncKeyring())
                return keyring.map(RecordSealing.init(keyring:))
            })
        return SyncEngine(store: self, transport: transport, options: options, progress: progress)
    }

    /// Signs in to (or registers on) a server, then saves the account and its token here,
    /// with the certificates to trust it by (`trusting`), if given.
    ///
    /// An account registered here is not end-to-end encrypted (see
    /// ``registerEncryptedSyncAccount(server:username:password:allowInsecure:trusting:parameters:minimumCost:)``);
    /// logging in opens an encrypted account as
    /// ``logInToSyncAccount(server:username:password:allowInsecure:trusting:allowingUnencrypted:minimumCost:)``
    /// does, and an unencrypted one as before.
    @discardableResult
    public func connectSyncAccount(
        server: URL, username: String, password: String, register: Bool, allowInsecure: Bool, trusting: TrustedCertificates? = nil
    ) async throws(SyncError) -> SessionResponse {
        guard register else {
            return try await logInToSyncAccount(
                server: server, username: username, password: password, allowInsecure: allowInsecure, trusting: trusting,
                allowingUnencrypted: true).session
        }
        let transport = try HTTPSyncTransport(server: server, token: nil, allowInsecure: allowInsecure, trusted: trusting)
        let session = try await transport.register(username: username, password: password, deviceName: try? syncSettings().deviceName)
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
        let notice = try await endSessionHere()
        try clearSyncAccount()
        return notice
    }

    /// Ends this device's session (the server revokes it when it can be reached) and forgets
    /// the session and the account's keys here: logging out, and locking. Returns why the
    /// server could not be told, if it could not.
    func endSessionHere() async throws(NoteTakerError) -> String? {
        var notice: String?
        if let transport = try? syncTransport() {
            do {
                try await transport.logout()
            } catch {
                notice = error.message
            }
        }
        removeSyncToken()
        if let url = syncKeysURL, FileManager.default.fileExists(atPath: url.path) {
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw .fileWriteFailed(path: url.path, reason: error.localizedDescription)
            }
        }
        return notice
    }
}
