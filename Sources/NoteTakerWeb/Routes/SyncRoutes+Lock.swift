import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSync

/// `POST /api/v1/sync/account/lock` and `…/unlock`: this device ends its session and forgets
/// the end-to-end encrypted account's keys, or logs in again with the account's password. A
/// locked device keeps every note and change, and syncs once unlocked.
extension SyncRoutes {
    func registerLock(on group: RouterGroup<BasicRequestContext>) {
        group.post("account/lock") { request, _ in
            // The watcher's engine holds the session and the keys in memory: it goes first.
            await sync.stopWatching()
            do {
                try await syncCall { () throws(SyncError) in try await store.lockSyncAccount() }
            } catch {
                await sync.refresh()
                throw error
            }
            await sync.refresh()
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
        group.post("account/unlock") { request, _ in
            let body = try await JSON.decode(RecoveryCodeRequest.self, from: request)
            guard !body.password.isEmpty else {
                throw WebAPIError.invalid("Give the account's password. Nothing was changed.")
            }
            try await syncCall { () throws(SyncError) in try await store.unlockSyncAccount(password: body.password) }
            await sync.refresh()
            // What waited while the device was locked goes up now; the page follows the cycle.
            Task { [sync] in try? await sync.syncNow() }
            return try JSON.response(try await status(in: request.language), language: request.language)
        }
    }
}
