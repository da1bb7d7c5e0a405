import Foundation
import Hummingbird
import NoteTakerKit
import ServiceLifecycle

/// `/api/v1/events`: server-sent events that tell the page to refetch what it shows.
///
/// `change` after every commit to the store — from this app, the command line, another tab
/// or sync (the store's live queries, which also watch other processes), and with `?share=`
/// to that share's store too; `sync` when the sync indicator or the shares change; a comment
/// line every 15 seconds. The stream ends on shutdown.
struct EventRoutes {
    let stores: WebStores
    let sync: WebSync
    static let heartbeat: Duration = .seconds(15)

    private enum Event: Sendable {
        case change, sync, heartbeat

        var text: String {
            switch self {
            case .change: "event: change\ndata: {}\n\n"
            case .sync: "event: sync\ndata: {}\n\n"
            case .heartbeat: ": heartbeat\n\n"
            }
        }
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/events") { request, _ in
            let observed = request.uri.form("share") == nil ? [stores.account] : [stores.account, try stores.store(for: request)]
            let syncUpdates = await sync.updates()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(8))
                    let tasks = observed.map { store in
                        Task {
                            var first = true
                            for try await _ in store.observeChanges() {
                                if !first { continuation.yield(.change) }
                                first = false
                            }
                        }
                    } + [
                        Task {
                            for await _ in syncUpdates { continuation.yield(.sync) }
                        },
                        Task {
                            while !Task.isCancelled {
                                try await Task.sleep(for: Self.heartbeat)
                                continuation.yield(.heartbeat)
                            }
                        },
                    ]
                    defer { tasks.forEach { $0.cancel() } }
                    try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                    try await withGracefulShutdownHandler {
                        for await event in events {
                            try await writer.write(ByteBuffer(string: event.text))
                        }
                    } onGracefulShutdown: {
                        continuation.finish()
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
