import Foundation
import Hummingbird
import NoteTakerSyncProtocol
import ServiceLifecycle

/// The push channel: server-sent events telling a device that its account changed, or a
/// shared zone it is a member of (a `zone` event naming it, docs/sharing.md §3.7).
///
/// On connecting, the device gets one `changes` event at once (so it syncs whatever it
/// missed), then one after every accepted change, and a comment line every 15 seconds so
/// that a dead connection is noticed. The stream ends when the server shuts down, so a
/// connected device never holds a graceful shutdown up.
struct EventRoutes {
    let service: SyncService
    static let heartbeat: Duration = .seconds(15)

    private enum Event: Sendable {
        case push(PushEvent)
        case heartbeat
    }

    func register(on router: Router<SyncRequestContext>) {
        router.get("/v1/events") { request, context in
            let (account, token) = try await service.account(of: request, context)
            let pushed = try await service.events(for: account, token: token)
            let latest = try await service.latestToken(for: account)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    let (events, continuation) = AsyncStream<Event>.makeStream()
                    let forwarding = Task {
                        for await event in pushed { continuation.yield(.push(event)) }
                        continuation.finish()
                    }
                    let beating = Task {
                        while !Task.isCancelled {
                            try await Task.sleep(for: Self.heartbeat)
                            continuation.yield(.heartbeat)
                        }
                    }
                    service.metrics.pushStreams(1)
                    defer {
                        forwarding.cancel()
                        beating.cancel()
                        service.metrics.pushStreams(-1)
                    }
                    try await writer.write(ByteBuffer(string: Self.format(token: latest)))
                    try await withGracefulShutdownHandler {
                        for await event in events {
                            switch event {
                            case .push(.changes(let token)): try await writer.write(ByteBuffer(string: Self.format(token: token)))
                            case .push(.zone(let zone, let token)): try await writer.write(ByteBuffer(string: Self.format(zone: zone, token: token)))
                            case .heartbeat: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                            }
                        }
                    } onGracefulShutdown: {
                        continuation.finish()
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// One `changes` event carrying the newest token.
    static func format(token: String) -> String {
        "event: changes\ndata: {\"token\":\"\(token)\"}\n\n"
    }

    /// One `zone` event: the zone (a lowercase UUID) and its newest token.
    static func format(zone: String, token: String) -> String {
        "event: zone\ndata: {\"token\":\"\(token)\",\"zone\":\"\(zone)\"}\n\n"
    }
}
