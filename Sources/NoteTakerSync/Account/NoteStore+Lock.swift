import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Locking and unlocking an end-to-end encrypted account on this device (docs/encryption.md
/// §2.4): a locked device holds neither the account's keys nor a session, so it neither syncs
/// nor fetches history from the server, and keeps working on the notes it has; unlocking logs
/// in with the password again and syncing goes on where it stopped, every change kept.
///
/// A device is locked when its person locks it, and when it finds itself without the keys
/// (a store copied without them). The store on disk is not encrypted: the notes already here
/// stay readable to whoever can read its file.
extension NoteStore {
    /// Whether this device holds its account's keys.
    public enum SyncLockState: Sendable {
        /// No account, or one without end-to-end encryption: nothing to lock.
        case notEncrypted
        /// The keys are here: the device syncs.
        case unlocked
        /// The keys are not here: the device waits for the password to sync.
        case locked
    }

    /// Whether this device holds its end-to-end encrypted account's keys.
    public func syncLockState() throws(SyncError) -> SyncLockState {
        do {
            return try syncKeyring() == nil ? .notEncrypted : .unlocked
        } catch .keysMissing {
            return .locked
        }
    }

    /// Locks this device: the server ends its session (when it can be reached) and the
    /// session and the account's keys are forgotten here, so that the device holds nothing that
    /// reads or changes the account. The account, the notes and every change waiting stay;
    /// syncing waits for ``unlockSyncAccount(password:minimumCost:)``.
    public func lockSyncAccount() async throws(SyncError) {
        guard try syncLockState() != .notEncrypted else { throw .notEncrypted }
        // As logging out does, but the account stays: a server that cannot be reached lets its session expire.
        do { _ = try await endSessionHere() } catch { throw .store(error) }
    }

    /// Unlocks this device with the account's password: it logs in again, which opens the
    /// account's keys and keeps them here (a conversion to encryption cut short is taken up,
    /// as at any login). A password the server refuses is ``SyncError/wrongPassword``, and
    /// nothing changes.
    public func unlockSyncAccount(password: String, minimumCost: Int = 1 << 17) async throws(SyncError) {
        let settings: SyncSettings
        do { settings = try syncSettings() } catch { throw .store(error) }
        guard settings.encrypted else { throw .notEncrypted }
        guard let server = settings.serverURL, let username = settings.username else { throw .notConfigured }
        do {
            _ = try await logInToSyncAccount(
                server: server, username: username, password: password, allowInsecure: settings.allowInsecure,
                trusting: try trustedCertificates(), allowingUnencrypted: false, minimumCost: minimumCost)
        } catch .server(code: APIErrorCode.unauthorized.rawValue, _) {
            throw .wrongPassword
        }
    }
}
