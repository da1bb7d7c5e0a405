import Foundation
import Hummingbird
import NoteTakerSyncProtocol
import ServiceLifecycle

/// The push channel: server-sent events telling a device that its account changed.
///
/// On connecting, the device gets one `changes` event at once (so it syncs whatever it
/// missed), then one after every accepted change, and a comment line every 15 seconds so
/// that a dead connection is noticed. The stream ends when the server shuts down, so a
/// connected device never holds a graceful shutdown up.
struct EventRoutes {
    let service: SyncService
    static let heartbeat: Duration = .seconds(15)

    private enum Event: Sendable {
        case changes(String)
        case heartbeat
    }

    func register(on router: Router<SyncRequestContext>) {
        router.get("/v1/events") { request, context in
            let (account, token) = try await service.account(of: request, context)
            let tokens = try await service.events(for: account, token: token)
            let latest = try await service.latestToken(for: account)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    let (events, continuation) = AsyncStream<Event>.makeStream()
                    let forwarding = Task {
                        for await token in tokens { continuation.yield(.changes(token)) }
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
                            case .changes(let token): try await writer.write(ByteBuffer(string: Self.format(token: token)))
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
}
