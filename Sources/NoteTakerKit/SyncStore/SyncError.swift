import Foundation

/// Why a sync did not complete, in words a user can act on.
public enum SyncError: Error, Sendable, Equatable {
    /// No account is set up on this device.
    case notConfigured
    /// The server cannot be reached (offline, down, refused); local work goes on and
    /// pending changes wait.
    case unreachable(String)
    /// The server no longer accepts this device's session.
    case notLoggedIn
    /// The server cannot continue from this device's change token.
    case resyncRequired
    /// The server's data is older than what this device synced: it was restored from an
    /// earlier copy. The engine heals from it on its own (see ``NoteStore``'s restored
    /// server handling); this reaches a user only if healing was cut short.
    case serverRestored
    /// The server has forgotten deletions made since this device last fetched (it keeps them
    /// for a while once every device has them). The engine fetches everything again on its
    /// own and deletes what is gone; this reaches a user only if that was cut short.
    case tombstonesPurged
    /// The server refused a request: its error code and message.
    case server(code: String, message: String)
    /// The sync would delete this many notes here: it stopped to ask first.
    case massDeletion(count: Int)
    /// A plain `http://` address that is not on this machine, without `--insecure`.
    case insecureServer(String)
    /// The server's certificate is not trusted (self-signed, from a private authority, or for
    /// another name): why.
    case untrustedCertificate(String)
    /// The account's storage on the server is full: the bytes it uses and may use.
    case storageFull(usedBytes: Int64, quotaBytes: Int64)
    /// Another process kept syncing this store for longer than this one would wait.
    case busy
    /// The local store failed.
    case store(NoteTakerError)
    /// The account is not end-to-end encrypted: logging in would send the password to the
    /// server as it is, which a device does only when the person allows it.
    case unencryptedAccount
    /// The server says an account is not end-to-end encrypted that this device knows is: the
    /// password was not sent.
    case encryptionDowngraded
    /// The account is end-to-end encrypted and this device does not have its keys: it is
    /// locked, and waits for the account's password.
    case keysMissing
    /// The account is not end-to-end encrypted, so this device has no keys to lock or unlock.
    case notEncrypted
    /// The password given does not open the account's keys.
    case wrongPassword
    /// The server's key material or parameters for the account were refused: why.
    case keysRefused(String)
    /// A recovery code whose characters or checksum are wrong.
    case badRecoveryCode
    /// The account is not end-to-end encrypted, so it has no recovery code to make anew.
    case noRecoveryCode
    /// An account cannot be encrypted as asked: why.
    case cannotEncrypt(CannotEncrypt)
    /// The account is not end-to-end encrypted, so it has no keys to rotate.
    case noKeysToRotate
    /// The account is not end-to-end encrypted, so it has no identity keys to compare or share with.
    case identityNeedsEncryption
    /// This device has no identity keys for the account yet: it makes them at its next log-in
    /// or unlock (docs/sharing.md §2).
    case noIdentityKeys
    /// A note too large to publish: its page, sealed, would take `bytes`; the most is `limit`.
    case pageTooLarge(bytes: Int64, limit: Int64)
    /// The note is not published from this device (it keeps the link of each page it published).
    case notPublished
    /// The note was published on another server than the one this device syncs with now.
    case publishedElsewhere(server: String)
    /// A shared zone's members record or key box was refused (docs/sharing.md §3.2–3.3): why.
    case shareRefused(String)
    /// This device takes part in no share of this id, or this account is no member of it.
    case noSuchShare(String)
    /// Only a share's owner changes its members and roles.
    case notShareOwner
    /// A member's identity keys are not the ones this device kept for them: nothing is sealed
    /// to them until the person compares safety numbers and confirms the new keys.
    case memberKeysChanged(String)
    /// This account may view the shared folder, not change it.
    case viewOnlyShare
    /// The note moved out of a share is the share itself (a note shared alone): it is made
    /// private by stopping the share (or leaving it).
    case sharedNoteItself
    /// A note moved into a share that is a single note: only a shared folder takes notes in.
    case intoSharedNote

    /// Why an account cannot be encrypted as asked.
    public enum CannotEncrypt: Sendable, Equatable {
        /// It is end-to-end encrypted already.
        case alreadyEncrypted
        /// It holds records, and this store does not sync with it: only a device that does
        /// can convert it (it sends every record again sealed).
        case holdsRecords
        /// This device has not synced everything yet: changes waiting to go up (or failed),
        /// records held back, files not downloaded. A conversion sends every record and file
        /// this device holds sealed, and the server then deletes its plaintext copies.
        case unsynced(changes: Int, held: Int, files: Int)
        /// The new password is the old one, which whoever set it (the server's operator) knows.
        case samePassword
    }

}

extension SyncError: WordedError, CustomStringConvertible {
    /// What to tell the user, to be worded in their language (``Catalog/errors``).
    public var wording: Wording {
        switch self {
        case .notConfigured: Wording("syncNotConfigured")
        case .unreachable(let reason): Wording("syncUnreachable", ["reason": reason])
        case .notLoggedIn: Wording("syncNotLoggedIn")
        case .resyncRequired: Wording("syncResyncRequired")
        case .serverRestored: Wording("syncServerRestored")
        case .tombstonesPurged: Wording("syncTombstonesPurged")
        case .server(_, let message): Wording("syncServerRefused", ["reason": message])
        case .massDeletion(let count): Wording("syncMassDeletion", ["count": count])
        case .untrustedCertificate(let reason): Wording("syncUntrustedCertificate", ["reason": reason])
        case .insecureServer(let url): Wording("syncInsecureServer", ["url": url])
        case .storageFull(let used, let quota):
            Wording("syncStorageFull", ["used": Self.wholeMegabytes(used), "quota": Self.wholeMegabytes(quota)])
        case .busy: Wording("syncBusy")
        case .store(let error): error.wording
        case .unencryptedAccount: Wording("syncUnencryptedAccount")
        case .encryptionDowngraded: Wording("syncEncryptionDowngraded")
        case .keysMissing: Wording("syncKeysMissing")
        case .notEncrypted: Wording("syncNotEncrypted")
        case .wrongPassword: Wording("syncWrongPassword")
        case .keysRefused(let reason): Wording("syncKeysRefused", ["reason": reason])
        case .badRecoveryCode: Wording("syncBadRecoveryCode")
        case .noRecoveryCode: Wording("syncNoRecoveryCode")
        case .cannotEncrypt(.alreadyEncrypted): Wording("syncCannotEncrypt_alreadyEncrypted")
        case .cannotEncrypt(.holdsRecords): Wording("syncCannotEncrypt_holdsRecords")
        case .cannotEncrypt(.unsynced(let changes, let held, let files)):
            Wording("syncCannotEncrypt_unsynced", ["changes": changes, "held": held, "files": files])
        case .cannotEncrypt(.samePassword): Wording("syncCannotEncrypt_samePassword")
        case .noKeysToRotate: Wording("syncNoKeysToRotate")
        case .identityNeedsEncryption: Wording("syncIdentityNeedsEncryption")
        case .noIdentityKeys: Wording("syncNoIdentityKeys")
        case .pageTooLarge(let bytes, let limit):
            Wording("syncPageTooLarge", ["size": Self.wholeMegabytes(bytes), "limit": Self.wholeMegabytes(limit)])
        case .notPublished: Wording("syncNotPublished")
        case .publishedElsewhere(let server): Wording("syncPublishedElsewhere", ["server": server])
        case .shareRefused(let reason): Wording("syncShareRefused", ["reason": reason])
        case .noSuchShare(let share): Wording("syncNoSuchShare", ["share": share])
        case .notShareOwner: Wording("syncNotShareOwner")
        case .memberKeysChanged(let account): Wording("syncMemberKeysChanged", ["account": account])
        case .viewOnlyShare: Wording("syncViewOnlyShare")
        case .sharedNoteItself: Wording("syncSharedNoteItself")
        case .intoSharedNote: Wording("syncIntoSharedNote")
        }
    }

    /// The message in English.
    public var description: String { message }
}

extension SyncError {
    /// A size in whole megabytes, as people read storage (`940 MB`, `1,024 MB`).
    package static func megabytes(_ bytes: Int64) -> String {
        Language.english.write(wholeMegabytes(bytes)) + " MB"
    }

    /// `bytes` in megabytes, to the nearest one; 1 for less than half of one, but not none.
    package static func wholeMegabytes(_ bytes: Int64) -> Int64 {
        let megabytes = bytes / 1_048_576 + (bytes % 1_048_576 >= 524_288 ? 1 : 0)
        return megabytes == 0 && bytes > 0 ? 1 : megabytes
    }
}
