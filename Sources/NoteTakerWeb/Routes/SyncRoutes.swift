import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSync

/// `/api/v1/sync` and `/api/v1/conflicts`: settings, status and conflicts; the account is in
/// `SyncRoutes+Account.swift`.
struct SyncRoutes {
    let store: NoteStore
    let sync: WebSync

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
        /// Whether the account is end-to-end encrypted (docs/encryption.md).
        var encrypted: Bool
        /// Whether this device is locked: the account is end-to-end encrypted and its keys are
        /// not here, so it waits for the password to sync.
        var locked: Bool
        /// An account just registered with encryption: its recovery code, answered once.
        var recoveryCode: String?
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
        registerAccount(on: group)
        registerLock(on: group)
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
            // The account's list of sessions shows a new name too, when the server can be told;
            // the answer does not wait for a server that is slow or away.
            if settings.deviceName != nil, store.syncToken() != nil {
                Task { [store] in try? await store.nameSyncSession() }
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

    /// What Settings shows of sync; `recoveryCode` goes with the answer to registering.
    func status(in language: Language, recoveryCode: String? = nil) async throws(WebAPIError) -> Status {
        let (settings, summary) = try storeCall { () throws(NoteTakerError) in (try store.syncSettings(), try store.syncSummary()) }
        return Status(
            server: settings.serverURL?.absoluteString, username: settings.username,
            loggedIn: settings.hasAccount && store.syncToken() != nil, autoSync: settings.autoSync,
            mergePolicy: settings.mergePolicy, mergePolicies: MergePolicy.names, deviceName: settings.deviceName,
            encrypted: settings.encrypted, locked: (try? store.syncLockState()) == .locked, recoveryCode: recoveryCode, summary: summary,
            state: Status.State(await sync.state, in: language))
    }
}
