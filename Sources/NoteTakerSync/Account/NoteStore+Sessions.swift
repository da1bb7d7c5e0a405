import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// The account's sessions as this device shows them: an end-to-end encrypted account's device
/// names are sealed on the server (docs/encryption.md §6), named so by each device once it has
/// the keys, and opened here.
extension NoteStore {
    /// The account's live sessions, the most recently used first, their device names readable
    /// (`nil` for a name this device cannot open: sealed for another session, or changed).
    public func syncSessions() async throws(SyncError) -> SessionList {
        var list = try await syncTransport().sessions()
        guard let keyring = try syncKeyring() else { return list }
        for index in list.sessions.indices {
            guard let name = list.sessions[index].deviceName, SessionName.isSealed(name) else { continue }
            list.sessions[index].deviceName = try? DeviceNameSeal.open(name, sessionId: list.sessions[index].id, accountKey: keyring.accountKey)
        }
        return list
    }

    /// Gives this device's session on the server the name this device has now: sealed for an
    /// end-to-end encrypted account, bound to the session's id. A device of an encrypted account
    /// logs in without a name (its keys come after), then this; a renamed device, this too.
    public func nameSyncSession() async throws(SyncError) {
        let transport = try syncTransport()
        let name: String
        do { name = try syncSettings().deviceName } catch { throw .store(error) }
        guard let keyring = try syncKeyring() else { return try await transport.nameSession(name) }
        guard let current = try await transport.sessions().sessions.first(where: \.current) else { return }
        do {
            try await transport.nameSession(try DeviceNameSeal.seal(name, sessionId: current.id, accountKey: keyring.accountKey))
        } catch let error as SyncError {
            throw error
        } catch {
            throw .keysRefused("\(error)")
        }
    }
}
