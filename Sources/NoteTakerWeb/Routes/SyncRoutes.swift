import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSync

/// `/api/v1/sync` and `/api/v1/conflicts`: the account, settings, status and conflicts.
struct SyncRoutes {
    let store: NoteStore
    let sync: WebSync

    /// The body of `POST /sync/account`: log in, or register with `register: true`.
    struct AccountRequest: Decodable {
        var server: String
        var username: String
        var password: String
        var register: Bool?
        var insecure: Bool?
        /// A certificate (PEM) to trust the server by: a private authority's, or its own.
        var caCertificate: String?
    }

    /// The body of `PUT /sync/account/password`.
    struct PasswordRequest: Decodable {
        var currentPassword: String
        var newPassword: String
    }

    /// The body of `PUT /sync/settings`.
    struct SettingsRequest: Decodable {
        var autoSync: Bool?
        var mergePolicy: String?
        var deviceName: String?
    }

    /// The body of `POST /conflicts/{id}/resolve`.
    struct ResolveRequest: Decodable {
        var keep: String
    }

    /// Everything Settings and the indicator show about sync.
    struct Status: Encodable {
        @Nullable var server: String?
        @Nullable var username: String?
        var loggedIn: Bool
        var autoSync: Bool
        var mergePolicy: String
        var mergePolicies: [String]
        var deviceName: String
        var summary: SyncSummary
        var state: State

        /// What the global indicator shows, its error worded for the reader.
        struct State: Encodable {
            var syncing: Bool
            var watching: Bool
            var connected: Bool
            @Nullable var lastError: String?
            @Nullable var lastReport: SyncReport?

            init(_ state: WebSync.State, in language: Language) {
                syncing = state.syncing
                watching = state.watching
                connected = state.connected
                lastError = state.lastError?.message(in: language)
                lastReport = state.lastReport
            }
        }
    }

    func register(on router: Router<BasicRequestContext>) {
        let group = router.group("/api/v1/sync")
        group.get { request, _ in try JSON.response(try await status(in: request.language), language: request.language) }
        group.post("account") { request, _ in
            let account = try await JSON.decode(AccountRequest.self, from: request)
            guard !account.username.isEmpty, !account.password.isEmpty else {
                throw WebAPIError.invalid("Give a user name and a password. Nothing was changed.")
            }
            let url = try storeCall { () throws(NoteTakerError) in try NoteStore.syncServerURL(account.server) }
            do throws(SyncError) {
                let trusted = try account.caCertificate.flatMap { pem throws(SyncError) in
                    pem.isEmpty ? nil : try TrustedCertificates(pem: pem)
                }
                try await store.connectSyncAccount(
                    server: url, username: account.username, password: account.password,
                    register: account.register ?? false, allowInsecure: account.insecure ?? false, trusting: trusted)
            } catch {
                throw WebAPIError(error)
            }
            await sync.refresh()
            return try JSON.response(try await status(in: request.language), status: .created, language: request.language)
        }
        group.delete("account") { request, _ in
            await sync.stopWatching()
            _ = try await disconnect()
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
        group.put("account/password") { request, _ in
            let change = try await JSON.decode(PasswordRequest.self, from: request)
            guard !change.currentPassword.isEmpty, !change.newPassword.isEmpty else {
                throw WebAPIError.invalid("Give the current password and the new one. Nothing was changed.")
            }
            // An end-to-end encrypted account's key goes along, wrapped for the new password.
            do throws(SyncError) {
                try await store.changeSyncPassword(current: change.currentPassword, new: change.newPassword)
            } catch {
                throw WebAPIError(error)
            }
            return Response(status: .noContent)
        }
        group.get("sessions") { _, _ in
            try JSON.response(try await withTransport { transport throws(SyncError) in try await transport.sessions() })
        }
        group.delete("sessions/:session") { _, context in
            let id = context.parameters.get("session") ?? ""
            try await withTransport { transport throws(SyncError) in try await transport.endSession(id: id) }
            return Response(status: .noContent)
        }
        group.put("settings") { request, _ in
            let settings = try await JSON.decode(SettingsRequest.self, from: request)
            if let policy = settings.mergePolicy, MergePolicy.named(policy) == nil {
                throw WebAPIError.invalid("'\(policy)' is not a merge policy; use \(MergePolicy.names.joined(separator: ", ")). Nothing was changed.")
            }
            try storeCall { () throws(NoteTakerError) in
                // The name is checked as it is set, so it goes first: a bad one changes nothing.
                if let deviceName = settings.deviceName { try store.setDeviceName(deviceName) }
                if let policy = settings.mergePolicy { try store.setMergePolicy(policy) }
                if let autoSync = settings.autoSync { try store.setAutoSync(autoSync) }
            }
            await sync.refresh()
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
        group.post("now") { request, _ in
            do throws(SyncError) {
                try await sync.syncNow()
            } catch {
                throw WebAPIError(error)
            }
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
        group.post("retry") { _, _ in
            let count = try storeCall { () throws(NoteTakerError) in try store.retryFailedSync() }
            return try JSON.response(["retried": count])
        }
        router.get("/api/v1/conflicts") { _, _ in
            try JSON.response(try storeCall { () throws(NoteTakerError) in try store.conflicts() })
        }
        router.post("/api/v1/conflicts/:id/resolve") { request, context in
            let id = try context.identifier()
            let body = try await JSON.decode(ResolveRequest.self, from: request)
            guard let choice = ConflictResolution(rawValue: body.keep) else {
                throw WebAPIError.invalid("'keep' takes local, server or both. Nothing was changed.")
            }
            _ = try storeCall { () throws(NoteTakerError) in try store.resolveConflict(noteId: id, keep: choice) }
            return try JSON.response(try NoteJSON(try storeCall { () throws(NoteTakerError) in try store.note(id: id) }, store: store))
        }
    }

    /// Runs `body` with the account's transport, its failures worded for the page.
    private func withTransport<T>(_ body: (HTTPSyncTransport) async throws(SyncError) -> T) async throws(WebAPIError) -> T {
        do throws(SyncError) {
            return try await body(try store.syncTransport())
        } catch {
            throw WebAPIError(error)
        }
    }

    private func disconnect() async throws(WebAPIError) -> String? {
        do {
            return try await store.disconnectSyncAccount()
        } catch {
            throw WebAPIError(error)
        }
    }

    func status(in language: Language) async throws(WebAPIError) -> Status {
        let (settings, summary) = try storeCall { () throws(NoteTakerError) in (try store.syncSettings(), try store.syncSummary()) }
        return Status(
            server: settings.serverURL?.absoluteString, username: settings.username,
            loggedIn: settings.hasAccount && store.syncToken() != nil, autoSync: settings.autoSync,
            mergePolicy: settings.mergePolicy, mergePolicies: MergePolicy.names, deviceName: settings.deviceName, summary: summary,
            state: Status.State(await sync.state, in: language))
    }
}
