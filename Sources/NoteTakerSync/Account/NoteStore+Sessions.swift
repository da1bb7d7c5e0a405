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

    /// Names the session `transport` holds with this device's name, sealed with `keyring`: a
    /// device of an encrypted account logs in without a name (its keys come after), then this.
    /// A failure leaves the session unnamed, which is all it costs.
    func nameSealedSession(_ transport: HTTPSyncTransport, keyring: AccountKeyring) async {
        guard let name = try? syncSettings().deviceName,
              let current = try? await transport.sessions().sessions.first(where: \.current),
              let sealed = try? DeviceNameSeal.seal(name, sessionId: current.id, accountKey: keyring.accountKey)
        else { return }
        try? await transport.nameSession(sealed)
    }
}
