import Foundation
import NoteTakerSyncProtocol

/// The account's sessions: each device logged in, which its owner can list and end (a lost
/// phone, a laptop sold).
extension SyncService {
    /// How many hex digits of a token's hash name its session (64 bits: unique within any
    /// account, and nothing an attacker can use).
    static let sessionIdLength = 16

    /// The account's live sessions, the most recently used first; `token` marks the current one.
    public func sessions(of account: StoredAccount, token: String) async throws(SyncServerError) -> SessionList {
        let current = SessionToken.hash(token)
        let now = Date().timeIntervalSince1970
        let entries = try await storing { try await storage.sessions(account: account.id) }
        let live = entries.filter { entry in
            if case .live = sessionLifetime.judge(createdAt: entry.createdAt, lastUsedAt: entry.lastUsedAt, now: now) { return true }
            return false
        }
        return SessionList(sessions: live.sorted { $0.lastUsedAt > $1.lastUsedAt }.map { entry in
            SessionInfo(
                id: String(entry.tokenHash.prefix(Self.sessionIdLength)), deviceName: entry.deviceName,
                createdAt: entry.createdAt, lastUsedAt: entry.lastUsedAt, current: entry.tokenHash == current)
        })
    }

    /// Ends the account's session named `id` (a ``SessionInfo/id``), and its push streams.
    public func endSession(id: String, account: StoredAccount) async throws(SyncServerError) {
        let entries = try await storing { try await storage.sessions(account: account.id) }
        guard id.utf8.count == Self.sessionIdLength,
              let entry = entries.first(where: { $0.tokenHash.hasPrefix(id) })
        else {
            throw SyncServerError(.notFound, "This account has no session '\(id)'; list them with GET /v1/sessions.")
        }
        try await storing { try await storage.removeSession(tokenHash: entry.tokenHash) }
        await announce(.sessionEnded(tokenHash: entry.tokenHash))
    }

    /// Names the session `token` opened: a name as typed, or one sealed by an end-to-end
    /// encrypted account's device, which the server keeps as it is and cannot read.
    public func nameSession(_ name: SessionName, account: StoredAccount, token: String) async throws(SyncServerError) {
        let deviceName = try name.deviceName.flatMap { text throws(SyncServerError) in
            SessionName.isSealed(text) ? text : try Self.validate(deviceName: text)
        }
        try await storing { try await storage.renameSession(tokenHash: SessionToken.hash(token), deviceName: deviceName) }
    }

    /// A device name as a session keeps it, trimmed (`nil` when none is left). It may hold
    /// at most ``Credentials/maximumDeviceNameLength`` Unicode scalars and no control
    /// character (U+0000–U+001F, U+007F–U+009F: no line break or tab), as the OpenAPI
    /// document's pattern says.
    static func validate(deviceName: String?) throws(SyncServerError) -> String? {
        guard let deviceName else { return nil }
        let trimmed = deviceName.trimmingCharacters(in: .whitespaces)
        guard deviceName.unicodeScalars.count <= Credentials.maximumDeviceNameLength,
              !deviceName.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else {
            throw .badRequest("A device name is at most \(Credentials.maximumDeviceNameLength) characters, with no control characters.")
        }
        return trimmed.isEmpty ? nil : trimmed
    }
}
