import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSync

/// `/api/v1/sync/account…` and `/api/v1/sync/sessions…`: logging in, registering (end-to-end
/// encrypted unless the person says otherwise), logging out, the password, turning encryption
/// on, the recovery code and the account's sessions.
extension SyncRoutes {
    /// The body of `POST /sync/account`: log in, or register with `register: true`.
    struct AccountRequest: Decodable {
        var server: String
        var username: String
        var password: String
        var register: Bool?
        /// Register without end-to-end encryption, or log in to an account without it: the
        /// person has been told whoever runs the server reads the notes.
        var unencrypted: Bool?
        var insecure: Bool?
        /// A certificate (PEM) to trust the server by: a private authority's, or its own.
        var caCertificate: String?
    }

    /// The body of `POST /sync/account/recover`: a new password set with the recovery code.
    struct RecoverRequest: Decodable {
        var server: String
        var username: String
        var recoveryCode: String
        var newPassword: String
        var insecure: Bool?
        var caCertificate: String?
    }

    /// The body of `POST /sync/account/recovery-code`, `POST /sync/account/rotate-keys` and
    /// `POST /sync/account/unlock`: the account's password.
    struct RecoveryCodeRequest: Decodable {
        var password: String
    }

    /// The answer to `POST /sync/account/recovery-code`: the new code, shown once.
    struct RecoveryCodeAnswer: Encodable {
        var recoveryCode: String
    }

    /// The answer to `POST /sync/account/rotate-keys`: the new key's version, and how many
    /// changes now wait to go up sealed with it.
    struct RotatedKeysAnswer: Encodable {
        var version: Int
        var pending: Int
    }

    /// The body of `PUT /sync/account/password` and `POST /sync/account/encrypt`.
    struct PasswordRequest: Decodable {
        var currentPassword: String
        var newPassword: String
    }

    func registerAccount(on group: RouterGroup<BasicRequestContext>) {
        group.post("account") { request, _ in
            let account = try await JSON.decode(AccountRequest.self, from: request)
            guard !account.username.isEmpty, !account.password.isEmpty else {
                throw WebAPIError.invalid("Give a user name and a password. Nothing was changed.")
            }
            let url = try storeCall { () throws(NoteTakerError) in try NoteStore.syncServerURL(account.server) }
            let recoveryCode = try await syncCall { () throws(SyncError) -> String? in
                let trusted = try Self.trusted(account.caCertificate)
                let unencrypted = account.unencrypted ?? false
                if !(account.register ?? false) {
                    _ = try await store.logInToSyncAccount(
                        server: url, username: account.username, password: account.password,
                        allowInsecure: account.insecure ?? false, trusting: trusted, allowingUnencrypted: unencrypted)
                } else if unencrypted {
                    try await store.connectSyncAccount(
                        server: url, username: account.username, password: account.password, register: true,
                        allowInsecure: account.insecure ?? false, trusting: trusted)
                } else {
                    return try await store.registerEncryptedSyncAccount(
                        server: url, username: account.username, password: account.password,
                        allowInsecure: account.insecure ?? false, trusting: trusted).recoveryCode?.code
                }
                return nil
            }
            await sync.refresh()
            let status = try await status(in: request.language, recoveryCode: recoveryCode)
            return try JSON.response(status, status: .created, language: request.language)
        }
        group.post("account/recover") { request, _ in
            let recovery = try await JSON.decode(RecoverRequest.self, from: request)
            guard !recovery.username.isEmpty, !recovery.recoveryCode.isEmpty, !recovery.newPassword.isEmpty else {
                throw WebAPIError.invalid("Give the user name, the recovery code and a new password. Nothing was changed.")
            }
            let url = try storeCall { () throws(NoteTakerError) in try NoteStore.syncServerURL(recovery.server) }
            _ = try await syncCall { () throws(SyncError) in
                try await store.recoverSyncAccount(
                    server: url, username: recovery.username, recoveryCode: recovery.recoveryCode,
                    newPassword: recovery.newPassword, allowInsecure: recovery.insecure ?? false,
                    trusting: try Self.trusted(recovery.caCertificate))
            }
            await sync.refresh()
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
        group.delete("account") { request, _ in
            await sync.stopWatching()
            _ = try await syncCall { () throws(SyncError) in
                do throws(NoteTakerError) { return try await store.disconnectSyncAccount() } catch { throw .store(error) }
            }
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
        group.put("account/password") { request, _ in
            let change = try await JSON.decode(PasswordRequest.self, from: request)
            guard !change.currentPassword.isEmpty, !change.newPassword.isEmpty else {
                throw WebAPIError.invalid("Give the current password and the new one. Nothing was changed.")
            }
            // An end-to-end encrypted account's key goes along, wrapped for the new password.
            try await syncCall { () throws(SyncError) in
                try await store.changeSyncPassword(current: change.currentPassword, new: change.newPassword)
            }
            return Response(status: .noContent)
        }
        group.post("account/encrypt") { request, _ in
            let change = try await JSON.decode(PasswordRequest.self, from: request)
            guard !change.currentPassword.isEmpty, !change.newPassword.isEmpty else {
                throw WebAPIError.invalid("Give the current password and a new one. Nothing was changed.")
            }
            // The conversion syncs first with an engine of its own; the watcher's, made
            // without the keys, gives way and is made again with them.
            await sync.stopWatching()
            let recoveryCode: String?
            do {
                recoveryCode = try await encrypt(change)
            } catch {
                await sync.refresh()
                throw error
            }
            await sync.refresh()
            // Everything goes up sealed: a cycle starts, and the page follows it.
            Task { [sync] in try? await sync.syncNow() }
            return try JSON.response(try await status(in: request.language, recoveryCode: recoveryCode), language: request.language)
        }
        group.post("account/recovery-code") { request, _ in
            let body = try await JSON.decode(RecoveryCodeRequest.self, from: request)
            guard !body.password.isEmpty else { throw WebAPIError.invalid("Give the account's password. Nothing was changed.") }
            let code = try await syncCall { () throws(SyncError) in try await store.newRecoveryCode(password: body.password) }
            return try JSON.response(RecoveryCodeAnswer(recoveryCode: code.code), status: .created)
        }
        group.post("account/rotate-keys") { request, _ in
            let body = try await JSON.decode(RecoveryCodeRequest.self, from: request)
            guard !body.password.isEmpty else { throw WebAPIError.invalid("Give the account's password. Nothing was changed.") }
            let version = try await syncCall { () throws(SyncError) in try await store.rotateSyncKeys(password: body.password) }
            let pending = try await syncCall { () throws(SyncError) in
                do throws(NoteTakerError) { return try store.syncSummary().pending } catch { throw .store(error) }
            }
            // Everything goes up sealed with the new key: a cycle starts, and the page follows it.
            Task { [sync] in try? await sync.syncNow() }
            return try JSON.response(RotatedKeysAnswer(version: version, pending: pending))
        }
        group.get("sessions") { _, _ in
            try JSON.response(try await syncCall { () throws(SyncError) in try await store.syncSessions() })
        }
        group.delete("sessions/:session") { _, context in
            let id = context.parameters.get("session") ?? ""
            try await syncCall { () throws(SyncError) in try await store.syncTransport().endSession(id: id) }
            return Response(status: .noContent)
        }
    }

    /// Makes the account this store syncs with end-to-end encrypted, with a new password
    /// (converting it when it holds notes); its recovery code.
    private func encrypt(_ change: PasswordRequest) async throws(WebAPIError) -> String? {
        try await syncCall { () throws(SyncError) -> String? in
            let settings: SyncSettings
            do throws(NoteTakerError) { settings = try store.syncSettings() } catch { throw .store(error) }
            guard let server = settings.serverURL, let username = settings.username else { throw .notConfigured }
            return try await store.encryptSyncAccount(
                server: server, username: username, currentPassword: change.currentPassword, newPassword: change.newPassword,
                allowInsecure: settings.allowInsecure, trusting: try store.trustedCertificates()).recoveryCode?.code
        }
    }

    /// The certificate a request gives to trust the server by, if any.
    private static func trusted(_ pem: String?) throws(SyncError) -> TrustedCertificates? {
        guard let pem, !pem.isEmpty else { return nil }
        return try TrustedCertificates(pem: pem)
    }

    /// Runs `body`, its failures worded for the page.
    func syncCall<T>(_ body: () async throws(SyncError) -> T) async throws(WebAPIError) -> T {
        do throws(SyncError) {
            return try await body()
        } catch {
            throw WebAPIError(error)
        }
    }
}
