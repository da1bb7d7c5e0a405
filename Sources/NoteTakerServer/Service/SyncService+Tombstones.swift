import Foundation
import Logging
import NoteTakerSyncProtocol
import ServiceLifecycle

extension SyncService {
    /// Removes the tombstones every live device has fetched past, once older than the
    /// retention (see ``TombstoneRetention``), freeing the bytes they counted.
    @discardableResult
    public func purgeTombstones(now: Date = Date()) async throws(SyncServerError) -> PurgeSummary {
        let horizon = tombstoneRetention.horizon(now: now.timeIntervalSince1970, sessions: sessionLifetime)
        return try await storing { try await storage.purgeTombstones(horizon) }
    }

    /// Refuses a fetch from a position before a tombstone since purged: the device may have
    /// missed that deletion.
    func checkNotPurged(after sequence: Int64, account: Int64) async throws(SyncServerError) {
        let purged = try await storing { try await storage.purgedThrough(account: account) }
        guard sequence < purged else { return }
        throw SyncServerError(.tombstonesPurged, """
            This device last fetched before deletions this server no longer lists (it keeps them \
            \(SessionLifetime.days(tombstoneRetention.seconds)) once every device has them). Fetch all changes again (no token): \
            what this device synced and did not change since, and is not among them, was deleted elsewhere.
            """)
    }
}

/// Runs beside the HTTP server: purges tombstones a minute after it starts and every hour after.
struct TombstonePurging: Service {
    let service: SyncService
    let logger = Logger(label: "notetaker-server.tombstones")

    func run() async {
        // Shutting down cancels the wait for the next hour: that ends the loop, not in error.
        try? await cancelWhenGracefulShutdown {
            // Not while the server starts: a minute later, then every hour.
            try await Task.sleep(for: TombstoneRetention.firstPurgeDelay)
            while !Task.isCancelled {
                do throws(SyncServerError) {
                    let summary = try await service.purgeTombstones()
                    if summary.tombstones > 0 {
                        logger.info("Purged \(summary.tombstones) tombstones of \(summary.accounts) accounts.")
                    }
                } catch {
                    logger.error("Purging tombstones failed (tried again in an hour): \(error.message)")
                }
                try await Task.sleep(for: TombstoneRetention.purgeInterval)
            }
        }
    }
}
