import Foundation
import ServiceLifecycle

/// Runs beside the HTTP server when the storage is shared by several nodes: the events every
/// node publishes reach this node's push streams.
struct BroadcastListening: Service {
    let service: SyncService
    let broadcast: any ChangeBroadcast

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await broadcast.listen(connected: { await service.refreshListeners() }, deliver: { await service.notifier.apply($0) })
        }
    }
}
